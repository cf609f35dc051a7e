import type { Envelope } from "#contract/envelope";
import type { SessionAnswer, UserInfo } from "#contract/user-info";

export const sessionTimeoutMs = 8_000;

export type SessionResult =
  | { status: "signed-in"; user: UserInfo; replacementToken?: string }
  | { status: "signed-out" }
  | { status: "unreachable" };

const unreachableCodes = new Set(["ORIGIN_UNAVAILABLE", "ORIGIN_TIMEOUT"]);

/**
 * `POST /api/user/session` (PRODUCT.md §2.5). Never throws: a network failure, a
 * non-JSON answer or the time-out leave the user signed out, and the page says the
 * service is unreachable when that is what happened.
 */
export async function fetchSession(
  token: string | null,
  { fetch = globalThis.fetch, timeoutMs = sessionTimeoutMs }: { fetch?: typeof globalThis.fetch; timeoutMs?: number } = {},
): Promise<SessionResult> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch("/api/user/session", {
      method: "POST",
      credentials: "include",
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await response.json()) as Envelope<SessionAnswer>;
    if (answer.code === "SUCCESS") {
      // A sign-in link is single-use: the origin answers the token that replaces it.
      const { replacementToken, ...user } = answer.data;
      return replacementToken ? { status: "signed-in", user, replacementToken } : { status: "signed-in", user };
    }
    return unreachableCodes.has(answer.code) || response.status >= 500 ? { status: "unreachable" } : { status: "signed-out" };
  } catch {
    return { status: "unreachable" };
  }
}
