import type { RefundRequest } from "#contract/ops-refunds";
import { type DecisionColumns, decisionFieldsOf, secondOperatorSql } from "../ops/maker-checker";

type RefundRequestRow = DecisionColumns & {
  id: string;
  order_id: string;
  payment_id: string;
  method: RefundRequest["method"];
  amount: number;
  reason: string;
  status: RefundRequest["status"];
  source: RefundRequest["source"];
  out_refund_no: string | null;
  wechat_status: NonNullable<RefundRequest["wechat"]>["status"] | null;
  /** Whether the operator reading it may approve or reject it: 1 or 0. */
  viewer_decides: number;
};

/**
 * Whether the operator `viewer` (an SQL parameter) may decide on a refund, over `refund_request`
 * joined with its `orders`: it awaits a decision, they did not ask for it, the order is not
 * theirs (docs/decisions/065-no-refund-of-ones-own-order.md), and they are a second operator to
 * whoever asked.
 */
export const refundViewerDecidesSql = (viewer: string) =>
  `(refund_request.status = 'awaiting_approval' AND refund_request.requested_by <> ${viewer} AND orders.user_id <> ${viewer}
    AND ${secondOperatorSql(viewer, "refund_request.requested_at", "refund_request.requested_by", "finance")})`;

/** Every column a refund is shown with, as the operator `?1` reads it; `WHERE` (from `?2`) and `ORDER BY` follow. */
const refundRequestSelect = `
SELECT refund_request.id, refund_request.order_id, refund_request.payment_id, refund_request.method, refund_request.amount,
       refund_request.reason, refund_request.status, refund_request.source, refund_request.requested_at, refund_request.decided_at,
       refund_request.decision_note,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       wechat_refund.out_refund_no, wechat_refund.status AS wechat_status,
       ${refundViewerDecidesSql("?1")} AS viewer_decides
FROM refund_request
JOIN orders ON orders.id = refund_request.order_id
JOIN user AS requester ON requester.id = refund_request.requested_by
LEFT JOIN user AS decider ON decider.id = refund_request.decided_by
LEFT JOIN wechat_refund ON wechat_refund.request_id = refund_request.id`;

function refundRequestOf(row: RefundRequestRow): RefundRequest {
  return {
    id: row.id,
    orderId: row.order_id,
    paymentId: row.payment_id,
    method: row.method,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    source: row.source,
    ...decisionFieldsOf(row),
    wechat: row.out_refund_no === null || row.wechat_status === null ? null : { outRefundNo: row.out_refund_no, status: row.wechat_status },
    yoursToDecide: row.viewer_decides === 1,
  };
}

export async function findRefundRequest(db: D1Database, viewerId: string, id: string): Promise<RefundRequest | null> {
  const row = await db.prepare(`${refundRequestSelect} WHERE refund_request.id = ?2`).bind(viewerId, id).first<RefundRequestRow>();
  return row ? refundRequestOf(row) : null;
}

/** The refunds `where` (its parameters from `?2`) selects, as the operator `viewerId` reads them. */
export async function refundRequests(db: D1Database, viewerId: string, where: string, ...params: unknown[]): Promise<RefundRequest[]> {
  const rows = await db
    .prepare(`${refundRequestSelect} WHERE ${where} ORDER BY refund_request.requested_at, refund_request.id LIMIT 200`)
    .bind(viewerId, ...params)
    .all<RefundRequestRow>();
  return rows.results.map(refundRequestOf);
}
