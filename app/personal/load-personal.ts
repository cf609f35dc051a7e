import { ApiFailure, signedInApi, type SignedInApi } from "../api/client";
import type { ErrorCode } from "#contract/error-codes";
import { currentLanguage } from "../i18n/messages";
import { messageFor } from "../messages/errors";
import { currentToken } from "../session/account-session";

/** What a screen about the user's own money or work has to show. */
export type Personal<T> = { state: "signed-out" } | { state: "failed"; code: ErrorCode; message: string } | { state: "ready"; data: T };

/**
 * Runs a client loader's calls as the signed-in user. Pages are the same HTML for
 * everyone, so the personal part is always fetched here, in the browser.
 */
export async function loadPersonal<T>(load: (api: SignedInApi) => Promise<T>): Promise<Personal<T>> {
  const token = currentToken();
  if (!token) return { state: "signed-out" };
  try {
    return { state: "ready", data: await load(signedInApi(token)) };
  } catch (error) {
    if (!(error instanceof ApiFailure)) throw error;
    if (error.code === "UNAUTHENTICATED") return { state: "signed-out" };
    return {
      state: "failed",
      code: error.code,
      message: await messageFor(error.code, currentLanguage(), { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
}
