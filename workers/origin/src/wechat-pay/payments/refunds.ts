/**
 * Refunds of WeChat Pay payments no order could take: asked for (again, under the same
 * out_refund_no, until WeChat Pay takes it) and settled out of the clearing account once.
 */
import * as Sentry from "../../error-reporting";
import type { WechatPayClient } from "../client/client";
import type { Refund } from "../client/wire";
import { journalParts, worldAccount } from "../../ledger/journal";
import { type RefundStatus, refundReturnedSql } from "./refund-states";
import { wechatCall } from "./wechat-call";

/** Where a payment no order can take waits for its refund (an escrow account: never negative). */
export const wechatClearingAccount = "acc_wechat_clearing";

/** The clearing account, made if missing (migration 0013 makes it; a batch that pays into it does not rely on that). */
export function ensureClearingAccount(db: D1Database): D1PreparedStatement {
  return db
    .prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, NULL, 'escrow') ON CONFLICT (id) DO NOTHING")
    .bind(wechatClearingAccount);
}

export type RefundRow = {
  out_refund_no: string;
  payment_id: string;
  order_id: string;
  out_trade_no: string;
  transaction_id: string | null;
  amount: number;
  /** The payment's whole amount: WeChat Pay checks a refund against the order's total. */
  total: number;
  /** `operator` for an operator's refund (docs/decisions/015-operator-refunds.md), else why it is automatic. */
  reason: "order_closed" | "order_already_paid" | "operator";
  status: RefundStatus;
  attempts: number;
  in_tx_id: string;
  /** 1 once a finance operator returned its money to a wallet (docs/decisions/048-failed-wechat-refunds.md). */
  returned: 0 | 1;
  /** 1 once WeChat Pay reported it for another amount than asked (docs/decisions/070-parked-refunds-settled.md). */
  parked: 0 | 1;
};

/** One automatic refund per payment: its number follows from the payment's, so every retry refunds once. */
export function outRefundNoOf(outTradeNo: string): string {
  return `RF${outTradeNo}`;
}

const refundSelect = `
SELECT wechat_refund.out_refund_no, wechat_refund.payment_id, wechat_refund.order_id, payment.out_trade_no, payment.transaction_id,
       wechat_refund.amount, payment.amount AS total, wechat_refund.reason, wechat_refund.status, wechat_refund.attempts, wechat_refund.in_tx_id,
       ${refundReturnedSql("wechat_refund.out_refund_no")} AS returned, wechat_refund.parked_at IS NOT NULL AS parked
FROM wechat_refund JOIN payment ON payment.id = wechat_refund.payment_id`;

export function findRefund(db: D1Database, outRefundNo: string): Promise<RefundRow | null> {
  return db.prepare(`${refundSelect} WHERE wechat_refund.out_refund_no = ?1`).bind(outRefundNo).first<RefundRow>();
}

export async function dueRefunds(db: D1Database, now: number, limit: number): Promise<RefundRow[]> {
  const rows = await db
    .prepare(
      `${refundSelect} WHERE wechat_refund.status IN ('due', 'processing') AND wechat_refund.next_attempt_at <= ?1 ORDER BY wechat_refund.next_attempt_at LIMIT ?2`,
    )
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

/** What the payer reads in WeChat beside the refund (at most 80 characters). */
const refundReasons = { automatic: "订单已关闭或已支付，自动退款", operator: "Paydesk 客服退款" } as const;

/**
 * Asks WeChat Pay to refund (re-entrant: the same out_refund_no refunds once). Accepted →
 * processing (or succeeded at once); a refusal or an unclear answer → asked again later.
 * An operator's ask out of turn (`outOfTurn`) records a refusal but is not one of the attempts
 * before giving up, and leaves the schedule as it was: an operator asking every few seconds
 * would otherwise spend in minutes the day of back-off the limit stands for.
 */
export async function requestRefund(
  db: D1Database,
  client: WechatPayClient,
  refund: RefundRow,
  now: number,
  { outOfTurn = false }: { outOfTurn?: boolean } = {},
): Promise<RefundStatus> {
  const answer = await wechatCall(() =>
    client.refund({
      outTradeNo: refund.out_trade_no,
      outRefundNo: refund.out_refund_no,
      refund: refund.amount,
      total: refund.total,
      reason: refund.reason === "operator" ? refundReasons.operator : refundReasons.automatic,
    }),
  );
  if (answer.outcome === "ok") return applyRefundResult(db, refund.out_refund_no, answer.data, now);
  const error =
    answer.outcome === "failed" ? `${answer.status} ${answer.code} ${answer.message}`.slice(0, 500) : `unknown: ${answer.reason}`;
  const giveUp = !outOfTurn && answer.outcome === "failed" && !answer.retryable && refund.attempts + 1 >= refundRequestLimit;
  if (answer.outcome === "failed" && !answer.retryable) {
    Sentry.captureMessage(`WeChat Pay refused refund ${refund.out_refund_no}: ${answer.code}`, "error");
  }
  if (outOfTurn) {
    await db
      .prepare("UPDATE wechat_refund SET last_error = ?1, updated_at = ?2 WHERE out_refund_no = ?3 AND status = 'due'")
      .bind(error, now, refund.out_refund_no)
      .run();
    return "due";
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

type RefundResult = Pick<Refund, "status" | "out_refund_no"> & {
  refund_id?: string;
  amount?: { refund: number };
  /** Who received the money, as WeChat Pay words it (a bank card, the payer's balance, the merchant's account). */
  user_received_account?: string;
};

/**
 * Records what WeChat Pay says of a refund (its answer, a query, or a REFUND.* notification).
 * SUCCESS moves the money out — clearing account → world — once, in the batch that marks the
 * refund succeeded (trigger `wechat_refund_final` refuses a second time).
 */
export async function applyRefundResult(db: D1Database, outRefundNo: string, result: RefundResult, now: number): Promise<RefundStatus> {
  const refund = await findRefund(db, outRefundNo);
  if (!refund) throw new Error(`No refund ${outRefundNo}`);
  if (refund.status === "succeeded") return "succeeded";
  if (refund.returned) return returnedRefundReported(db, refund, result, now);
  if (result.amount !== undefined && result.amount.refund !== refund.amount) {
    // Not this refund as asked for: nothing is booked, and it is not asked about again; an
    // operator looks (a notification saying so is refused the same way, decision 004).
    await db
      .prepare(
        `UPDATE wechat_refund SET next_attempt_at = NULL, parked_at = coalesce(parked_at, ?2), last_error = ?1, updated_at = ?2
         WHERE out_refund_no = ?3 AND status <> 'succeeded' AND NOT ${refundReturnedSql("wechat_refund.out_refund_no")}`,
      )
      .bind(`WeChat Pay reports ${result.amount.refund} fen refunded, not ${refund.amount}`, now, outRefundNo)
      .run();
    Sentry.captureMessage(`WeChat Pay reports another amount for refund ${outRefundNo}: not booked, an operator must look`, "error");
    return refund.status;
  }
  const refundId = result.refund_id ?? null;
  if (result.status === "SUCCESS") {
    const outTx = `tx_${crypto.randomUUID()}`;
    const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
      id: outTx,
      kind: "refund",
      at: now,
      postings: [
        { account: wechatClearingAccount, amount: -refund.amount },
        { account: worldAccount, amount: refund.amount },
      ],
    });
    try {
      // The refund's own row before the entries: a refund succeeded or returned meanwhile is
      // refused by its triggers, before the clearing account's overdraft check could speak.
      await db.batch([
        openTx,
        db
          .prepare(
            `UPDATE wechat_refund SET status = 'succeeded', out_tx_id = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
             WHERE out_refund_no = ?4`,
          )
          .bind(outTx, refundId, now, outRefundNo),
        ...entriesAndSeal,
      ]);
    } catch (error) {
      if (error instanceof Error && error.message.includes("refund: a refund that succeeded does not change")) return "succeeded";
      if (isReturnedMeanwhile(error)) return returnedRefundReported(db, refund, result, now);
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
  try {
    await db
      .prepare(
        `UPDATE wechat_refund SET status = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
         WHERE out_refund_no = ?4 AND status <> 'succeeded'`,
      )
      .bind(status, refundId, now, outRefundNo)
      .run();
  } catch (error) {
    if (isReturnedMeanwhile(error)) return returnedRefundReported(db, refund, result, now);
    throw error;
  }
  Sentry.captureMessage(`WeChat Pay refund ${outRefundNo} ended ${result.status}: an operator must settle it`, "error");
  return status;
}

/** Trigger `wechat_refund_returned_final`: an operator returned the refund's money to a wallet meanwhile. */
function isReturnedMeanwhile(error: unknown): boolean {
  return error instanceof Error && error.message.includes("refund: a refund returned to a wallet does not change");
}

/**
 * What WeChat Pay says of a refund whose money a finance operator returned to a wallet changes
 * nothing: its money left the clearing account then. Only a success for its amount matters,
 * because the payer now has the money twice: it is recorded on the return with where WeChat
 * Pay says it went, and reported once, for an operator to settle
 * (docs/decisions/048-failed-wechat-refunds.md, 060-refunds-paid-twice.md). A success for
 * another amount is no refund Paydesk asked for: reported, and left to the merchant platform;
 * unless the refund was parked, whose payout WeChat Pay reports for its own amount: recorded
 * with that amount, which the settlement books (docs/decisions/070-parked-refunds-settled.md).
 */
async function returnedRefundReported(db: D1Database, refund: RefundRow, result: RefundResult, now: number): Promise<RefundStatus> {
  if (result.status !== "SUCCESS") return refund.status;
  const paidOut = result.amount?.refund ?? refund.amount;
  // A refund that was parked is paid out for the amount WeChat Pay reports, which is likely not
  // the one asked (docs/decisions/070-parked-refunds-settled.md); never more than the payment.
  const otherAmountExpected = refund.parked === 1 && paidOut >= 1 && paidOut <= refund.total;
  if (paidOut !== refund.amount && !otherAmountExpected) {
    Sentry.captureMessage(
      `WeChat Pay reports refund ${refund.out_refund_no} done for ${paidOut} fen, not ${refund.amount}, after its money was returned to a wallet: not recorded, an operator must look`,
      "error",
    );
    return refund.status;
  }
  const recorded = await db
    .prepare(
      `UPDATE wechat_refund_return SET late_success_at = ?1, late_success_account = ?2, late_success_amount = ?3, next_ask_at = NULL
       WHERE out_refund_no = ?4 AND late_success_at IS NULL`,
    )
    .bind(now, result.user_received_account?.slice(0, 200) ?? null, paidOut === refund.amount ? null : paidOut, refund.out_refund_no)
    .run();
  // Once: WeChat Pay notifies again until answered, and the cron asks about a returned refund
  // until it is paid out (docs/decisions/071-returned-refunds-asked-again.md).
  if (recorded.meta.changes > 0) {
    Sentry.captureMessage(
      `WeChat Pay reports refund ${refund.out_refund_no} done after its money was returned to a wallet: the payer may have been paid twice`,
      "error",
    );
  }
  return refund.status;
}
