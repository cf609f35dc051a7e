import { knownDeviceLifetimeMs } from "../auth/known-devices";
import { defaultLocks, type Locks } from "#contract/lock-limits";
import { minutesMs } from "#contract/time-limits";
import { longestSessionIdleMs } from "../auth/sessions";
import { askIntervalSeconds } from "../ops/wechat-ask-interval";
import { contactLimits } from "../support/contact-limits";
import { chinaDay } from "../transfers/china-day";

/** Rows deleted per table per cron run: small batches keep each run short and its locks brief. */
export const retentionBatch = 500;

const dayMs = 24 * 60 * 60 * 1000;

/** A recorded answer replays a retried request for at least a day (docs/api-contract.md). */
export const idempotencyRetentionMs = dayMs;

/**
 * What the cron may delete (docs/rules-and-limits.md, Retention): rows that no rule reads
 * any more. Never the ledger, orders, payments, refunds, tickets or the audit trail.
 * Each entry is a table and the condition that makes one of its rows expired.
 */
type Expired = { table: string; where: string; bound: (now: number) => number | string };

const expired: Expired[] = [
  { table: "idempotency", where: "created_at < ?1", bound: (now) => now - idempotencyRetentionMs },
  // Ended, or idle past the longest limit any deploy sets, which ends it anyway.
  { table: "session", where: "ended_at IS NOT NULL OR last_used_at < ?1", bound: (now) => now - longestSessionIdleMs },
  { table: "webauthn_challenge", where: "expires_at < ?1", bound: (now) => now },
  { table: "wechat_sign_in", where: "expires_at < ?1", bound: (now) => now },
  { table: "sign_in_link", where: "expires_at < ?1", bound: (now) => now },
  { table: "recovery_link", where: "expires_at < ?1", bound: (now) => now },
  // The overview reads only the latest run; a month of them tells when a problem began.
  { table: "ledger_check_run", where: "checked_at < ?1", bound: (now) => now - 30 * dayMs },
  { table: "sign_in_lock", where: "until < ?1", bound: (now) => now },
  // A device not used for its lifetime is no longer known (docs/decisions/061-known-devices.md).
  { table: "known_device", where: "last_used_at <= ?1", bound: (now) => now - knownDeviceLifetimeMs },
  { table: "contact_attempt", where: "at < ?1", bound: (now) => now - contactLimits.windowMs },
  // Yesterday's total no longer limits anything; the day before is kept for a clock's slack.
  { table: "transfer_daily", where: "day < ?1", bound: (now) => chinaDay(now - 2 * dayMs) },
  { table: "limit_counter", where: "day < ?1", bound: (now) => chinaDay(now - 2 * dayMs) },
  // Only the last 10 seconds' asks refuse anything.
  { table: "wechat_ask", where: "asked_at < ?1", bound: (now) => now - askIntervalSeconds * 1000 },
];

/** The locks' failures, kept for as long as the deploy's locks count them (docs/decisions/054-deploy-locks.md). */
const lockFailures = ({ signIn, redeem }: Locks): Expired[] => [
  { table: "sign_in_failure", where: "at < ?1", bound: (now) => now - minutesMs(signIn.windowMinutes) },
  // A lock started by a wrong try counts the tries in the window before it.
  { table: "code_failure", where: "at < ?1", bound: (now) => now - minutesMs(redeem.windowMinutes + redeem.lockMinutes) },
];

export const prunedTables = [...expired, ...lockFailures(defaultLocks)].map(({ table }) => table);

export type RetentionRun = Record<string, number>;

/**
 * Deletes up to `batch` expired rows of each table, in one D1 batch; answers how many went.
 * A lock's failures are kept for as long as the deploy's `locks` count them, and not touched
 * without them (a setting that cannot be read).
 */
export async function pruneExpired(db: D1Database, now: number, locks: Locks | null, batch = retentionBatch): Promise<RetentionRun> {
  const tables = [...expired, ...(locks ? lockFailures(locks) : [])];
  const results = await db.batch(
    tables.map(({ table, where, bound }) =>
      db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ?2)`).bind(bound(now), batch),
    ),
  );
  return Object.fromEntries(tables.map(({ table }, index) => [table, results[index]?.meta.changes ?? 0]));
}
