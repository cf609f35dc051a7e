import type { Context } from "hono";
import type { OriginEnv } from "../origin-env";
import { hashToken } from "./bearer-token";

/** 256 random bits, base64url: the form of session tokens and sign-in link tokens. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** What a person sees of the device behind one of their sessions (docs/decisions/024-account-safety.md). */
export type SessionDevice = { userAgent: string | null; place: string | null };

/** The signing-in request's browser and place, bounded as the session table keeps them. */
export function sessionDeviceOf(c: Context<OriginEnv>): SessionDevice {
  const userAgent = c.req.header("User-Agent")?.slice(0, 512) || null;
  return { userAgent, place: c.var.clientPlace };
}

/** A session's public id: what the account page names it by, never its token's hash. */
export const newSessionId = () => `ses_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * A new bearer token and the statement that stores only its hash. `knownDeviceHash` names the
 * known device the session is opened on, which its use keeps known
 * (docs/decisions/061-known-devices.md).
 */
export async function newSessionToken(
  db: D1Database,
  userId: string,
  now: number,
  device: SessionDevice,
  knownDeviceHash: string | null = null,
) {
  const token = randomToken();
  const insert = db
    .prepare(
      `INSERT INTO session (token_hash, user_id, created_at, last_used_at, id, user_agent, place, device_hash)
       VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7)`,
    )
    .bind(await hashToken(token), userId, now, newSessionId(), device.userAgent, device.place, knownDeviceHash);
  return { token, insert };
}
