import { closeExpiredOrders } from "./orders/order-rows";
import { autoApprove, closeAtDeadline, lapseClaims, releaseUnneededEscrow } from "./tasks/task-rules";

export type RulesRun = { closedOrders: number; lapsedClaims: number; autoApproved: number; closedTasks: number; releasedEscrow: number };

/** The time-based rules (PRODUCT.md §4), run by the cron trigger; `now` comes from the caller. */
export async function runTimeBasedRules(db: D1Database, now: number): Promise<RulesRun> {
  const closedOrders = await closeExpiredOrders(db, now);
  const lapsedClaims = await lapseClaims(db, now);
  const autoApproved = await autoApprove(db, now);
  const closedTasks = await closeAtDeadline(db, now);
  const releasedEscrow = await releaseUnneededEscrow(db, now);
  return { closedOrders, lapsedClaims, autoApproved, closedTasks, releasedEscrow };
}
