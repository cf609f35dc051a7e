/** An order as the pay endpoint reads it: its owner's, whatever its status (the methods decide). */
export type PayableOrder = {
  id: string;
  kind: "recharge" | "task_budget";
  amount: number;
  status: string;
  expires_at: number;
  description: string;
};

export async function findPayableOrder(db: D1Database, orderId: string, userId: string): Promise<PayableOrder | null> {
  const order = await db
    .prepare("SELECT kind, amount, status, expires_at, description FROM orders WHERE id = ?1 AND user_id = ?2")
    .bind(orderId, userId)
    .first<Omit<PayableOrder, "id">>();
  return order ? { id: orderId, ...order } : null;
}

/** Pending and not yet expired: the only orders any method may pay. */
export function isPayable(order: PayableOrder, now: number): boolean {
  return order.status === "pending" && order.expires_at > now;
}
