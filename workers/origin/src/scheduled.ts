import { deployLocks, type Locks } from "#contract/lock-limits";
import * as Sentry from "./error-reporting";
import { checkRunOf, latestCheckStatement, ledgerCheckEveryMs, runLedgerCheck } from "./ledger/recorded-check";
import { closeExpiredOrders } from "./orders/order-rows";
import { pruneExpired, type RetentionRun } from "./retention/retention";
import { autoApprove, closeAtDeadline, lapseClaims, releaseUnneededEscrow } from "./tasks/task-rules";
import type { WechatPay } from "./wechat-pay/config";
import { runWechatRules, type WechatRun } from "./wechat-pay/reconcile/wechat-rules";

export type RulesRun = {
  closedOrders: number;
  lapsedClaims: number;
  autoApproved: number;
  closedTasks: number;
  releasedEscrow: number;
  /** Null when WeChat Pay is not configured. */
  wechat: WechatRun | null;
  /** Expired rows deleted, per table; null when the pruning failed (it is reported). */
  pruned: RetentionRun | null;
  /** Violations found when the ledger was checked in this run; null when it was not due (or failed). */
  ledgerViolations: number | null;
};

/**
 * Every ten minutes, the ledger's check, recorded for the overview. A broken invariant is
 * reported: nobody may be looking at the back office when it happens.
 */
async function checkLedgerWhenDue(db: D1Database, now: number): Promise<number | null> {
  const latest = checkRunOf((await latestCheckStatement(db).first<{ checked_at: number; violations: number }>()) ?? undefined);
  if (latest && latest.checkedAt > now - ledgerCheckEveryMs) return null;
  const violations = await runLedgerCheck(db, now, "cron");
  if (violations.length > 0) {
    Sentry.captureException(new Error(`The ledger's check found ${violations.length} violation(s)`), {
      extra: { invariants: [...new Set(violations.map((violation) => violation.invariant))] },
    });
  }
  return violations.length;
}

/**
 * The time-based rules (docs/rules-and-limits.md), run by the cron trigger; `now` comes from the caller.
 * With WeChat Pay configured, also its late and lost events (after the orders closed here, so
 * their WeChat Pay orders are closed in the same run). The deploy's `settings` (absent, the
 * product's) say how long a lock's failures are kept (`LOCKS`).
 */
export async function runTimeBasedRules(
  db: D1Database,
  now: number,
  { wechatPay = null, settings = {} }: { wechatPay?: WechatPay | null; settings?: Partial<Pick<Env, "LOCKS">> } = {},
): Promise<RulesRun> {
  // Each rule on its own: one that fails (and is reported) must not hold up the others.
  const run = async <T>(rule: string, apply: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await apply();
    } catch (error) {
      console.error(`Time-based rule ${rule} failed`, error);
      Sentry.captureException(error, { tags: { rule } });
      return fallback;
    }
  };
  const closedOrders = await run("close-expired-orders", () => closeExpiredOrders(db, now), 0);
  const lapsedClaims = await run("lapse-claims", () => lapseClaims(db, now), 0);
  const autoApproved = await run("auto-approve", () => autoApprove(db, now), 0);
  const closedTasks = await run("close-at-deadline", () => closeAtDeadline(db, now), 0);
  const releasedEscrow = await run("release-escrow", () => releaseUnneededEscrow(db, now), 0);
  const wechat = wechatPay ? await run("wechat-pay", () => runWechatRules(db, wechatPay, now), null) : null;
  const pruned = await run("prune-expired", () => pruneExpired(db, now, readableLocks(settings.LOCKS)), null);
  const ledgerViolations = await run("ledger-check", () => checkLedgerWhenDue(db, now), null);
  return { closedOrders, lapsedClaims, autoApproved, closedTasks, releasedEscrow, wechat, pruned, ledgerViolations };
}

/**
 * The deploy's locks, or null when its setting cannot be read (reported): pruning then keeps
 * every failure a lock might count, and prunes the other tables as ever.
 */
function readableLocks(setting: string | undefined): Locks | null {
  try {
    return deployLocks(setting);
  } catch (error) {
    console.error("Pruning left the locks' failures: LOCKS cannot be read", error);
    Sentry.captureException(error, { tags: { rule: "prune-expired" } });
    return null;
  }
}
