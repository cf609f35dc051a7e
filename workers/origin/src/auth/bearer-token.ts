import { ApiError } from "../http/answer";

/**
 * The bearer token of a request, or null. Only the Authorization header counts:
 * a token taken from a cookie or the query string would make the API a CSRF target.
 */
export function bearerToken(authorization: string | undefined | null): string | null {
  const match = /^Bearer +([A-Za-z0-9_-]{16,128})$/i.exec(authorization ?? "");
  return match?.[1] ?? null;
}

/** Tokens are stored only as a SHA-256 hash (hex), so a database leak yields no sessions. */
export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The request's bearer token, or 401: for routes that check the session later, in their own batch. */
export function requiredBearerToken(authorization: string | undefined | null): string {
  const token = bearerToken(authorization);
  if (!token) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  return token;
}
