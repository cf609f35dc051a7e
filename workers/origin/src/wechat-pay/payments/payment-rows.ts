/**
 * WeChat Pay payments on the ledger (docs/decisions/004-wechat-pay.md). A payment row is
 * stored before WeChat Pay is asked; it settles exactly once, in one batch, from whichever
 * arrives first — the notification or the cron's query — and a success no order can take
 * any more is booked in and refunded out again through the WeChat clearing account.
 */
import * as Sentry from "@sentry/cloudflare";
import type { WechatPayFlow } from "#contract/payments";
import { assertInBatch } from "../idempotency/batch-assertion";
import { journalStatements, walletAccountOf, worldAccount, type Posting } from "../ledger/journal";
import type { WechatPayClient, WechatPayOutcome } from "../wechatpay/client";
import type { Refund, Transaction } from "../wechatpay/wire";

/** Where a payment no order can take waits for its refund (an escrow account: never negative). */
export const wechatClearingAccount = "acc_wechat_clearing";

export type PaymentStatus = "pending" | "succeeded" | "failed" | "refunded";
export type RemoteState = "creating" | "open" | "paid" | "closed" | "absent" | "refused" | "mismatch";

export type WechatPaymentRow = {
  id: string;
  order_id: string;
  user_id: string;
  order_kind: "recharge" | "task_budget";
  order_status: "pending" | "paid" | "closed";
  order_expires_at: number;
  description: string;
  amount: number;
  status: PaymentStatus;
  out_trade_no: string;
  flow: WechatPayFlow;
  openid: string | null;
  client_ip: string | null;
  transaction_id: string | null;
  remote_state: RemoteState | null;
  next_check_at: number | null;
  checks: number;
  created_at: number;
};

const paymentSelect = `
SELECT payment.id, payment.order_id, orders.user_id, orders.kind AS order_kind, orders.status AS order_status,
       orders.expires_at AS order_expires_at, orders.description, payment.amount, payment.status, payment.out_trade_no,
       payment.flow, payment.openid, payment.client_ip, payment.transaction_id, payment.remote_state,
       payment.next_check_at, payment.checks, payment.created_at
FROM payment JOIN orders ON orders.id = payment.order_id`;

export function findWechatPayment(db: D1Database, outTradeNo: string): Promise<WechatPaymentRow | null> {
  return db.prepare(`${paymentSelect} WHERE payment.out_trade_no = ?1 AND payment.method = 'wechat'`).bind(outTradeNo).first<WechatPaymentRow>();
}

export function findPendingWechatPayment(db: D1Database, orderId: string): Promise<WechatPaymentRow | null> {
  return db
    .prepare(`${paymentSelect} WHERE payment.order_id = ?1 AND payment.method = 'wechat' AND payment.status = 'pending'`)
    .bind(orderId)
    .first<WechatPaymentRow>();
}

/** Pending WeChat Pay payments the cron should ask WeChat Pay about now, oldest first. */
export async function duePendingPayments(db: D1Database, now: number, { limit, orderId }: { limit: number; orderId?: string }): Promise<WechatPaymentRow[]> {
  const rows = await db
    .prepare(
      `${paymentSelect}
       WHERE payment.method = 'wechat' AND payment.status = 'pending' AND payment.next_check_at <= ?1 AND (?2 IS NULL OR payment.order_id = ?2)
       ORDER BY payment.next_check_at LIMIT ?3`,
    )
    .bind(now, orderId ?? null, limit)
    .all<WechatPaymentRow>();
  return rows.results;
}

/** The first query of a payment nobody told us about: a minute after it was created (issue #5). */
export const firstCheckDelayMs = 60_000;
const longestCheckDelayMs = 10 * 60_000;

/** 1, 2, 4, 8 minutes … at most 10 minutes between the cron's questions about one payment. */
export function checkDelayMs(checks: number): number {
  return Math.min(firstCheckDelayMs * 2 ** Math.min(checks, 10), longestCheckDelayMs);
}

/** `[0-9A-Za-z]`, 32 characters: WeChat Pay's out_trade_no allows 6–32 of `[0-9A-Za-z_-|*]`. */
export function newOutTradeNo(): string {
  return `PD${crypto.randomUUID().replaceAll("-", "").slice(0, 30)}`;
}

/** One automatic refund per payment: its number follows from the payment's, so every retry refunds once. */
export function outRefundNoOf(outTradeNo: string): string {
  return `RF${outTradeNo}`;
}

export function insertWechatPayment(
  db: D1Database,
  p: { id: string; orderId: string; amount: number; outTradeNo: string; flow: WechatPayFlow; openid: string | null; clientIp: string | null; now: number },
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO payment (id, order_id, method, status, amount, out_trade_no, flow, openid, client_ip, remote_state, next_check_at, checks, created_at, updated_at)
       VALUES (?1, ?2, 'wechat', 'pending', ?3, ?4, ?5, ?6, ?7, 'creating', ?8, 0, ?9, ?9)`,
    )
    .bind(p.id, p.orderId, p.amount, p.outTradeNo, p.flow, p.openid, p.clientIp, p.now + firstCheckDelayMs, p.now);
}

/** What we now know of the order at WeChat Pay, for a payment still pending. */
export function noteRemoteState(db: D1Database, paymentId: string, state: RemoteState, now: number): D1PreparedStatement {
  return db.prepare("UPDATE payment SET remote_state = ?1, updated_at = ?2 WHERE id = ?3 AND status = 'pending'").bind(state, now, paymentId);
}

/** A pending payment that can no longer be paid at WeChat Pay (closed there, or never created). */
export async function markPaymentFailed(db: D1Database, paymentId: string, state: RemoteState, now: number): Promise<void> {
  await db
    .prepare("UPDATE payment SET status = 'failed', remote_state = ?1, next_check_at = NULL, updated_at = ?2 WHERE id = ?3 AND status = 'pending'")
    .bind(state, now, paymentId)
    .run();
}

/** Asks again later: 1, 2, 4 … 10 minutes. */
export async function checkLater(db: D1Database, payment: WechatPaymentRow, now: number, state?: RemoteState): Promise<void> {
  await db
    .prepare(
      "UPDATE payment SET next_check_at = ?1, checks = checks + 1, remote_state = coalesce(?2, remote_state), updated_at = ?3 WHERE id = ?4 AND status = 'pending'",
    )
    .bind(now + checkDelayMs(payment.checks + 1), state ?? null, now, payment.id)
    .run();
}

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

/**
 * WeChat Pay says the payment of `outTradeNo` succeeded (a notification, or a query). Exactly
 * once per payment, in one batch: the money comes in from the world account and
 * - the order is still pending → it is paid: a recharge credits the wallet; a task budget is
 *   held in the poster's escrow and the task opens (as a wallet payment of a budget does);
 * - the order closed, or was paid another way → the money waits in the clearing account and a
 *   refund is due (the caller requests it; the cron retries it).
 * A second report of the same success finds the payment settled and changes nothing.
 */
export async function settleWechatSuccess(db: D1Database, transaction: Transaction, now: number): Promise<Settlement> {
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const payment = await findWechatPayment(db, transaction.out_trade_no);
    if (!payment) return { outcome: "unknown_order" };
    if (transaction.amount?.total !== payment.amount) {
      await db
        .prepare("UPDATE payment SET remote_state = 'mismatch', next_check_at = NULL, updated_at = ?1 WHERE id = ?2 AND status = 'pending'")
        .bind(now, payment.id)
        .run();
      return { outcome: "amount_mismatch", payment };
    }
    if (payment.status === "succeeded") return { outcome: "already_settled" };
    if (payment.status === "refunded") return { outcome: "refund_already_due" };
    try {
      if (payment.status === "pending" && payment.order_status === "pending") {
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
  throw new Error(`Settling WeChat Pay payment ${transaction.out_trade_no} kept racing`);
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
      .prepare("UPDATE payment SET status = 'succeeded', tx_id = ?1, transaction_id = ?2, remote_state = 'paid', next_check_at = NULL, updated_at = ?3 WHERE id = ?4")
      .bind(txId, transaction.transaction_id ?? null, now, payment.id),
    db.prepare("UPDATE orders SET status = 'paid', paid_at = ?1 WHERE id = ?2").bind(now, payment.order_id),
    db
      .prepare(
        "UPDATE task SET status = 'open', escrow_remaining = escrow_remaining + ?1, opened_at = ?2 WHERE order_id = ?3 AND status = 'awaiting_payment'",
      )
      .bind(payment.amount, now, payment.order_id),
  ];
}

export type RefundStatus = "due" | "processing" | "succeeded" | "abnormal" | "closed" | "refused";

export type RefundRow = {
  out_refund_no: string;
  payment_id: string;
  order_id: string;
  out_trade_no: string;
  transaction_id: string | null;
  amount: number;
  status: RefundStatus;
  attempts: number;
  in_tx_id: string;
};

function newRefund(payment: WechatPaymentRow, transaction: Transaction, now: number): RefundRow & { now: number } {
  return {
    out_refund_no: outRefundNoOf(payment.out_trade_no),
    payment_id: payment.id,
    order_id: payment.order_id,
    out_trade_no: payment.out_trade_no,
    transaction_id: transaction.transaction_id ?? null,
    amount: payment.amount,
    status: "due",
    attempts: 0,
    in_tx_id: `tx_${crypto.randomUUID()}`,
    now,
  };
}

function lateSuccessStatements(db: D1Database, payment: WechatPaymentRow, refund: RefundRow, transaction: Transaction, now: number): D1PreparedStatement[] {
  return [
    db.prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, NULL, 'escrow') ON CONFLICT (id) DO NOTHING").bind(wechatClearingAccount),
    // Decided on a read: if the order is pending again by now (it cannot be), settle instead.
    assertInBatch(db, "the order can no longer take this payment", "NOT EXISTS (SELECT 1 FROM orders WHERE id = ? AND status = 'pending')", payment.order_id),
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
      .prepare("UPDATE payment SET status = 'refunded', transaction_id = ?1, remote_state = 'paid', next_check_at = NULL, updated_at = ?2 WHERE id = ?3")
      .bind(transaction.transaction_id ?? null, now, payment.id),
    db
      .prepare(
        `INSERT INTO wechat_refund (out_refund_no, payment_id, order_id, amount, reason, status, in_tx_id, attempts, next_attempt_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, (SELECT CASE status WHEN 'paid' THEN 'order_already_paid' ELSE 'order_closed' END FROM orders WHERE id = ?3), 'due', ?5, 0, ?6, ?6, ?6)`,
      )
      .bind(refund.out_refund_no, payment.id, payment.order_id, payment.amount, refund.in_tx_id, now),
  ];
}

// ——— Refunds ——————————————————————————————————————————————————————————————

const refundSelect = `
SELECT wechat_refund.out_refund_no, wechat_refund.payment_id, wechat_refund.order_id, payment.out_trade_no, payment.transaction_id,
       wechat_refund.amount, wechat_refund.status, wechat_refund.attempts, wechat_refund.in_tx_id
FROM wechat_refund JOIN payment ON payment.id = wechat_refund.payment_id`;

export function findRefund(db: D1Database, outRefundNo: string): Promise<RefundRow | null> {
  return db.prepare(`${refundSelect} WHERE wechat_refund.out_refund_no = ?1`).bind(outRefundNo).first<RefundRow>();
}

export async function dueRefunds(db: D1Database, now: number, limit: number): Promise<RefundRow[]> {
  const rows = await db
    .prepare(`${refundSelect} WHERE wechat_refund.status IN ('due', 'processing') AND wechat_refund.next_attempt_at <= ?1 ORDER BY wechat_refund.next_attempt_at LIMIT ?2`)
    .bind(now, limit)
    .all<RefundRow>();
  return rows.results;
}

/** 1, 2, 4 … minutes, at most 6 hours, between attempts at one refund. */
function refundDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.min(attempts, 12), 6 * 60 * 60_000);
}
/** After this many refused requests an operator decides (the refund stays `refused`, its money in the clearing account). */
const refundRequestLimit = 12;

export const refundReason = "订单已关闭或已支付，自动退款";

async function outcomeOf<T>(call: () => Promise<WechatPayOutcome<T>>): Promise<WechatPayOutcome<T>> {
  try {
    return await call();
  } catch (error) {
    // E.g. a merchant key that does not import: as unknown as a time-out, and reported.
    console.error("WeChat Pay call failed", error instanceof Error ? error.message : error);
    Sentry.captureException(error);
    return { outcome: "unknown", reason: "network_error", requestId: null };
  }
}

export { outcomeOf as wechatCall };

/**
 * Asks WeChat Pay to refund (re-entrant: the same out_refund_no refunds once). Accepted →
 * processing (or succeeded at once); a refusal or an unclear answer → asked again later.
 */
export async function requestRefund(db: D1Database, client: WechatPayClient, refund: RefundRow, now: number): Promise<RefundStatus> {
  const answer = await outcomeOf(() =>
    client.refund({
      outTradeNo: refund.out_trade_no,
      outRefundNo: refund.out_refund_no,
      refund: refund.amount,
      total: refund.amount,
      reason: refundReason,
    }),
  );
  if (answer.outcome === "ok") return applyRefundResult(db, refund.out_refund_no, answer.data, now);
  const error = answer.outcome === "failed" ? `${answer.status} ${answer.code} ${answer.message}`.slice(0, 500) : `unknown: ${answer.reason}`;
  const giveUp = answer.outcome === "failed" && !answer.retryable && refund.attempts + 1 >= refundRequestLimit;
  if (answer.outcome === "failed" && !answer.retryable) {
    Sentry.captureMessage(`WeChat Pay refused refund ${refund.out_refund_no}: ${answer.code}`, "error");
  }
  await db
    .prepare(
      `UPDATE wechat_refund SET attempts = attempts + 1, last_error = ?1, next_attempt_at = ?2, status = ?3, updated_at = ?4
       WHERE out_refund_no = ?5 AND status = 'due'`,
    )
    .bind(error, giveUp ? null : now + refundDelayMs(refund.attempts + 1), giveUp ? "refused" : "due", now, refund.out_refund_no)
    .run();
  return giveUp ? "refused" : "due";
}

type RefundResult = Pick<Refund, "status" | "out_refund_no"> & { refund_id?: string; amount?: { refund: number } };

/**
 * Records what WeChat Pay says of a refund (its answer, a query, or a REFUND.* notification).
 * SUCCESS moves the money out — clearing account → world — once, in the batch that marks the
 * refund succeeded (trigger `wechat_refund_final` refuses a second time).
 */
export async function applyRefundResult(db: D1Database, outRefundNo: string, result: RefundResult, now: number): Promise<RefundStatus> {
  const refund = await findRefund(db, outRefundNo);
  if (!refund) throw new Error(`No refund ${outRefundNo}`);
  if (refund.status === "succeeded") return "succeeded";
  const refundId = result.refund_id ?? null;
  if (result.status === "SUCCESS") {
    const outTx = `tx_${crypto.randomUUID()}`;
    try {
      await db.batch([
        ...journalStatements(db, {
          id: outTx,
          kind: "refund",
          at: now,
          postings: [
            { account: wechatClearingAccount, amount: -refund.amount },
            { account: worldAccount, amount: refund.amount },
          ],
        }),
        db
          .prepare(
            `UPDATE wechat_refund SET status = 'succeeded', out_tx_id = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
             WHERE out_refund_no = ?4`,
          )
          .bind(outTx, refundId, now, outRefundNo),
      ]);
    } catch (error) {
      if (error instanceof Error && error.message.includes("refund: a refund that succeeded does not change")) return "succeeded";
      throw error;
    }
    return "succeeded";
  }
  if (result.status === "PROCESSING") {
    await db
      .prepare(
        `UPDATE wechat_refund SET status = 'processing', refund_id = coalesce(?1, refund_id), attempts = attempts + 1, next_attempt_at = ?2, updated_at = ?3
         WHERE out_refund_no = ?4 AND status IN ('due', 'processing')`,
      )
      .bind(refundId, now + refundDelayMs(refund.attempts), now, outRefundNo)
      .run();
    return "processing";
  }
  // ABNORMAL (e.g. the payer's card is gone) or CLOSED: WeChat Pay's refund failed; the money
  // stays in the clearing account until an operator settles it at WeChat Pay's merchant platform.
  const status = result.status === "ABNORMAL" ? "abnormal" : "closed";
  await db
    .prepare(
      `UPDATE wechat_refund SET status = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
       WHERE out_refund_no = ?4 AND status <> 'succeeded'`,
    )
    .bind(status, refundId, now, outRefundNo)
    .run();
  Sentry.captureMessage(`WeChat Pay refund ${outRefundNo} ended ${result.status}: an operator must settle it`, "error");
  return status;
}
