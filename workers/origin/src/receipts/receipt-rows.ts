/**
 * A receipt, read only for the people its money moved between (docs/decisions/026-statement-and-receipts.md):
 * both sides of a transfer, the worker and the poster of a task's reward, the owner of the
 * order paid or refunded. Anyone else reads nothing, exactly as for an id that does not exist.
 * Every query goes by primary keys (and refund_request's request_id on wechat_refund, unique).
 * A refund's receipt is an operator's refund (`rfd_…`) or an automatic one (its WeChat Pay
 * refund number, `RF…`): one id never names both.
 */
import type { Receipt } from "#contract/receipts";
import { payerRefundStatusSql, wechatPaidOutSql } from "../wechat-pay/payments/refund-states";
import type { ReceiptKind } from "#contract/wallet";

type Row = {
  id: string;
  amount: number;
  at: number;
  status: Receipt["status"];
  method: Receipt["method"];
  note: string | null;
  tx_id: string | null;
  wechat_paid_out: number | null;
  payer_handle: string | null;
  payer_name: string | null;
  payee_handle: string | null;
  payee_name: string | null;
  order_id: string | null;
  order_kind: "recharge" | "task_budget" | null;
  order_description: string | null;
  task_id: string | null;
  task_title: string | null;
};

/** What an order's receipt adds: the order, its task and its owner. */
const orderJoins = `JOIN orders ON orders.id = %.order_id
  JOIN user AS owner ON owner.id = orders.user_id
  LEFT JOIN task ON task.order_id = orders.id`;

/** A refund as its payer sees it: a wallet refund (no WeChat Pay refund) is done at once. */
const wechatRefundStatus = `coalesce(${payerRefundStatusSql("wechat_refund")}, 'succeeded')`;

const sqlOf: Record<ReceiptKind, string> = {
  transfer: `SELECT transfer.id, transfer.amount, transfer.created_at AS at, 'succeeded' AS status, NULL AS method, transfer.note,
      transfer.tx_id, NULL AS wechat_paid_out, payer.handle AS payer_handle, payer.display_name AS payer_name,
      payee.handle AS payee_handle, payee.display_name AS payee_name,
      NULL AS order_id, NULL AS order_kind, NULL AS order_description, NULL AS task_id, NULL AS task_title
    FROM transfer
    JOIN user AS payer ON payer.id = transfer.from_user
    JOIN user AS payee ON payee.id = transfer.to_user
    WHERE transfer.id = ?1 AND ?2 IN (transfer.from_user, transfer.to_user)`,
  payment: `SELECT payment.id, payment.amount, coalesce(journal_tx.created_at, payment.created_at) AS at, payment.status, payment.method,
      NULL AS note, payment.tx_id, NULL AS wechat_paid_out, owner.handle AS payer_handle, owner.display_name AS payer_name, NULL AS payee_handle, NULL AS payee_name,
      orders.id AS order_id, orders.kind AS order_kind, orders.description AS order_description, task.id AS task_id, task.title AS task_title
    FROM payment
    ${orderJoins.replace("%", "payment")}
    LEFT JOIN journal_tx ON journal_tx.id = payment.tx_id
    WHERE payment.id = ?1 AND orders.user_id = ?2`,
  refund: `SELECT refund_request.id, refund_request.amount, coalesce(refund_request.decided_at, refund_request.requested_at) AS at,
      ${wechatRefundStatus} AS status, refund_request.method, NULL AS note, refund_request.tx_id,
      ${wechatPaidOutSql("wechat_refund")} AS wechat_paid_out,
      NULL AS payer_handle, NULL AS payer_name, owner.handle AS payee_handle, owner.display_name AS payee_name,
      orders.id AS order_id, orders.kind AS order_kind, orders.description AS order_description, task.id AS task_id, task.title AS task_title
    FROM refund_request
    ${orderJoins.replace("%", "refund_request")}
    LEFT JOIN wechat_refund ON wechat_refund.request_id = refund_request.id
    WHERE refund_request.id = ?1 AND orders.user_id = ?2 AND refund_request.status = 'approved'
    UNION ALL
    -- A WeChat Pay payment refunded automatically (its order closed, or was paid another way):
    -- its refund's own number is its id, and the booking that set it going its transaction.
    SELECT wechat_refund.out_refund_no, wechat_refund.amount, wechat_refund.created_at,
      ${wechatRefundStatus}, 'wechat', NULL, wechat_refund.in_tx_id, ${wechatPaidOutSql("wechat_refund")},
      NULL, NULL, owner.handle, owner.display_name,
      orders.id, orders.kind, orders.description, task.id, task.title
    FROM wechat_refund
    ${orderJoins.replace("%", "wechat_refund")}
    WHERE wechat_refund.out_refund_no = ?1 AND orders.user_id = ?2 AND wechat_refund.request_id IS NULL`,
  reward: `SELECT claim.id, claim_capture.amount, claim_capture.at, 'succeeded' AS status, NULL AS method, NULL AS note, claim_capture.tx_id,
      NULL AS wechat_paid_out,
      poster.handle AS payer_handle, poster.display_name AS payer_name, worker.handle AS payee_handle, worker.display_name AS payee_name,
      NULL AS order_id, NULL AS order_kind, NULL AS order_description, task.id AS task_id, task.title AS task_title
    FROM claim
    JOIN claim_capture ON claim_capture.claim_id = claim.id
    JOIN task ON task.id = claim.task_id
    JOIN user AS poster ON poster.id = task.poster_id
    JOIN user AS worker ON worker.id = claim.worker_id
    WHERE claim.id = ?1 AND ?2 IN (claim.worker_id, task.poster_id)`,
};

const personOf = (handle: string | null, displayName: string | null) =>
  handle !== null && displayName !== null ? { handle, displayName } : null;

/** The receipt, or null when there is none or the viewer is not one of its people. */
export async function findReceipt(db: D1Database, viewerId: string, kind: ReceiptKind, id: string): Promise<Receipt | null> {
  const row = await db.prepare(sqlOf[kind]).bind(id, viewerId).first<Row>();
  if (!row) return null;
  return {
    kind,
    id: row.id,
    status: row.status,
    amount: row.amount,
    createdAt: new Date(row.at).toISOString(),
    payer: personOf(row.payer_handle, row.payer_name),
    payee: personOf(row.payee_handle, row.payee_name),
    method: row.method,
    note: row.note,
    wechatPaidOut: row.wechat_paid_out,
    order:
      row.order_id !== null && row.order_kind !== null && row.order_description !== null
        ? { id: row.order_id, kind: row.order_kind, description: row.order_description }
        : null,
    task: row.task_id !== null && row.task_title !== null ? { id: row.task_id, title: row.task_title } : null,
    transactionId: row.tx_id,
  };
}
