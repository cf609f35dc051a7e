/**
 * A WeChat Pay refund's states, and the SQL that reads them, for every module that reads a
 * refund (the refunds machine, the person's order and receipt, the back office) without
 * loading the machine itself.
 */
import { failedWechatRefundStatuses, type wechatRefundStatuses } from "#contract/value-lists";

export type RefundStatus = (typeof wechatRefundStatuses)[number];

/** The states in which WeChat Pay has failed a refund for good: its money waits for an operator (docs/decisions/048-failed-wechat-refunds.md). */
export const failedRefundStatuses = failedWechatRefundStatuses;

/** The same, as an SQL list. */
export const failedRefundStatusList = `(${failedRefundStatuses.map((status) => `'${status}'`).join(", ")})`;

/** SQL: whether the refund numbered by `outRefundNo` (an SQL expression) was returned to a wallet. */
export const refundReturnedSql = (outRefundNo: string) =>
  `EXISTS (SELECT 1 FROM wechat_refund_return WHERE wechat_refund_return.out_refund_no = ${outRefundNo})`;
