/**
 * "Ask WeChat Pay now" from the back office (docs/decisions/015-operator-refunds.md): what the
 * cron would do for one order, at once. Pending payments are checked (settled, closed or asked
 * about later, exactly as the cron does); payments already decided are only asked about, so an
 * operator sees WeChat Pay's own `trade_state`; refunds still due or processing are advanced.
 */
import type { OpsWechatAsk } from "#contract/ops-orders";
import type { WechatPay } from "../config";
import { findRefund } from "../payments/refunds";
import { findWechatPayment } from "../payments/payment-rows";
import { wechatCall } from "../payments/wechat-call";
import { advanceWechatRefund } from "./advance-refunds";
import { checkPayment } from "./check-payment";

type PaymentAsk = OpsWechatAsk["payments"][number];
type RefundAsk = OpsWechatAsk["refunds"][number];

async function askAboutPayment(db: D1Database, wechat: WechatPay, outTradeNo: string, now: number): Promise<PaymentAsk | null> {
  const payment = await findWechatPayment(db, outTradeNo);
  if (!payment) return null;
  if (payment.status === "pending") {
    // The cron's own check, ahead of its schedule: its writes are guarded as the cron's are.
    const outcome = await checkPayment(db, wechat, payment, now);
    const after = await findWechatPayment(db, outTradeNo);
    return { outTradeNo, before: payment.status, after: after?.status ?? payment.status, outcome, tradeState: null };
  }
  const query = await wechatCall(() => wechat.client.queryOrder(outTradeNo));
  return {
    outTradeNo,
    before: payment.status,
    after: payment.status,
    outcome: query.outcome === "ok" ? "answered" : "unanswered",
    tradeState: query.outcome === "ok" ? query.data.trade_state : null,
  };
}

async function askAboutRefund(db: D1Database, wechat: WechatPay, outRefundNo: string, now: number): Promise<RefundAsk | null> {
  const refund = await findRefund(db, outRefundNo);
  if (!refund) return null;
  await advanceWechatRefund(db, wechat, refund, now, { outOfTurn: true });
  const after = await findRefund(db, outRefundNo);
  return { outRefundNo, before: refund.status, after: after?.status ?? refund.status };
}

/** Asks WeChat Pay about each of the order's WeChat Pay payments and its open refunds, one at a time. */
export async function askWechatPayNow(db: D1Database, wechat: WechatPay, orderId: string, now: number): Promise<OpsWechatAsk> {
  const [payments, refunds] = await db.batch<{ id: string }>([
    // payment_order (order_id).
    db
      .prepare(
        "SELECT out_trade_no AS id FROM payment WHERE order_id = ?1 AND method = 'wechat' AND out_trade_no IS NOT NULL ORDER BY created_at, id",
      )
      .bind(orderId),
    // wechat_refund_order (order_id).
    db
      .prepare("SELECT out_refund_no AS id FROM wechat_refund WHERE order_id = ?1 AND status IN ('due', 'processing') ORDER BY created_at")
      .bind(orderId),
  ]);
  const asked: OpsWechatAsk = { payments: [], refunds: [] };
  for (const { id } of payments?.results ?? []) {
    const answer = await askAboutPayment(db, wechat, id, now);
    if (answer) asked.payments.push(answer);
  }
  for (const { id } of refunds?.results ?? []) {
    const answer = await askAboutRefund(db, wechat, id, now);
    if (answer) asked.refunds.push(answer);
  }
  return asked;
}
