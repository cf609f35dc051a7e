/**
 * The batch that returns a failed WeChat Pay refund's money from the clearing account to the
 * wallet of the order's owner (docs/decisions/048-failed-wechat-refunds.md), with its audit
 * row: a failed refund's return, and a parked one's that WeChat Pay, asked again, reports
 * failed (docs/decisions/070-parked-refunds-settled.md).
 */
import type { Context } from "hono";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { journalParts, walletAccountOf } from "../ledger/journal";
import { auditStatement } from "../ops/audit";
import { operatorActor, requestIdOf } from "../ops/operator-actor";
import type { OriginEnv } from "../origin-env";
import { wechatClearingAccount } from "../wechat-pay/payments/refunds";
import type { WechatRefundRow } from "./wechat-refund-rows";

/**
 * `parked`: whether the refund is returned as parked (settled by WeChat Pay's word, decision
 * 070) or as failed, which it must still not be parked for when the batch runs: a refund
 * WeChat Pay reports for another amount meanwhile is settled as parked, after asking again.
 */
export function refundReturnBatch(
  c: Context<OriginEnv>,
  refund: WechatRefundRow,
  { reason, now, parked = false, before = {} }: { reason: string; now: number; parked?: boolean; before?: Record<string, unknown> },
): D1PreparedStatement[] {
  const db = c.env.DB;
  const txId = `tx_${crypto.randomUUID()}`;
  const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
    id: txId,
    kind: "refund",
    at: now,
    postings: [
      { account: wechatClearingAccount, amount: -refund.amount },
      { account: walletAccountOf(refund.person_id), bucket: "available", amount: refund.amount },
    ],
  });
  return [
    // The row first: an operator demoted or locked meanwhile hears 403 (migration 0036),
    // before the checks below could speak of the refund.
    auditStatement(db, {
      actor: operatorActor(c),
      action: "refund.return_to_wallet",
      object: { type: "order", id: refund.order_id },
      before: { refund: refund.out_refund_no, status: refund.status, ...before },
      after: { refund: refund.out_refund_no, wallet: refund.person_id, amount: refund.amount },
      reason,
      requestId: requestIdOf(c),
      at: now,
    }),
    ...(parked
      ? []
      : [
          assertInBatch(
            db,
            "refund_return: the refund is not parked",
            "SELECT parked_at IS NULL FROM wechat_refund WHERE out_refund_no = ?",
            refund.out_refund_no,
          ),
        ]),
    openTx,
    // Before the entries: of two returns at once, the second is refused here (the primary
    // key), not by the clearing account's overdraft; trigger wechat_refund_return_failed_only
    // refuses a refund that stopped being failed meanwhile.
    db
      .prepare(
        `INSERT INTO wechat_refund_return (out_refund_no, tx_id, user_id, reason, returned_by, returned_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
      )
      .bind(refund.out_refund_no, txId, refund.person_id, reason, c.var.operator.userId, now),
    ...entriesAndSeal,
  ];
}

/** Why a return's batch was refused, if it is one a route answers: the refund stopped being failed, or was returned meanwhile. */
export function returnRefusal(error: unknown): "not_failed" | "returned" | null {
  if (!(error instanceof Error)) return null;
  if (error.message.includes("refund_return: the refund has not failed") || isFailedAssertion(error)) return "not_failed";
  if (/UNIQUE constraint failed: wechat_refund_return/.test(error.message)) return "returned";
  return null;
}
