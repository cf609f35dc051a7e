import { closeExpiredOrders } from "./orders/order-rows";

/** The time-based rules (PRODUCT.md §4), run by the cron trigger; `now` comes from the caller. */
export async function runTimeBasedRules(db: D1Database, now: number): Promise<{ closedOrders: number }> {
  return { closedOrders: await closeExpiredOrders(db, now) };
}
