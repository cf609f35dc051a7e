import { hashToken } from "./bearer-token";

/** 256 random bits, base64url: the form of session tokens and sign-in link tokens. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A new bearer token and the statement that stores only its hash. */
export async function newSessionToken(db: D1Database, userId: string, now: number) {
  const token = randomToken();
  const insert = db
    .prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at) VALUES (?1, ?2, ?3, ?3)")
    .bind(await hashToken(token), userId, now);
  return { token, insert };
}
