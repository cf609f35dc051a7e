import type { Envelope } from "./envelope";

export type ApiCall = { token?: string | null; idempotencyKey?: string; fetch?: typeof globalThis.fetch };

/**
 * The browser's client of the origin contract (through the edge's /api/* proxy).
 * Never throws: a network failure or a non-JSON answer becomes ORIGIN_UNAVAILABLE.
 */
export async function postApi<T>(
  path: `/api/${string}`,
  body: unknown,
  { token, idempotencyKey, fetch = globalThis.fetch }: ApiCall = {},
): Promise<Envelope<T>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  try {
    const response = await fetch(path, {
      // Same-origin (the edge proxies /api/*): cookies go along by default.
      method: "POST",
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  } catch {
    return { code: "ORIGIN_UNAVAILABLE" };
  }
}
