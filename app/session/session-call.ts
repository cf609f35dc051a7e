import type { UserInfo } from "#contract/user-info";
import { postSession, type SessionCall } from "../api/session";

const sessionTimeoutMs = 8_000;

export type SessionResult =
  | { status: "signed-in"; user: UserInfo; replacementToken?: string }
  | { status: "signed-out" }
  | { status: "unreachable" };

const unreachableCodes = new Set(["ORIGIN_UNAVAILABLE", "ORIGIN_TIMEOUT"]);

/**
 * The start-up's session call (docs/start-up.md). Never throws: a network failure, a
 * non-JSON answer or the time-out leave the user signed out, and the page says the
 * service is unreachable when that is what happened.
 */
export async function fetchSession(
  token: string | null,
  { fetch, timeoutMs = sessionTimeoutMs }: SessionCall = {},
): Promise<SessionResult> {
  try {
    const { status, answer } = await postSession(token, { fetch, timeoutMs });
    if (answer.code === "SUCCESS") {
      // A sign-in link is single-use: the origin answers the token that replaces it.
      const { replacementToken, ...user } = answer.data;
      return replacementToken ? { status: "signed-in", user, replacementToken } : { status: "signed-in", user };
    }
    return unreachableCodes.has(answer.code) || status >= 500 ? { status: "unreachable" } : { status: "signed-out" };
  } catch {
    return { status: "unreachable" };
  }
}
