/**
 * An order's whole story for the back office, read in one D1 batch of SELECTs: the order and
 * its person, its status history, its payment attempts, what WeChat Pay sent about them, and
 * its WeChat Pay refunds. Each statement says which index serves it.
 */
import type { OrderStory } from "#contract/ops-orders";
import { orderFromRow, type OrderRow } from "../orders/order-rows";
import { type SettlementRequestRow, settlementRequestsStatement, withSettlementRequests } from "../refunds/settlement-requests";
import { type WechatRefundRow, wechatRefundOf, wechatRefundSelect } from "../refunds/wechat-refund-rows";
import { iso, opsPaymentOf, ordersColumns, type PaymentRow, paymentColumns, personRefOf } from "./ops-rows";

type OrderWithPersonRow = OrderRow & { person_id: string; person_handle: string; person_display_name: string };

type NotificationRow = {
  id: string;
  event_type: string;
  out_trade_no: string | null;
  out_refund_no: string | null;
  outcome: string;
  deliveries: number;
  first_received_at: number;
  last_received_at: number;
};

/**
 * The order's story as the operator `viewerId` reads it (whether a settlement waiting on one of
 * its refunds is theirs to decide), or null when there is no such order.
 */
export async function orderStory(db: D1Database, orderId: string, viewerId: string): Promise<OrderStory | null> {
  const [order, events, payments, notifications, refunds, settlementRequests] = await db.batch([
    // The order's and its person's primary keys.
    db
      .prepare(
        `SELECT ${ordersColumns}, user.id AS person_id, user.handle AS person_handle, user.display_name AS person_display_name
         FROM orders JOIN user ON user.id = orders.user_id WHERE orders.id = ?1`,
      )
      .bind(orderId),
    // order_event_order (order_id, id).
    db.prepare("SELECT status, reason, at FROM order_event WHERE order_id = ?1 ORDER BY id").bind(orderId),
    // payment_order (order_id).
    db.prepare(`SELECT ${paymentColumns} FROM payment WHERE payment.order_id = ?1 ORDER BY payment.created_at, payment.id`).bind(orderId),
    // wechat_notification_trade (out_trade_no), for each of the order's out_trade_nos (payment_order).
    // The decrypted resource stays out: what WeChat Pay said is summed up by the outcome.
    db
      .prepare(
        `SELECT id, event_type, out_trade_no, out_refund_no, outcome, deliveries, first_received_at, last_received_at
         FROM wechat_notification
         WHERE out_trade_no IN (SELECT out_trade_no FROM payment WHERE order_id = ?1 AND out_trade_no IS NOT NULL)
         ORDER BY first_received_at, id`,
      )
      .bind(orderId),
    // wechat_refund_order (order_id).
    db.prepare(`${wechatRefundSelect} WHERE refund.order_id = ?1 ORDER BY refund.created_at, refund.out_refund_no`).bind(orderId),
    // wechat_refund_order (order_id), then wechat_refund_settlement_request_of_refund.
    settlementRequestsStatement(db, "SELECT out_refund_no FROM wechat_refund WHERE order_id = ?1", orderId, viewerId),
  ]);
  const row = order?.results[0] as OrderWithPersonRow | undefined;
  if (!row) return null;
  const rows = <T>(result: D1Result | undefined) => (result?.results ?? []) as T[];
  return {
    order: { ...orderFromRow(row), person: personRefOf(row.person_id, row.person_handle, row.person_display_name) },
    history: rows<{ status: string; reason: string | null; at: number }>(events).map((event) => ({
      status: event.status,
      reason: event.reason,
      at: iso(event.at),
    })),
    payments: rows<PaymentRow>(payments).map(opsPaymentOf),
    notifications: rows<NotificationRow>(notifications).map((notification) => ({
      id: notification.id,
      eventType: notification.event_type,
      outTradeNo: notification.out_trade_no,
      outRefundNo: notification.out_refund_no,
      outcome: notification.outcome,
      deliveries: notification.deliveries,
      firstReceivedAt: iso(notification.first_received_at),
      lastReceivedAt: iso(notification.last_received_at),
    })),
    refunds: withSettlementRequests(rows<WechatRefundRow>(refunds).map(wechatRefundOf), rows<SettlementRequestRow>(settlementRequests)),
  };
}
