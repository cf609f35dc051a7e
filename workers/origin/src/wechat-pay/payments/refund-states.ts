/**
 * A WeChat Pay refund's states, and the SQL that reads them, for every module that reads a
 * refund (the refunds machine, the person's order and receipt, the back office) without
 * loading the machine itself.
 */
import { failedWechatRefundStatuses, type wechatRefundStatuses } from "#contract/value-lists";

export type RefundStatus = (typeof wechatRefundStatuses)[number];

/**
 * The states in which WeChat Pay has failed a refund for good, as an SQL list: its money waits
 * for an operator (docs/decisions/048-failed-wechat-refunds.md).
 */
export const failedRefundStatusList = `(${failedWechatRefundStatuses.map((status) => `'${status}'`).join(", ")})`;

/**
 * How long after its return a refund returned to a wallet is first asked about again
 * (docs/decisions/071-returned-refunds-asked-again.md). Migration 0047's trigger sets that
 * first ask, with this same figure, for every return written.
 */
export const returnedRefundFirstAskMs = 3_600_000;

/** SQL: whether the refund numbered by `outRefundNo` (an SQL expression) was returned to a wallet. */
export const refundReturnedSql = (outRefundNo: string) =>
  `EXISTS (SELECT 1 FROM wechat_refund_return WHERE wechat_refund_return.out_refund_no = ${outRefundNo})`;

/**
 * SQL: the WeChat Pay refund `refund` (a table alias) as its payer sees it: pending, succeeded,
 * failed (an operator follows up) or returned (to the wallet); NULL where there is none. One
 * returned, paid out by WeChat Pay as well and taken back from the wallet has reached the
 * payer's card, and no longer the wallet: succeeded (docs/decisions/060-refunds-paid-twice.md).
 */
export const payerRefundStatusSql = (refund: string) => `CASE
  WHEN ${refund}.status IS NULL THEN NULL
  WHEN ${refund}.status = 'succeeded' THEN 'succeeded'
  WHEN ${refund}.status IN ('due', 'processing') THEN 'pending'
  WHEN EXISTS (SELECT 1 FROM wechat_refund_settlement
               WHERE wechat_refund_settlement.out_refund_no = ${refund}.out_refund_no AND wechat_refund_settlement.how = 'take_back') THEN 'succeeded'
  WHEN ${refundReturnedSql(`${refund}.out_refund_no`)} THEN 'returned'
  ELSE 'failed' END`;

/**
 * SQL: what WeChat Pay paid out for the refund `refund` (a table alias) when a parked refund
 * was settled for another amount than asked, or NULL (docs/decisions/070-parked-refunds-settled.md):
 * the payer sees where the rest went, or what Paydesk covered beyond it.
 */
export const wechatPaidOutSql = (refund: string) =>
  `(SELECT refunded FROM wechat_refund_other_amount WHERE wechat_refund_other_amount.out_refund_no = ${refund}.out_refund_no)`;
