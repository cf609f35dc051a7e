/**
 * Known devices: a browser that has signed in with a handle's password holds a device token,
 * and its later attempts at that handle are counted against the token, not the handle
 * (docs/decisions/061-known-devices.md). A stranger failing at the handle locks only
 * strangers out; the person's own devices keep signing in, each still limited by the same
 * lock rule on its own count.
 */
import { daysMs } from "#contract/time-limits";
import { hashToken } from "./bearer-token";
import { randomToken } from "./session-tokens";

/** A device stays known for this long after its last sign-in with the password. */
export const knownDeviceLifetimeMs = daysMs(90);

/** The most devices one person has known at once; a new one makes the least recent forgotten. */
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
       WHERE known_device.token_hash = ?1 AND user.handle = ?2 AND known_device.signed_in_at > ?3`,
    )
    .bind(tokenHash, handle, now - knownDeviceLifetimeMs)
    .first<{ known: 1 }>();
  return known ? { key: `device:${tokenHash}`, device: { tokenHash, token: deviceToken } } : { key: handle, device: null };
}

/**
 * The statements that keep this browser a known device of `userId` after a sign-in with the
 * password, and its token: a known device keeps its token and is known afresh; any other
 * becomes one.
 */
export async function knownDeviceStatements(db: D1Database, userId: string, guard: SignInGuard, now: number) {
  if (!guard.device) return newKnownDevice(db, userId, now);
  const renew = db.prepare("UPDATE known_device SET signed_in_at = ?1 WHERE token_hash = ?2").bind(now, guard.device.tokenHash);
  return { deviceToken: guard.device.token, statements: [renew] };
}

/** A new known device of `userId` and its token; the person's least recent beyond the limit are forgotten. */
export async function newKnownDevice(db: D1Database, userId: string, now: number) {
  const deviceToken = randomToken();
  const statements = [
    db
      .prepare("INSERT INTO known_device (token_hash, user_id, created_at, signed_in_at) VALUES (?1, ?2, ?3, ?3)")
      .bind(await hashToken(deviceToken), userId, now),
    db
      .prepare(
        `DELETE FROM known_device WHERE user_id = ?1 AND token_hash NOT IN
           (SELECT token_hash FROM known_device WHERE user_id = ?1 ORDER BY signed_in_at DESC, rowid DESC LIMIT ?2)`,
      )
      .bind(userId, knownDevicesPerPerson),
  ];
  return { deviceToken, statements };
}

/** Forgets every device the person has signed in on: with their sessions, when those end. */
export function forgetKnownDevices(db: D1Database, userId: string): D1PreparedStatement {
  return db.prepare("DELETE FROM known_device WHERE user_id = ?1").bind(userId);
}
