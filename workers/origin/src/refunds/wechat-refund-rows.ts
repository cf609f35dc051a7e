/**
 * WeChat Pay refunds as the back office reads them: the refund, whether it is parked, its
 * return to a wallet if a finance operator made one (docs/decisions/048-failed-wechat-refunds.md),
 * for one paid twice, its settlement (docs/decisions/060-refunds-paid-twice.md), and for a
 * parked one WeChat Pay paid out for another amount, that settlement
 * (docs/decisions/070-parked-refunds-settled.md).
 */
import type { WechatRefund } from "#contract/ops-orders";
import type { OpsWechatRefund } from "#contract/ops-refunds";
import { iso, isoOrNull, personRefOf } from "../ops/ops-rows";
import { failedRefundStatusList, returnedRefundFirstAskMs } from "../wechat-pay/payments/refund-states";

/**
 * Selects a refund with its return and the order's owner (`person_*`); `wechat_refund` is
 * `refund` here, and the statement adds its own WHERE.
 */
export const wechatRefundSelect = `
SELECT refund.out_refund_no, refund.payment_id, refund.order_id, refund.amount, refund.reason, refund.status,
       (SELECT payment.amount FROM payment WHERE payment.id = refund.payment_id) AS payment_amount,
       refund.parked_at, refund.refund_id, refund.attempts, refund.last_error, refund.created_at, refund.updated_at,
       returned.returned_at, returned.reason AS return_reason, returned.late_success_at, returned.late_success_account,
       returned.late_success_amount, returned.next_ask_at,
       returner.handle AS returner_handle, returner.display_name AS returner_display_name,
       settled.how AS settled_how, settled.reason AS settle_reason, settled.settled_at,
       settler.handle AS settler_handle, settler.display_name AS settler_display_name,
       approver.handle AS approver_handle, approver.display_name AS approver_display_name,
       other.refunded AS other_refunded, other.reason AS other_reason, other.settled_at AS other_settled_at,
       other_settler.handle AS other_settler_handle, other_settler.display_name AS other_settler_display_name,
       person.id AS person_id, person.handle AS person_handle, person.display_name AS person_display_name
FROM wechat_refund AS refund
JOIN orders ON orders.id = refund.order_id
JOIN user AS person ON person.id = orders.user_id
LEFT JOIN wechat_refund_return AS returned ON returned.out_refund_no = refund.out_refund_no
LEFT JOIN user AS returner ON returner.id = returned.returned_by
LEFT JOIN wechat_refund_settlement AS settled ON settled.out_refund_no = refund.out_refund_no
LEFT JOIN user AS settler ON settler.id = settled.settled_by
LEFT JOIN wechat_refund_settlement_request AS settled_request ON settled_request.id = settled.request_id
LEFT JOIN user AS approver ON approver.id = settled_request.decided_by
LEFT JOIN wechat_refund_other_amount AS other ON other.out_refund_no = refund.out_refund_no
LEFT JOIN user AS other_settler ON other_settler.id = other.settled_by`;

/**
 * The refunds that need a hand (docs/decisions/048-failed-wechat-refunds.md): failed or parked,
 * not succeeded, and not returned to a wallet unless WeChat Pay paid it out as well and it is
 * not settled yet (docs/decisions/060-refunds-paid-twice.md). The first term is index
 * wechat_refund_needs_a_hand's own condition, word for word, so SQLite uses it.
 */
export const needsAHand = `(refund.status IN ${failedRefundStatusList} OR refund.parked_at IS NOT NULL)
  AND refund.status <> 'succeeded'
  AND (returned.out_refund_no IS NULL
    OR (returned.late_success_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM wechat_refund_settlement WHERE wechat_refund_settlement.out_refund_no = refund.out_refund_no)))`;

export type WechatRefundRow = {
  out_refund_no: string;
  payment_id: string;
  order_id: string;
  amount: number;
  /** The whole payment the refund is of: WeChat Pay never refunds more of it. */
  payment_amount: number;
  reason: WechatRefund["reason"];
  status: WechatRefund["status"];
  parked_at: number | null;
  refund_id: string | null;
  attempts: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  returned_at: number | null;
  return_reason: string | null;
  late_success_at: number | null;
  late_success_account: string | null;
  /** What WeChat Pay paid out late, when not the asked amount (a parked refund's, decision 070). */
  late_success_amount: number | null;
  /** The cron's next ask of WeChat Pay about a returned refund (decision 071). */
  next_ask_at: number | null;
  returner_handle: string | null;
  returner_display_name: string | null;
  settled_how: "take_back" | "bear" | "to_paydesk" | null;
  settle_reason: string | null;
  settled_at: number | null;
  settler_handle: string | null;
  settler_display_name: string | null;
  /** The second operator who approved a settlement that waited (decision 072). */
  approver_handle: string | null;
  approver_display_name: string | null;
  other_refunded: number | null;
  other_reason: string | null;
  other_settled_at: number | null;
  other_settler_handle: string | null;
  other_settler_display_name: string | null;
  person_id: string;
  person_handle: string;
  person_display_name: string;
};

export function wechatRefundOf(row: WechatRefundRow): WechatRefund {
  return {
    outRefundNo: row.out_refund_no,
    paymentId: row.payment_id,
    amount: row.amount,
    reason: row.reason,
    status: row.status,
    // Settled once returned (docs/decisions/070-parked-refunds-settled.md): nothing is left to look at.
    parked: row.parked_at !== null && row.status !== "succeeded" && row.returned_at === null,
    refundId: row.refund_id,
    attempts: row.attempts,
    lastError: row.last_error,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    returned:
      row.returned_at === null
        ? null
        : {
            // The order's owner: a return goes to no other wallet (its invariant in ledger/invariants.ts).
            to: personRefOf(row.person_id, row.person_handle, row.person_display_name),
            by: { handle: row.returner_handle ?? "", displayName: row.returner_display_name ?? "" },
            at: iso(row.returned_at),
            reason: row.return_reason ?? "",
            lateSuccessAt: isoOrNull(row.late_success_at),
            lateSuccessAccount: row.late_success_account,
            lateSuccessAmount: row.late_success_at === null ? null : (row.late_success_amount ?? row.amount),
            settled:
              row.settled_how === null || row.settled_at === null
                ? null
                : {
                    how: row.settled_how,
                    by: { handle: row.settler_handle ?? "", displayName: row.settler_display_name ?? "" },
                    approvedBy:
                      row.approver_handle === null || row.approver_display_name === null
                        ? null
                        : { handle: row.approver_handle, displayName: row.approver_display_name },
                    at: iso(row.settled_at),
                    reason: row.settle_reason ?? "",
                  },
            nextAskAt: isoOrNull(row.next_ask_at),
            // Read beside the refund, as the reader sees it (settlement-requests.ts).
            settlementRequest: null,
          },
    otherAmount:
      row.other_refunded === null || row.other_settled_at === null
        ? null
        : {
            refunded: row.other_refunded,
            by: { handle: row.other_settler_handle ?? "", displayName: row.other_settler_display_name ?? "" },
            at: iso(row.other_settled_at),
            reason: row.other_reason ?? "",
          },
  };
}

/** A refund with its order and the order's owner, as the back office's refund desk lists it. */
export const listed = (row: WechatRefundRow): OpsWechatRefund => ({
  ...wechatRefundOf(row),
  orderId: row.order_id,
  person: personRefOf(row.person_id, row.person_handle, row.person_display_name),
});

export const readRefund = (db: D1Database, outRefundNo: string) =>
  db.prepare(`${wechatRefundSelect} WHERE refund.out_refund_no = ?1`).bind(outRefundNo).first<WechatRefundRow>();

/** What a return made now adds to the refund's answer (docs/decisions/048-failed-wechat-refunds.md). */
export function returnedNow(
  item: OpsWechatRefund,
  by: { handle: string; displayName: string },
  now: number,
  reason: string,
): NonNullable<OpsWechatRefund["returned"]> {
  return {
    to: item.person,
    by,
    at: iso(now),
    reason,
    lateSuccessAt: null,
    lateSuccessAccount: null,
    lateSuccessAmount: null,
    settled: null,
    // As migration 0047's trigger sets it for the return being written.
    nextAskAt: iso(now + returnedRefundFirstAskMs),
    settlementRequest: null,
  };
}
