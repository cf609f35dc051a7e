import * as Sentry from "@sentry/cloudflare";
import { closeExpiredOrders } from "./orders/order-rows";
import { autoApprove, closeAtDeadline, lapseClaims, releaseUnneededEscrow } from "./tasks/task-rules";

export type RulesRun = { closedOrders: number; lapsedClaims: number; autoApproved: number; closedTasks: number; releasedEscrow: number };

/** The time-based rules (PRODUCT.md §4), run by the cron trigger; `now` comes from the caller. */
export async function runTimeBasedRules(db: D1Database, now: number): Promise<RulesRun> {
  // Each rule on its own: one that fails (and is reported) must not hold up the others.
  const run = async (rule: string, apply: () => Promise<number>): Promise<number> => {
    try {
      return await apply();
    } catch (error) {
      console.error(`Time-based rule ${rule} failed`, error);
      Sentry.captureException(error, { tags: { rule } });
      return 0;
    }
  };
  const closedOrders = await run("close-expired-orders", () => closeExpiredOrders(db, now));
  const lapsedClaims = await run("lapse-claims", () => lapseClaims(db, now));
  const autoApproved = await run("auto-approve", () => autoApprove(db, now));
  const closedTasks = await run("close-at-deadline", () => closeAtDeadline(db, now));
  const releasedEscrow = await run("release-escrow", () => releaseUnneededEscrow(db, now));
  return { closedOrders, lapsedClaims, autoApproved, closedTasks, releasedEscrow };
}
