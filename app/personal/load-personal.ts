import { ApiFailure, signedInApi, type SignedInApi } from "../api/client";
import type { ErrorCode } from "#contract/error-codes";
import { currentLanguage } from "../i18n/messages";
import { messageFor } from "../messages/errors";
import { currentToken } from "../session/account-session";
import { PartNeedsReload } from "../startup/on-first-use";

/** What a screen about the user's own money or work has to show. */
export type Personal<T> =
  | { state: "signed-out" }
  /** `needsReload`: what reads the answer cannot come until the page is reloaded (PartNeedsReload). */
  | { state: "failed"; code: ErrorCode; message: string; needsReload?: boolean }
  | { state: "ready"; data: T };

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
    // Trying again cannot help: the screen offers the reload instead (docs/decisions/068-a-part-that-needs-a-reload-says-so.md).
    if (error instanceof PartNeedsReload) return { state: "failed", code: error.code, message: "", needsReload: true };
    return {
      state: "failed",
      code: error.code,
      message: await messageFor(error.code, currentLanguage(), { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
}
