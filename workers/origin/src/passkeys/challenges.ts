import { passkeyChallengeLifetimeMs } from "#contract/passkeys";
import { base64urlToUtf8, toBase64url } from "./base64url";

type Purpose = "register" | "sign_in";

/** A fresh challenge (32 random bytes, base64url), stored for five minutes. */
export async function issueChallenge(db: D1Database, purpose: Purpose, userId: string | null, now: number): Promise<string> {
  const challenge = toBase64url(crypto.getRandomValues(new Uint8Array(32)));
  await db
    .prepare("INSERT INTO webauthn_challenge (challenge, purpose, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(challenge, purpose, userId, now, now + passkeyChallengeLifetimeMs)
    .run();
  return challenge;
}

/**
 * Spends a challenge: true only for the one caller that deleted it while it was live and
 * was issued for this purpose (and person). One statement, so of two verifications of the
 * same challenge at once exactly one finds it; it is spent whether or not what follows
 * verifies, so an answer can be tried once.
 */
export async function spendChallenge(
  db: D1Database,
  challenge: string,
  purpose: Purpose,
  userId: string | null,
  now: number,
): Promise<boolean> {
  const spent = await db
    .prepare(
      `DELETE FROM webauthn_challenge WHERE challenge = ?1 AND purpose = ?2 AND user_id IS ?3
       RETURNING expires_at`,
    )
    .bind(challenge, purpose, userId)
    .first<{ expires_at: number }>();
  return spent !== null && spent.expires_at > now;
}

/**
 * The challenge the browser signed, read from the client data, or null when the client data
 * is not what a browser sends. The library checks it again against the challenge spent.
 */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const clientData: unknown = JSON.parse(base64urlToUtf8(clientDataJSON));
    if (typeof clientData !== "object" || clientData === null || !("challenge" in clientData)) return null;
    const { challenge } = clientData;
    return typeof challenge === "string" && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}
