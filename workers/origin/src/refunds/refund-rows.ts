import type { RefundRequest } from "#contract/ops-refunds";
import { type DecisionColumns, decisionFieldsOf } from "../ops/maker-checker";

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
};

/** Every column a refund is shown with; `WHERE` and `ORDER BY` follow. */
const refundRequestSelect = `
SELECT refund_request.id, refund_request.order_id, refund_request.payment_id, refund_request.method, refund_request.amount,
       refund_request.reason, refund_request.status, refund_request.source, refund_request.requested_at, refund_request.decided_at,
       refund_request.decision_note,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       wechat_refund.out_refund_no, wechat_refund.status AS wechat_status
FROM refund_request
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
  };
}

export async function findRefundRequest(db: D1Database, id: string): Promise<RefundRequest | null> {
  const row = await db.prepare(`${refundRequestSelect} WHERE refund_request.id = ?1`).bind(id).first<RefundRequestRow>();
  return row ? refundRequestOf(row) : null;
}

export async function refundRequests(db: D1Database, where: string, ...params: unknown[]): Promise<RefundRequest[]> {
  const rows = await db
    .prepare(`${refundRequestSelect} WHERE ${where} ORDER BY refund_request.requested_at, refund_request.id LIMIT 200`)
    .bind(...params)
    .all<RefundRequestRow>();
  return rows.results.map(refundRequestOf);
}
