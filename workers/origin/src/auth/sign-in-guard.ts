/**
 * docs/rules-and-limits.md: 10 failed sign-ins per handle within 15 minutes lock it for 15
 * minutes, or the deploy's tighter `LOCKS.signIn` (docs/decisions/054-deploy-locks.md), which
 * every function here takes as `rule`. What the failures count against, `guard`, is the handle,
 * or the known device the attempt came from (docs/decisions/061-known-devices.md); the tables
 * keep it in their `handle` column.
 */
import type { LockRule } from "#contract/lock-limits";
import { minutesMs } from "#contract/time-limits";
import { ApiError } from "../http/answer";
import { waitInWords } from "../http/wait-words";

/** When the guard is locked, the time it opens again; otherwise null. */
async function signInLockedUntil(db: D1Database, guard: string, now: number): Promise<number | null> {
  const lock = await db
    .prepare("SELECT until FROM sign_in_lock WHERE handle = ?1 AND until > ?2")
    .bind(guard, now)
    .first<{ until: number }>();
  return lock?.until ?? null;
}

/**
 * Reserves one attempt, counted as a failure until it succeeds, or answers null when
 * the guard is locked or at its limit. Reserving before the password is hashed is
 * what keeps parallel guesses from all passing the check at once.
 */
export async function reserveSignInAttempt(db: D1Database, guard: string, now: number, rule: LockRule): Promise<number | null> {
  const reserved = await db
    .prepare(
      `INSERT INTO sign_in_failure (handle, at) SELECT ?1, ?2
       WHERE NOT EXISTS (SELECT 1 FROM sign_in_lock WHERE handle = ?1 AND until > ?2)
         AND (SELECT count(*) FROM sign_in_failure WHERE handle = ?1 AND at > ?2 - ?3) < ?4
       RETURNING rowid`,
    )
    .bind(guard, now, minutesMs(rule.windowMinutes), rule.failures)
    .first<{ rowid: number }>();
  return reserved?.rowid ?? null;
}

/**
 * The attempt failed: it stays counted, and the one that reaches the limit locks the guard.
 * The failures a lock was for are spent with it: a deploy's window may outlast its lock
 * (docs/decisions/054-deploy-locks.md), and after the lock the count starts again, rather
 * than the same failures refusing even the right password until they leave the window.
 * `onLock` runs in the same batch, after the lock is written: its statements read whether
 * the guard is now locked.
 */
export async function settleFailedAttempt(
  db: D1Database,
  guard: string,
  now: number,
  rule: LockRule,
  onLock: D1PreparedStatement[] = [],
): Promise<void> {
  await db.batch([
    db
      .prepare(
        `INSERT INTO sign_in_lock (handle, until)
         SELECT ?1, ?2 + ?3 WHERE (SELECT count(*) FROM sign_in_failure WHERE handle = ?1 AND at > ?2 - ?4) >= ?5
         ON CONFLICT (handle) DO UPDATE SET until = excluded.until`,
      )
      .bind(guard, now, minutesMs(rule.lockMinutes), minutesMs(rule.windowMinutes), rule.failures),
    ...onLock,
    db
      .prepare("DELETE FROM sign_in_failure WHERE handle = ?1 AND EXISTS (SELECT 1 FROM sign_in_lock WHERE handle = ?1 AND until > ?2)")
      .bind(guard, now),
    // Old failures no longer count; keep the table small.
    db.prepare("DELETE FROM sign_in_failure WHERE handle = ?1 AND at <= ?2 - ?3").bind(guard, now, minutesMs(rule.windowMinutes)),
  ]);
}

/** True while the guard is locked: for a statement of `onLock`. */
export const guardLockedSql = "EXISTS (SELECT 1 FROM sign_in_lock WHERE handle = ? AND until > ?)";

/** A success clears the guard's failures, the reserved attempt included: for the success's own batch. */
export function clearSignInFailuresStatement(db: D1Database, guard: string): D1PreparedStatement {
  return db.prepare("DELETE FROM sign_in_failure WHERE handle = ?1").bind(guard);
}

/** A success clears the guard's failures, the reserved attempt included. */
export async function clearSignInFailures(db: D1Database, guard: string): Promise<void> {
  await clearSignInFailuresStatement(db, guard).run();
}

/** The 429 for a guard at its limit, with how long until it opens again (sign-in and recovery share it). */
export async function signInLockedError(db: D1Database, guard: string, now: number): Promise<ApiError> {
  const lockedUntil = (await signInLockedUntil(db, guard, now)) ?? now + 60_000;
  const seconds = Math.max(1, Math.ceil((lockedUntil - now) / 1000));
  return new ApiError("SIGN_IN_LOCKED", `Too many failed sign-ins. Try again in ${waitInWords(seconds)}.`, undefined, {
    "Retry-After": String(seconds),
  });
}
