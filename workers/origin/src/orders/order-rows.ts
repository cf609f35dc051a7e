import { minutesMs } from "#contract/time-limits";
import type { Order, OrderDetail } from "#contract/orders";
import { payerRefundStatusSql, wechatPaidOutSql } from "../wechat-pay/payments/refund-states";

export type OrderRow = {
  id: string;
  kind: Order["kind"];
  amount: number;
  description: string;
  status: Order["status"];
  close_reason: Order["closeReason"];
  created_at: number;
  expires_at: number;
  paid_at: number | null;
  closed_at: number | null;
};

const iso = (at: number) => new Date(at).toISOString();
const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

export function orderFromRow(row: OrderRow): Order {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    description: row.description,
    status: row.status,
    closeReason: row.close_reason,
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    paidAt: isoOrNull(row.paid_at),
    closedAt: isoOrNull(row.closed_at),
  };
}

export const orderColumns = "id, kind, amount, description, status, close_reason, created_at, expires_at, paid_at, closed_at";

/** A WeChat Pay refund as its payer sees it (`payerRefundStatusSql`). */
type PayerRefundStatus = "pending" | "succeeded" | "failed" | "returned";

type PaymentRow = {
  id: string;
  method: "wallet" | "wechat";
  status: OrderDetail["payments"][number]["status"];
  amount: number;
  created_at: number;
  refund_status: PayerRefundStatus | null;
  refund_amount: number | null;
  refund_id: string | null;
  refund_paid_out: number | null;
};

type RefundRow = {
  id: string;
  method: "wallet" | "wechat";
  amount: number;
  decided_at: number | null;
  requested_at: number;
  wechat_status: PayerRefundStatus | null;
  wechat_paid_out: number | null;
};

/** One of the user's orders with its history and payments, or null (another's is not found either). */
export async function findOrderDetail(db: D1Database, userId: string, orderId: string): Promise<OrderDetail | null> {
  const [order, events, payments, refunds] = await db.batch([
    db.prepare(`SELECT ${orderColumns} FROM orders WHERE id = ?1 AND user_id = ?2`).bind(orderId, userId),
    db.prepare("SELECT status, reason, at FROM order_event WHERE order_id = ?1 ORDER BY id").bind(orderId),
    db
      .prepare(
        `SELECT payment.id, payment.method, payment.status, payment.amount, payment.created_at,
                ${payerRefundStatusSql("wechat_refund")} AS refund_status, wechat_refund.amount AS refund_amount,
                wechat_refund.out_refund_no AS refund_id, ${wechatPaidOutSql("wechat_refund")} AS refund_paid_out
         FROM payment LEFT JOIN wechat_refund ON wechat_refund.payment_id = payment.id AND wechat_refund.reason <> 'operator'
         WHERE payment.order_id = ?1 ORDER BY payment.created_at, payment.id`,
      )
      .bind(orderId),
    // Refunds an operator made (refund_request_order); a WeChat Pay one is pending until WeChat Pay confirms it.
    db
      .prepare(
        `SELECT refund_request.id, refund_request.method, refund_request.amount, refund_request.decided_at, refund_request.requested_at,
                ${payerRefundStatusSql("wechat_refund")} AS wechat_status, ${wechatPaidOutSql("wechat_refund")} AS wechat_paid_out
         FROM refund_request LEFT JOIN wechat_refund ON wechat_refund.request_id = refund_request.id
         WHERE refund_request.order_id = ?1 AND refund_request.status = 'approved' ORDER BY refund_request.requested_at, refund_request.id`,
      )
      .bind(orderId),
  ]);
  const row = order?.results[0] as OrderRow | undefined;
  if (!row) return null;
  return {
    ...orderFromRow(row),
    history: ((events?.results ?? []) as { status: string; reason: string | null; at: number }[]).map((event) => ({
      status: event.status,
      reason: event.reason,
      at: iso(event.at),
    })),
    payments: ((payments?.results ?? []) as PaymentRow[]).map((payment) => ({
      id: payment.id,
      method: payment.method,
      status: payment.status,
      amount: payment.amount,
      createdAt: iso(payment.created_at),
      ...(payment.refund_status === null || payment.refund_amount === null || payment.refund_id === null
        ? {}
        : {
            refund: {
              id: payment.refund_id,
              status: payment.refund_status,
              amount: payment.refund_amount,
              wechatPaidOut: payment.refund_paid_out,
            },
          }),
    })),
    refunds: ((refunds?.results ?? []) as RefundRow[]).map((refund) => ({
      id: refund.id,
      method: refund.method,
      amount: refund.amount,
      status: refund.wechat_status ?? "succeeded",
      wechatPaidOut: refund.wechat_paid_out,
      createdAt: iso(refund.decided_at ?? refund.requested_at),
    })),
  };
}

/** Closes what was not paid in time (docs/rules-and-limits.md); run by the scheduled handler. */
export async function closeExpiredOrders(db: D1Database, now: number): Promise<number> {
  // RETURNING, not meta.changes: D1 counts the history rows the trigger writes too.
  const closed = await db
    .prepare(
      "UPDATE orders SET status = 'closed', close_reason = 'expired', closed_at = expires_at WHERE status = 'pending' AND expires_at <= ?1 RETURNING id",
    )
    .bind(now)
    .all();
  return closed.results.length;
}

/** A new order, pending for the deploy's payment window (`payMinutes`), and the statement that stores it. */
export function newPendingOrder(
  db: D1Database,
  {
    userId,
    kind,
    amount,
    description,
    referrer = "",
    now,
    payMinutes,
  }: { userId: string; kind: Order["kind"]; amount: number; description: string; referrer?: string; now: number; payMinutes: number },
): { row: OrderRow; insert: D1PreparedStatement } {
  const row: OrderRow = {
    id: `ord_${crypto.randomUUID()}`,
    kind,
    amount,
    description,
    status: "pending",
    close_reason: null,
    created_at: now,
    expires_at: now + minutesMs(payMinutes),
    paid_at: null,
    closed_at: null,
  };
  const insert = db
    .prepare(
      `INSERT INTO orders (id, user_id, kind, amount, description, referrer, created_at, expires_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
    )
    .bind(row.id, userId, kind, amount, description, referrer, now, row.expires_at);
  return { row, insert };
}
