import { hashToken } from "./bearer-token";

/** A new 256-bit bearer token (base64url) and the statement that stores only its hash. */
export async function newSessionToken(db: D1Database, userId: string, now: number) {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const insert = db
    .prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at) VALUES (?1, ?2, ?3, ?3)")
    .bind(await hashToken(token), userId, now);
  return { token, insert };
}
