/**
 * Where an operator's refund takes its money from, and the statements that move it
 * (docs/decisions/015-operator-refunds.md). Worked out from reads, then stated in the batch
 * that moves the money, so a change in between fails the batch instead of slipping through.
 */
import { ApiError } from "../http/answer";
import { assertInBatch } from "../idempotency/batch-assertion";
import { journalParts, walletAccountOf } from "../ledger/journal";
import { ensureClearingAccount, wechatClearingAccount } from "../wechat-pay/payments/refunds";

export type RefundablePayment = {
  order_id: string;
  order_kind: "recharge" | "task_budget";
  order_status: string;
  user_id: string;
  payment_id: string;
  method: "wallet" | "wechat";
  paid: number;
  refunded: number;
  /** What was refunded of it with no second operator's approval (maker-checker counts it). */
  refunded_unchecked: number;
  task_id: string | null;
  task_status: string | null;
  task_reward: number | null;
  unclaimed_slots: number | null;
  task_slots: number | null;
};

/** The sum of the refunds of payment `paymentId` (an SQL expression) that no second operator approved: made at once, by whoever asked. */
export const uncheckedRefundsOf = (paymentId: string) =>
  `SELECT coalesce(sum(amount), 0) FROM refund_request WHERE payment_id = ${paymentId} AND status = 'approved' AND decided_by IS NULL`;

/**
 * What payment `paymentId` (an SQL expression) gave back: its refunds not rejected, plus what
 * WeChat Pay paid out beyond a refund's asked amount (view `payment_refunded`, migration 0046,
 * which the database's own check reads too).
 */
export const refundedOf = (paymentId: string) => `(SELECT refunded FROM payment_refunded WHERE payment_id = ${paymentId})`;

/** The order's succeeded payment and what is left of it to refund. */
export function refundablePayment(db: D1Database, orderId: string): Promise<RefundablePayment | null> {
  return db
    .prepare(
      `SELECT orders.id AS order_id, orders.kind AS order_kind, orders.status AS order_status, orders.user_id,
              payment.id AS payment_id, payment.method, payment.amount AS paid,
              ${refundedOf("payment.id")} AS refunded,
              (${uncheckedRefundsOf("payment.id")}) AS refunded_unchecked,
              task.id AS task_id, task.status AS task_status, task.reward AS task_reward,
              task.slots - task.slots_taken AS unclaimed_slots, task.slots AS task_slots
       FROM orders
       LEFT JOIN payment ON payment.order_id = orders.id AND payment.status = 'succeeded'
       LEFT JOIN task ON task.order_id = orders.id
       WHERE orders.id = ?1`,
    )
    .bind(orderId)
    .first<RefundablePayment>();
}

export type RefundSource = "wallet" | "task_escrow";

/**
 * Where the money comes back from:
 * - a recharge: the wallet it went into (the person may have spent it: then the refund waits);
 * - a task budget whose task is still open: the escrow of whole slots no one has claimed, and
 *   the task shrinks by those slots (cancelled when it loses all and no one has claimed any);
 * - a task budget whose task has ended: its unused escrow went back to the wallet then, so a
 *   WeChat Pay payment is refunded from the wallet, and a wallet payment has nothing left.
 */
export function refundSourceOf(payment: RefundablePayment, amount: number): RefundSource {
  if (payment.order_kind === "recharge") return "wallet";
  if (payment.task_status === "open") {
    const reward = payment.task_reward ?? 0;
    if (amount % reward !== 0 || amount / reward > (payment.unclaimed_slots ?? 0)) {
      throw new ApiError(
        "REFUND_NOT_WHOLE_SLOTS",
        `The task is still open: refund whole unclaimed slots of ${(reward / 100).toFixed(2)} each, at most ${payment.unclaimed_slots ?? 0}.`,
        "amount",
      );
    }
    return "task_escrow";
  }
  if (payment.method === "wallet") {
    throw new ApiError("NOT_REFUNDABLE", "The task has ended: its unused budget already went back to the wallet.");
  }
  return "wallet";
}

/**
 * The statements that move a refund's money, in two parts around the statement that records
 * the refund: `opening` (the journal transaction's row, which that statement refers to) and
 * `moving` (the task's shrinking, the entries and the seal). So a batch refused for going past
 * the payment says so, before the wallet's overdraft check could speak.
 */
export function refundMoneyStatements(
  db: D1Database,
  { payment, source, amount, txId, now }: { payment: RefundablePayment; source: RefundSource; amount: number; txId: string; now: number },
): { opening: D1PreparedStatement[]; moving: D1PreparedStatement[] } {
  const wallet = walletAccountOf(payment.user_id);
  const from = { account: wallet, bucket: source === "wallet" ? ("available" as const) : ("held" as const) };
  // A wallet payment comes back into the wallet; a WeChat Pay one waits in the clearing account for WeChat Pay.
  const to = payment.method === "wallet" ? { account: wallet, bucket: "available" as const } : { account: wechatClearingAccount };
  const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
    id: txId,
    kind: "refund",
    at: now,
    postings: [
      { ...from, amount: -amount },
      { ...to, amount },
    ],
  });
  const opening = [...(payment.method === "wechat" ? [ensureClearingAccount(db)] : []), openTx];
  if (source !== "task_escrow" || !payment.task_id || !payment.task_reward) return { opening, moving: entriesAndSeal };
  const slots = amount / payment.task_reward;
  return {
    opening,
    moving: [
      // The slots are still unclaimed when the money moves: a claim that came first wins.
      assertInBatch(
        db,
        "the task is open with those slots unclaimed",
        "(SELECT status = 'open' AND slots - slots_taken >= ? FROM task WHERE id = ?)",
        slots,
        payment.task_id,
      ),
      db
        .prepare(
          `UPDATE task SET
             status = CASE WHEN slots = ?1 THEN 'cancelled' ELSE status END,
             slots = CASE WHEN slots = ?1 THEN slots ELSE slots - ?1 END,
             escrow_remaining = escrow_remaining - ?2
           WHERE id = ?3`,
        )
        .bind(slots, amount, payment.task_id),
      ...entriesAndSeal,
    ],
  };
}
