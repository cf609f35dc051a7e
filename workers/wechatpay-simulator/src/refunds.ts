/**
 * The refunds API: create a refund of a paid order and query it. A refund starts PROCESSING
 * and finishes by itself after `refundSettleSeconds` (or by a control endpoint), which
 * queues REFUND.* when the refund named a notify_url.
 */
import { type Answer, type ApiRequest, type ApiRoute, errorAnswer, invalidBody, ok } from "./answers";
import { canonical, cst, newRefundId, type SimulatorCore } from "./core";
import { queueNotification } from "./notifications";
import type { SimOrder, SimRefund } from "./state";
import { findOrder, paymentOf } from "./transactions";
import { refundRequest } from "./validation";

export type RefundOutcome = "SUCCESS" | "ABNORMAL" | "CLOSED";

const maxRefundsPerOrder = 50;
const refundableForMs = 365 * 24 * 3600_000;
const defaultSettleSeconds = 60;

export const refundRoutes: readonly ApiRoute[] = [
  { method: "POST", path: /^\/v3\/refund\/domestic\/refunds$/, answer: createRefund },
  { method: "GET", path: /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/, answer: queryRefund },
];

export function refundOf(refund: SimRefund): Record<string, unknown> {
  return {
    refund_id: refund.refundId,
    out_refund_no: refund.outRefundNo,
    transaction_id: refund.transactionId,
    out_trade_no: refund.outTradeNo,
    channel: refund.channel ?? "ORIGINAL",
    user_received_account: receivedAccountOf(refund),
    ...(refund.successTime === undefined ? {} : { success_time: cst(refund.successTime) }),
    create_time: cst(refund.createdAt),
    status: refund.status,
    funds_account: "AVAILABLE",
    amount: {
      total: refund.total,
      refund: refund.refund,
      from: [],
      payer_total: refund.total,
      payer_refund: refund.refund,
      settlement_refund: refund.refund,
      settlement_total: refund.total,
      discount_refund: 0,
      currency: "CNY",
    },
  };
}

function createRefund(core: SimulatorCore, { mchid, body }: ApiRequest): Answer {
  const parsed = refundRequest.safeParse(body);
  if (!parsed.success) return invalidBody(parsed.error);
  const request = parsed.data;
  // refundRequest lets exactly one of out_trade_no and transaction_id through.
  const by = request.out_trade_no !== undefined ? { outTradeNo: request.out_trade_no } : { transactionId: request.transaction_id ?? "" };
  const order = findOrder(core, mchid, by);
  const fingerprint = canonical(request);
  const existing = core.state.refunds[`${mchid}:${request.out_refund_no}`];
  if (existing) {
    // The same out_refund_no refunds once: the same request gets the same refund back.
    if (existing.fingerprint !== fingerprint) return errorAnswer(400, "INVALID_REQUEST", "退款单号重复，且请求参数与之前不一致");
    return ok(refundOf(existing));
  }
  if (!order) return errorAnswer(404, "RESOURCE_NOT_EXISTS", "订单不存在");
  const payment = paymentOf(order);
  if (!payment) return errorAnswer(403, "TRADE_ERROR", "订单未支付，不能退款");
  const now = core.now();
  const refused = refusal(order, request.amount, now - payment.successTime);
  if (refused) return refused;
  const refund: SimRefund = {
    mchid,
    outRefundNo: request.out_refund_no,
    refundId: newRefundId(),
    outTradeNo: order.outTradeNo,
    transactionId: payment.transactionId,
    fingerprint,
    refund: request.amount.refund,
    total: request.amount.total,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    ...(request.notify_url === undefined ? {} : { notifyUrl: request.notify_url }),
    status: "PROCESSING",
    createdAt: now,
    settleAt: now + (order.refundAfterSeconds ?? core.options.refundSettleSeconds ?? defaultSettleSeconds) * 1000,
  };
  core.state.refunds[`${mchid}:${refund.outRefundNo}`] = refund;
  order.refundedTotal += refund.refund;
  order.refundCount += 1;
  order.tradeState = "REFUND";
  return ok(refundOf(refund));
}

/** WeChat Pay's rules on amounts, count and age of a paid order's refunds; null when the refund may go ahead. */
function refusal(order: SimOrder, amount: { refund: number; total: number }, sincePaidMs: number): Answer | null {
  if (amount.total !== order.total)
    return errorAnswer(400, "PARAM_ERROR", "订单金额与原订单不一致", { location: "body", field: "/body/amount/total" });
  if (order.refundedTotal + amount.refund > order.total) return errorAnswer(400, "INVALID_REQUEST", "申请退款金额超过订单可退金额");
  if (order.refundCount >= maxRefundsPerOrder) return errorAnswer(403, "RULE_LIMIT", "部分退款次数超过50次");
  if (sincePaidMs > refundableForMs) return errorAnswer(403, "RULE_LIMIT", "订单已超过退款期限");
  return null;
}

function queryRefund(core: SimulatorCore, { mchid, param: outRefundNo }: ApiRequest): Answer {
  const refund = core.state.refunds[`${mchid}:${outRefundNo}`];
  if (!refund) return errorAnswer(404, "RESOURCE_NOT_EXISTS", "退款单不存在");
  return ok(refundOf(refund));
}

/** PROCESSING refunds whose time has come end as their payer's refunds do: SUCCESS unless the payer said otherwise. */
export function settleDueRefunds(core: SimulatorCore): void {
  const now = core.now();
  for (const refund of Object.values(core.state.refunds)) {
    if (refund.status !== "PROCESSING" || now < refund.settleAt) continue;
    const order = core.state.orders[`${refund.mchid}:${refund.outTradeNo}`];
    endRefund(core, refund, order?.refundOutcome ?? "SUCCESS", order?.refundAmount);
  }
}

/**
 * Ends a PROCESSING refund, for `amount` when given and not the one asked for: an anomaly
 * WeChat Pay's documents do not describe, which Paydesk parks
 * (docs/decisions/070-parked-refunds-settled.md). At most what the order has left to refund.
 */
export function endRefund(core: SimulatorCore, refund: SimRefund, status: RefundOutcome, amount?: number): void {
  if (refund.status !== "PROCESSING") return;
  if (amount !== undefined && amount !== refund.refund) {
    const order = core.state.orders[`${refund.mchid}:${refund.outTradeNo}`];
    // At most what the order has left, counting this refund's own amount as left.
    const left = order ? order.total - order.refundedTotal + refund.refund : refund.total;
    const changed = Math.min(amount, left);
    if (order) order.refundedTotal += changed - refund.refund;
    refund.refund = changed;
  }
  finishRefund(core, refund, status);
}

const receivedAccountOf = (refund: SimRefund) => refund.receivedAccount ?? "支付用户零钱";

/**
 * The merchant handles an abnormal refund at its merchant platform (WeChat Pay's "apply
 * abnormal refund", 发起异常退款, to the payer's new bank card): the refund is paid out after
 * all, as SUCCESS through channel OTHER_BANKCARD, and notified like any refund's end. Paydesk
 * never asks for this; an operator may do it by hand, which is how a refund gets paid twice
 * (docs/decisions/060-refunds-paid-twice.md). Null when the refund is not ABNORMAL, or its
 * order has been refunded since up to its total.
 */
export function payOutAbnormalRefund(core: SimulatorCore, refund: SimRefund): SimRefund | null {
  if (refund.status !== "ABNORMAL") return null;
  const order = core.state.orders[`${refund.mchid}:${refund.outTradeNo}`];
  // Its amount counts as refunded again (finishRefund gave it back when it ended ABNORMAL),
  // unless another refund has used it since.
  if (order && order.refundedTotal + refund.refund > order.total) return null;
  if (order) order.refundedTotal += refund.refund;
  refund.status = "PROCESSING";
  refund.channel = "OTHER_BANKCARD";
  refund.receivedAccount = "招商银行借记卡0403";
  finishRefund(core, refund, "SUCCESS");
  return refund;
}

const refundSummaries: Record<RefundOutcome, string> = { SUCCESS: "退款成功", ABNORMAL: "退款异常", CLOSED: "退款关闭" };

function finishRefund(core: SimulatorCore, refund: SimRefund, status: RefundOutcome): void {
  if (refund.status !== "PROCESSING") return;
  refund.status = status;
  if (status === "SUCCESS") refund.successTime = core.now();
  const order = core.state.orders[`${refund.mchid}:${refund.outTradeNo}`];
  if (order && status !== "SUCCESS") order.refundedTotal -= refund.refund;
  if (!refund.notifyUrl) return;
  queueNotification(core, {
    url: refund.notifyUrl,
    eventType: `REFUND.${status}`,
    summary: refundSummaries[status],
    originalType: "refund",
    plaintext: {
      mchid: refund.mchid,
      out_trade_no: refund.outTradeNo,
      transaction_id: refund.transactionId,
      out_refund_no: refund.outRefundNo,
      refund_id: refund.refundId,
      refund_status: status,
      ...(refund.successTime === undefined ? {} : { success_time: cst(refund.successTime) }),
      user_received_account: receivedAccountOf(refund),
      amount: { total: refund.total, refund: refund.refund, payer_total: refund.total, payer_refund: refund.refund },
    },
    outTradeNo: refund.outTradeNo,
    outRefundNo: refund.outRefundNo,
  });
}
