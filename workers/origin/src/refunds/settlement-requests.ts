/**
 * Settlements of refunds paid twice that wait for a second operator
 * (docs/decisions/072-large-settlements-need-a-second-operator.md): which settlements wait, the
 * requests as the back office shows them, whether the reader may decide on one, and the newest
 * of each refund beside the refund.
 */
import type { PaidTwiceSettleBody } from "#contract/ops-refunds";
import type { SettlementRequest, WechatRefund } from "#contract/ops-orders";
import { type DecisionColumns, decisionFieldsOf, secondOperatorSql } from "../ops/maker-checker";

/**
 * Whether settling a refund paid twice this way waits for a second operator: Paydesk bearing
 * it, or finding it paid to Paydesk's own account, for more than the threshold. A take back
 * never waits: the money comes from the wallet it was returned to, and the person's statement
 * shows it.
 */
export function settlementWaits(how: PaidTwiceSettleBody["how"], paidOut: number, threshold: number): how is SettlementRequest["how"] {
  return how !== "take_back" && paidOut > threshold;
}

export type SettlementRequestRow = DecisionColumns & {
  id: string;
  out_refund_no: string;
  how: SettlementRequest["how"];
  amount: number;
  reason: string;
  status: SettlementRequest["status"];
  requested_by: string;
  /** The order's owner, whose wallet the refund was returned to: never theirs to decide. */
  person_id: string;
  order_id: string;
  /** Whether the operator reading it may approve or reject it: 1 or 0. */
  viewer_decides: number;
};

/**
 * Every column a request is shown with; `viewerDecides` says whether the reader may decide on
 * it (`viewerDecidesSql`, or 0 where a route answers for what it just did).
 */
const requestSelect = (viewerDecides: string) => `
SELECT request.id, request.out_refund_no, request.how, request.amount, request.reason, request.status,
       request.requested_by, request.requested_at, request.decided_at, request.decision_note,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       returned.user_id AS person_id, refund.order_id, ${viewerDecides} AS viewer_decides
FROM wechat_refund_settlement_request AS request
JOIN wechat_refund_return AS returned ON returned.out_refund_no = request.out_refund_no
JOIN wechat_refund AS refund ON refund.out_refund_no = request.out_refund_no
JOIN user AS requester ON requester.id = request.requested_by
LEFT JOIN user AS decider ON decider.id = request.decided_by`;

/**
 * Whether the operator `viewer` (an SQL parameter) may decide on the request `request`: it
 * waits, they did not ask for it, the refund's money is not theirs, and they are a second
 * operator to whoever asked.
 */
export const settlementViewerDecidesSql = (viewer: string) =>
  `(request.status = 'awaiting_approval' AND request.requested_by <> ${viewer} AND returned.user_id <> ${viewer}
    AND ${secondOperatorSql(viewer, "request.requested_at", "request.requested_by", "finance")})`;

/** The requests the operator `viewer` may decide on: `FROM` this and `WHERE` the SQL above. */
export const settlementRequestsJoined = `wechat_refund_settlement_request AS request
  JOIN wechat_refund_return AS returned ON returned.out_refund_no = request.out_refund_no`;

export function settlementRequestOf(row: SettlementRequestRow): SettlementRequest {
  return {
    id: row.id,
    how: row.how,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    ...decisionFieldsOf(row),
    yoursToDecide: row.viewer_decides === 1,
  };
}

/** A request as a route finds it to act on: its answer then is nobody's to decide. */
export function findSettlementRequest(db: D1Database, id: string): Promise<SettlementRequestRow | null> {
  return db
    .prepare(`${requestSelect("0")} WHERE request.id = ?1`)
    .bind(id)
    .first<SettlementRequestRow>();
}

/**
 * The statement that reads the requests of the refunds `refundsSql` selects (SQL over `?1`),
 * as the operator `?2` sees them, oldest first: `withSettlementRequests` keeps each refund's newest.
 */
export function settlementRequestsStatement(db: D1Database, refundsSql: string, bound: unknown, viewerId: string): D1PreparedStatement {
  return db
    .prepare(
      `${requestSelect(settlementViewerDecidesSql("?2"))}
       WHERE request.out_refund_no IN (${refundsSql})
       ORDER BY request.requested_at, request.rowid`,
    )
    .bind(bound, viewerId);
}

/** The refunds, each with its newest settlement request from `rows` (index wechat_refund_settlement_request_of_refund). */
export function withSettlementRequests<Refund extends WechatRefund>(refunds: Refund[], rows: SettlementRequestRow[]): Refund[] {
  const newest = new Map<string, SettlementRequestRow>();
  for (const row of rows) newest.set(row.out_refund_no, row);
  return refunds.map((refund) => {
    const row = newest.get(refund.outRefundNo);
    return row && refund.returned ? { ...refund, returned: { ...refund.returned, settlementRequest: settlementRequestOf(row) } } : refund;
  });
}

/** The same for refunds read on their own: the requests of those listed, read in one statement. */
export async function readWithSettlementRequests<Refund extends WechatRefund>(
  db: D1Database,
  refunds: Refund[],
  viewerId: string,
): Promise<Refund[]> {
  const returned = refunds.filter((refund) => refund.returned).map((refund) => refund.outRefundNo);
  if (returned.length === 0) return refunds;
  const rows = await settlementRequestsStatement(
    db,
    "SELECT value FROM json_each(?1)",
    JSON.stringify(returned),
    viewerId,
  ).all<SettlementRequestRow>();
  return withSettlementRequests(refunds, rows.results);
}
