/**
 * A task budget paid from the poster's wallet: their available money moves to their held
 * money, the order is paid and the task opens, in one batch with the answer.
 */
import type { Context } from "hono";
import { ApiError } from "../http/answer";

import { isOverdraft, journalStatements, walletAccountOf } from "../ledger/journal";
import type { OriginEnv } from "../origin-env";
import { closeWechatPayAfterAnswer } from "../wechat-pay/reconcile/close-after-answer";
import type { PayableOrder } from "./payable-order";

export async function payFromWallet(c: Context<OriginEnv>, order: PayableOrder, now: number) {
  const id = order.id;
  const db = c.env.DB;
  const user = c.var.user;
  const paymentId = `pay_${crypto.randomUUID()}`;
  const txId = `tx_${crypto.randomUUID()}`;
  const wallet = walletAccountOf(user.id);
  try {
    const answer = await c.var.idempotency.commit(
      [
        // The budget moves from the poster's available money into their held money.
        ...journalStatements(db, {
          id: txId,
          kind: "escrow_hold",
          at: now,
          postings: [
            { account: wallet, amount: -order.amount, bucket: "available" },
            { account: wallet, amount: order.amount, bucket: "held" },
          ],
        }),
        // Refused by trigger unless the order is still payable; one success per order by index.
        db
          .prepare(
            "INSERT INTO payment (id, order_id, method, status, amount, tx_id, created_at, updated_at) VALUES (?1, ?2, 'wallet', 'succeeded', ?3, ?4, ?5, ?5)",
          )
          .bind(paymentId, id, order.amount, txId, now),
        db.prepare("UPDATE orders SET status = 'paid', paid_at = ?1 WHERE id = ?2 AND status = 'pending'").bind(now, id),
        // The task opens with its budget in escrow.
        db
          .prepare(
            "UPDATE task SET status = 'open', escrow_remaining = escrow_remaining + ?1, opened_at = ?2 WHERE order_id = ?3 AND status = 'awaiting_payment'",
          )
          .bind(order.amount, now, id),
      ],
      201,
      {
        code: "SUCCESS" as const,
        data: {
          orderId: id,
          paymentId,
          method: "wallet" as const,
          amount: order.amount,
          status: "paid" as const,
          paidAt: new Date(now).toISOString(),
        },
      },
    );
    // A WeChat Pay order started for this order must not be paid too (a payment made
    // meanwhile is refunded).
    await closeWechatPayAfterAnswer(c, id, now);
    return answer;
  } catch (error) {
    if (isOverdraft(error)) {
      // The batch takes the money before it states the order payable: a twin that paid this
      // order meanwhile (another key, another tab) leaves too little, so ask the order first.
      const status = await db.prepare("SELECT status FROM orders WHERE id = ?1").bind(id).first<string>("status");
      if (status !== "pending") return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
      return c.var.idempotency.refuse(new ApiError("INSUFFICIENT_FUNDS", "Your available balance is not enough for this.", "method"), {
        lasting: false,
      });
    }
    if (error instanceof Error && /order is not payable|payment_one_success|orders: a paid or closed/.test(error.message)) {
      return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
    }
    throw error;
  }
}
