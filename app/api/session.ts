import type { Envelope } from "#contract/envelope";
import type { SessionAnswer } from "#contract/user-info";
import { postApi } from "./client";

export type SessionCall = { fetch?: typeof globalThis.fetch; timeoutMs?: number };

/** The bearer token stops working; the answer changes nothing here. */
export async function endSession(token: string): Promise<void> {
  await postApi<null>("/api/user/logout", undefined, { token });
}

/**
 * `POST /api/user/session` (docs/start-up.md): who the bearer token belongs to, with the
 * HTTP status beside the answer (a 5xx says the service is unreachable). Throws when no
 * JSON answer came: a network failure, the time-out, an HTML error page.
 */
export async function postSession(
  token: string | null,
  { fetch = globalThis.fetch, timeoutMs }: SessionCall = {},
): Promise<{ status: number; answer: Envelope<SessionAnswer> }> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch("/api/user/session", {
    method: "POST",
    credentials: "include",
    headers,
    ...(timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
  });
  return { status: response.status, answer: (await response.json()) as Envelope<SessionAnswer> };
}
