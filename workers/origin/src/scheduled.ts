import * as Sentry from "./error-reporting";
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
};

/**
 * The time-based rules (docs/rules-and-limits.md), run by the cron trigger; `now` comes from the caller.
 * With WeChat Pay configured, also its late and lost events (after the orders closed here, so
 * their WeChat Pay orders are closed in the same run).
 */
export async function runTimeBasedRules(
  db: D1Database,
  now: number,
  { wechatPay = null }: { wechatPay?: WechatPay | null } = {},
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
  const pruned = await run("prune-expired", () => pruneExpired(db, now), null);
  return { closedOrders, lapsedClaims, autoApproved, closedTasks, releasedEscrow, wechat, pruned };
}
