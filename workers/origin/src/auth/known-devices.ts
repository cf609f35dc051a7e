/**
 * Known devices: a browser that has signed in with a handle's password holds a device token,
 * and its later attempts at that handle are counted against the token, not the handle
 * (docs/decisions/061-known-devices.md). A stranger failing at the handle locks only
 * strangers out; the person's own browsers keep signing in.
 */
import { daysMs } from "#contract/time-limits";
import { hashToken } from "./bearer-token";
import { randomToken } from "./session-tokens";
import { guardLockedSql } from "./sign-in-guard";

/** A device stays known for this long after it last signed in, or used a session it opened. */
export const knownDeviceLifetimeMs = daysMs(90);

/** The most devices one person has known at once; a new one makes the least recently used forgotten. */
export const knownDevicesPerPerson = 10;

/** What a sign-in attempt counts against: the handle, or one of its person's known devices. */
export type SignInGuard = { key: string; device: { tokenHash: string; token: string } | null };

/**
 * The guard of an attempt at `handle`: its known device when the token names one of that
 * handle's person, still known; otherwise the handle. A token that names nothing, another
 * person's device or a forgotten one is not refused: the attempt is a stranger's, counted
 * against the handle, and the answer does not tell which.
 */
export async function signInGuardOf(db: D1Database, handle: string, deviceToken: string | undefined, now: number): Promise<SignInGuard> {
  if (deviceToken === undefined) return { key: handle, device: null };
  const tokenHash = await hashToken(deviceToken);
  const known = await db
    .prepare(
      `SELECT 1 AS known FROM known_device JOIN user ON user.id = known_device.user_id
       WHERE known_device.token_hash = ?1 AND user.handle = ?2 AND known_device.last_used_at > ?3`,
    )
    .bind(tokenHash, handle, now - knownDeviceLifetimeMs)
    .first<{ known: 1 }>();
  return known ? { key: `device:${tokenHash}`, device: { tokenHash, token: deviceToken } } : { key: handle, device: null };
}

/**
 * For a failed attempt's batch: a known device that fails as often as the lock allows is
 * forgotten rather than locked. From then on its attempts are a stranger's, counted against
 * the handle, so a token taken from a shared computer buys one round of guesses, not one
 * every window.
 */
export function forgottenWhenLocked(db: D1Database, guard: SignInGuard, now: number): D1PreparedStatement[] {
  if (!guard.device) return [];
  return [db.prepare(`DELETE FROM known_device WHERE token_hash = ? AND ${guardLockedSql}`).bind(guard.device.tokenHash, guard.key, now)];
}

/** The device token this browser keeps, its hash (for the session it opens), and the statements that store it. */
export type KnownDevice = { deviceToken: string; tokenHash: string; statements: D1PreparedStatement[] };

/**
 * After a sign-in with the password: a known device keeps its token and is known afresh, under
 * the browser it signed in with now; any other becomes one.
 */
export async function knownDeviceAfterSignIn(
  db: D1Database,
  userId: string,
  guard: SignInGuard,
  now: number,
  userAgent: string | null,
): Promise<KnownDevice> {
  if (!guard.device) return newKnownDevice(db, userId, now, userAgent);
  const { token, tokenHash } = guard.device;
  const renew = db
    .prepare("UPDATE known_device SET last_used_at = ?1, user_agent = ?3 WHERE token_hash = ?2")
    .bind(now, tokenHash, userAgent);
  return { deviceToken: token, tokenHash, statements: [renew] };
}

/**
 * A new known device of `userId`, named by the browser's user agent (bounded as a session's,
 * `sessionDeviceOf`); the person's least recently used beyond the limit are forgotten.
 */
export async function newKnownDevice(db: D1Database, userId: string, now: number, userAgent: string | null): Promise<KnownDevice> {
  const deviceToken = randomToken();
  const tokenHash = await hashToken(deviceToken);
  const statements = [
    db
      .prepare("INSERT INTO known_device (token_hash, user_id, created_at, last_used_at, user_agent) VALUES (?1, ?2, ?3, ?3, ?4)")
      .bind(tokenHash, userId, now, userAgent),
    db
      .prepare(
        `DELETE FROM known_device WHERE user_id = ?1 AND token_hash NOT IN
           (SELECT token_hash FROM known_device WHERE user_id = ?1 ORDER BY last_used_at DESC, rowid DESC LIMIT ?2)`,
      )
      .bind(userId, knownDevicesPerPerson),
  ];
  return { deviceToken, tokenHash, statements };
}

/** Forgets every device the person has signed in on: when the account is taken back. */
export function forgetKnownDevices(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare("DELETE FROM known_device WHERE user_id = ?1").bind(userId);
}
