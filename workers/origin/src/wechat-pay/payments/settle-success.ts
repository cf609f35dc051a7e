/**
 * WeChat Pay payments on the ledger (docs/decisions/004-wechat-pay.md). A payment row is
 * stored before WeChat Pay is asked; it settles exactly once, in one batch, from whichever
 * arrives first — the notification or the cron's query — and a success no order can take
 * any more is booked in and refunded out again through the WeChat clearing account.
 */
import { assertInBatch } from "../../idempotency/batch-assertion";
import { journalStatements, walletAccountOf, worldAccount, type Posting } from "../../ledger/journal";
import type { Transaction } from "../client/wire";
import { findWechatPayment, type WechatPaymentRow } from "./payment-rows";
import { ensureClearingAccount, outRefundNoOf, wechatClearingAccount, type RefundRow } from "./refunds";

export type Settlement =
  | { outcome: "settled"; payment: WechatPaymentRow }
  | { outcome: "already_settled" }
  | { outcome: "refund_due"; refund: RefundRow }
  | { outcome: "refund_already_due" }
  | { outcome: "amount_mismatch"; payment: WechatPaymentRow }
  | { outcome: "unknown_order" };

/** Errors that mean another settlement (or a close) got there first: read again and decide again. */
function lostRace(error: unknown): boolean {
  return (
    error instanceof Error &&
    /payment: a settled payment does not change|payment: the order is not payable|orders: a paid or closed order does not change|UNIQUE constraint failed: payment\.order_id|UNIQUE constraint failed: wechat_refund|batch_assertion/.test(
      error.message,
    )
  );
}

const keptRacing = "kept racing";

/** Settling kept meeting other writers (the cron, a notification) for four tries. */
export const isSettlementRace = (error: unknown) => error instanceof Error && error.message.endsWith(keptRacing);

/**
 * WeChat Pay says the payment of `outTradeNo` succeeded (a notification, or a query). Exactly
 * once per payment, in one batch: the money comes in from the world account and
 * - the order is still pending → it is paid: a recharge credits the wallet; a task budget is
 *   held in the poster's escrow and the task opens (as a wallet payment of a budget does).
 *   So too for a payment given up meanwhile (a close that met ORDER_NOT_EXIST before its
 *   create landed, migration 0028): the payer paid it, and the order can take it;
 * - the order closed, or was paid another way → the money waits in the clearing account and a
 *   refund is due (the caller requests it; the cron retries it).
 * A second report of the same success finds the payment settled and changes nothing.
 */
export async function settleWechatSuccess(db: D1Database, transaction: Transaction, now: number): Promise<Settlement> {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const payment = await findWechatPayment(db, transaction.out_trade_no);
    if (!payment) return { outcome: "unknown_order" };
    // Paydesk charges in fen of CNY only: a total in another currency is not the order's amount.
    if (transaction.amount?.total !== payment.amount || (transaction.amount.currency ?? "CNY") !== "CNY") {
      await db
        .prepare("UPDATE payment SET remote_state = 'mismatch', next_check_at = NULL, updated_at = ?1 WHERE id = ?2 AND status = 'pending'")
        .bind(now, payment.id)
        .run();
      return { outcome: "amount_mismatch", payment };
    }
    if (payment.status === "succeeded") return { outcome: "already_settled" };
    if (payment.status === "refunded") return { outcome: "refund_already_due" };
    try {
      if ((payment.status === "pending" || payment.status === "failed") && payment.order_status === "pending") {
        await db.batch(settlementStatements(db, payment, transaction, now));
        return { outcome: "settled", payment };
      }
      const refund = newRefund(payment, transaction, now);
      await db.batch(lateSuccessStatements(db, payment, refund, transaction, now));
      return { outcome: "refund_due", refund };
    } catch (error) {
      if (!lostRace(error)) throw error;
    }
  }
  throw new Error(`Settling WeChat Pay payment ${transaction.out_trade_no} ${keptRacing}`);
}

function settlementStatements(db: D1Database, payment: WechatPaymentRow, transaction: Transaction, now: number): D1PreparedStatement[] {
  const txId = `tx_${crypto.randomUUID()}`;
  const wallet = walletAccountOf(payment.user_id);
  const postings: Posting[] =
    payment.order_kind === "recharge"
      ? [
          { account: worldAccount, amount: -payment.amount },
          { account: wallet, amount: payment.amount, bucket: "available" },
        ]
      : // Straight into the poster's held money: what paying the budget from the wallet ends with.
        [
          { account: worldAccount, amount: -payment.amount },
          { account: wallet, amount: payment.amount, bucket: "held" },
        ];
  return [
    ...journalStatements(db, { id: txId, kind: payment.order_kind === "recharge" ? "recharge" : "escrow_hold", at: now, postings }),
    // Unconditional on purpose: trigger `payment_final` aborts the whole batch when the
    // payment was settled already, and `payment_succeeds_for_payable_order` when the order
    // is no longer pending — no money moves twice.
    db
      .prepare(
        "UPDATE payment SET status = 'succeeded', tx_id = ?1, transaction_id = ?2, remote_state = 'paid', next_check_at = NULL, updated_at = ?3 WHERE id = ?4",
      )
      .bind(txId, transaction.transaction_id ?? null, now, payment.id),
    db.prepare("UPDATE orders SET status = 'paid', paid_at = ?1 WHERE id = ?2").bind(now, payment.order_id),
    db
      .prepare(
        "UPDATE task SET status = 'open', escrow_remaining = escrow_remaining + ?1, opened_at = ?2 WHERE order_id = ?3 AND status = 'awaiting_payment'",
      )
      .bind(payment.amount, now, payment.order_id),
  ];
}

function newRefund(payment: WechatPaymentRow, transaction: Transaction, now: number): RefundRow & { now: number } {
  return {
    out_refund_no: outRefundNoOf(payment.out_trade_no),
    payment_id: payment.id,
    order_id: payment.order_id,
    out_trade_no: payment.out_trade_no,
    transaction_id: transaction.transaction_id ?? null,
    amount: payment.amount,
    total: payment.amount,
    // Which of the two automatic reasons is decided in SQL when the refund is stored; WeChat Pay is told the same for both.
    reason: "order_closed",
    status: "due",
    attempts: 0,
    in_tx_id: `tx_${crypto.randomUUID()}`,
    returned: 0,
    parked: 0,
    now,
  };
}

function lateSuccessStatements(
  db: D1Database,
  payment: WechatPaymentRow,
  refund: RefundRow,
  transaction: Transaction,
  now: number,
): D1PreparedStatement[] {
  return [
    ensureClearingAccount(db),
    // Decided on a read: if the order is pending again by now (it cannot be), settle instead.
    assertInBatch(
      db,
      "the order can no longer take this payment",
      "NOT EXISTS (SELECT 1 FROM orders WHERE id = ? AND status = 'pending')",
      payment.order_id,
    ),
    ...journalStatements(db, {
      id: refund.in_tx_id,
      kind: "payment_to_refund",
      at: now,
      postings: [
        { account: worldAccount, amount: -payment.amount },
        { account: wechatClearingAccount, amount: payment.amount },
      ],
    }),
    // pending → refunded, or failed → refunded; a payment refunded already aborts the batch.
    db
      .prepare(
        "UPDATE payment SET status = 'refunded', transaction_id = ?1, remote_state = 'paid', next_check_at = NULL, updated_at = ?2 WHERE id = ?3",
      )
      .bind(transaction.transaction_id ?? null, now, payment.id),
    db
      .prepare(
        `INSERT INTO wechat_refund (out_refund_no, payment_id, order_id, amount, reason, status, in_tx_id, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, (SELECT CASE status WHEN 'paid' THEN 'order_already_paid' ELSE 'order_closed' END FROM orders WHERE id = ?3), 'due', ?5, 0, ?6, ?6, ?6)`,
      )
      .bind(refund.out_refund_no, payment.id, payment.order_id, payment.amount, refund.in_tx_id, now),
  ];
}
