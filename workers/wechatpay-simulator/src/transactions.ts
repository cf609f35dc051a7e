/**
 * The transactions API: prepay for Native, H5 and JSAPI (reference §3), query by
 * out_trade_no or transaction_id, close; and the payer's side, paying an order, which
 * queues TRANSACTION.SUCCESS.
 */
import { type Answer, type ApiRequest, type ApiRoute, errorAnswer, invalidBody, ok } from "./answers";
import { canonical, cst, newPrepayId, newTransactionId, type SimulatorCore } from "./core";
import { merchants } from "./keys";
import { queueNotification } from "./notifications";
import { randomAlphanumeric, randomDigits } from "./sim-crypto";
import type { NotifyOptions, SimOrder, TradeType } from "./state";
import { closeRequest, h5Request, jsapiRequest, nativeRequest, rfc3339 } from "./validation";

type PrepayKind = "native" | "h5" | "jsapi";

const prepayRequests = { native: nativeRequest, h5: h5Request, jsapi: jsapiRequest } as const;
const tradeTypes: Record<PrepayKind, TradeType> = { native: "NATIVE", h5: "MWEB", jsapi: "JSAPI" };

const sevenDays = 7 * 24 * 3600_000;
/** code_url and prepay_id live 2 hours, h5_url 5 minutes (reference §3). */
const linkLifetime = (tradeType: TradeType) => (tradeType === "MWEB" ? 5 * 60 * 1000 : 2 * 60 * 60 * 1000);

export const transactionRoutes: readonly ApiRoute[] = [
  ...(["native", "h5", "jsapi"] as const).map(
    (kind): ApiRoute => ({
      method: "POST",
      path: new RegExp(`^/v3/pay/transactions/${kind}$`),
      answer: (core, request) => prepay(core, kind, request),
    }),
  ),
  {
    method: "GET",
    path: /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/,
    answer: (core, request) => query(core, request, { outTradeNo: request.param }),
  },
  {
    method: "GET",
    path: /^\/v3\/pay\/transactions\/id\/([^/]+)$/,
    answer: (core, request) => query(core, request, { transactionId: request.param }),
  },
  { method: "POST", path: /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/, answer: close },
];

/** Unpaid orders past time_expire close. */
export function expireOrders(core: SimulatorCore): void {
  const now = core.now();
  for (const order of Object.values(core.state.orders)) {
    if (order.tradeState === "NOTPAY" && now >= order.timeExpire) {
      order.tradeState = "CLOSED";
      order.closedAt = order.timeExpire;
    }
  }
}

function prepay(core: SimulatorCore, kind: PrepayKind, { mchid, body }: ApiRequest): Answer {
  const parsed = prepayRequests[kind].safeParse(body);
  if (!parsed.success) return invalidBody(parsed.error);
  const request = parsed.data;
  if (!merchants[mchid]?.appids.includes(request.appid)) return errorAnswer(400, "APPID_MCHID_NOT_MATCH", "AppID和mch_id不匹配");
  const now = core.now();
  const timeExpire = request.time_expire === undefined ? now + sevenDays : expiryOf(request.time_expire, now);
  if (typeof timeExpire !== "number") return timeExpire;
  const tradeType = tradeTypes[kind];
  const fingerprint = canonical({ kind, ...request });
  const key = `${mchid}:${request.out_trade_no}`;
  const existing = core.state.orders[key];
  if (existing) return prepayAgain(core, existing, fingerprint);
  const order: SimOrder = {
    mchid,
    appid: request.appid,
    outTradeNo: request.out_trade_no,
    tradeType,
    fingerprint,
    description: request.description,
    total: request.amount.total,
    ...(request.attach === undefined ? {} : { attach: request.attach }),
    notifyUrl: request.notify_url,
    ...payerOf(request),
    createdAt: now,
    timeExpire,
    tradeState: "NOTPAY",
    prepayId: newPrepayId(now),
    linkExpiresAt: now + linkLifetime(tradeType),
    refundedTotal: 0,
    refundCount: 0,
  };
  core.state.orders[key] = order;
  return ok(prepayAnswer(core, order));
}

/** Only a JSAPI prepay names its payer. */
function payerOf(request: { appid: string; payer?: { openid: string } }): { openid?: string } {
  return request.payer ? { openid: request.payer.openid } : {};
}

function expiryOf(timeExpire: string, now: number): number | Answer {
  const at = rfc3339.test(timeExpire) ? Date.parse(timeExpire) : Number.NaN;
  const field = { location: "body", field: "/body/time_expire" };
  if (Number.isNaN(at)) return errorAnswer(400, "PARAM_ERROR", "time_expire格式错误", field);
  if (at <= now) return errorAnswer(400, "PARAM_ERROR", "订单失效时间须晚于当前时间", field);
  return at;
}

function prepayAgain(core: SimulatorCore, existing: SimOrder, fingerprint: string): Answer {
  if (existing.tradeState === "SUCCESS" || existing.tradeState === "REFUND") return errorAnswer(400, "ORDER_PAID", "该订单已支付");
  if (existing.tradeState === "CLOSED") return errorAnswer(400, "ORDER_CLOSED", "订单已关闭");
  if (existing.fingerprint !== fingerprint) return errorAnswer(403, "OUT_TRADE_NO_USED", "商户订单号重复");
  // The same request again: a fresh prepay id / link for the same order.
  const now = core.now();
  existing.prepayId = newPrepayId(now);
  existing.linkExpiresAt = now + linkLifetime(existing.tradeType);
  return ok(prepayAnswer(core, existing));
}

function prepayAnswer(core: SimulatorCore, order: SimOrder): Record<string, string> {
  if (order.tradeType === "NATIVE") return { code_url: `weixin://wxpay/bizpayurl?pr=${randomAlphanumeric(9)}` };
  if (order.tradeType === "MWEB") {
    const base = core.options.h5UrlBase ?? "https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb";
    return { h5_url: `${base}?prepay_id=${order.prepayId}&package=${randomDigits(10)}` };
  }
  return { prepay_id: order.prepayId };
}

/** What a paid order has; null while it is unpaid (only SUCCESS and REFUND orders were paid). */
export function paymentOf(order: SimOrder): { transactionId: string; successTime: number } | null {
  if (order.tradeState !== "SUCCESS" && order.tradeState !== "REFUND") return null;
  if (order.transactionId === undefined || order.successTime === undefined) return null;
  return { transactionId: order.transactionId, successTime: order.successTime };
}

const tradeStateDescriptions = { SUCCESS: "支付成功", REFUND: "转入退款", NOTPAY: "订单未支付", CLOSED: "订单已关闭" } as const;

export function transactionOf(order: SimOrder): Record<string, unknown> {
  const payment = paymentOf(order);
  return {
    appid: order.appid,
    mchid: order.mchid,
    out_trade_no: order.outTradeNo,
    ...(payment
      ? {
          transaction_id: payment.transactionId,
          trade_type: order.tradeType,
          bank_type: "OTHERS",
          success_time: cst(payment.successTime),
          payer: { openid: order.payerOpenid },
        }
      : {}),
    trade_state: order.tradeState,
    trade_state_desc: tradeStateDescriptions[order.tradeState],
    ...(order.attach === undefined ? {} : { attach: order.attach }),
    amount: payment
      ? { total: order.total, payer_total: order.total, currency: "CNY", payer_currency: "CNY" }
      : { total: order.total, currency: "CNY", payer_currency: "CNY" },
    promotion_detail: [],
  };
}

/** The merchant's order found by its out_trade_no or by WeChat Pay's transaction_id. */
export function findOrder(
  core: SimulatorCore,
  mchid: string,
  by: { outTradeNo: string } | { transactionId: string },
): SimOrder | undefined {
  if ("outTradeNo" in by) return core.state.orders[`${mchid}:${by.outTradeNo}`];
  return Object.values(core.state.orders).find((candidate) => candidate.mchid === mchid && candidate.transactionId === by.transactionId);
}

function query(core: SimulatorCore, { mchid, url }: ApiRequest, by: { outTradeNo: string } | { transactionId: string }): Answer {
  const queryMchid = url.searchParams.get("mchid");
  if (!queryMchid) return errorAnswer(400, "PARAM_ERROR", "缺少参数mchid", { location: "query", field: "mchid" });
  if (queryMchid !== mchid) return errorAnswer(400, "INVALID_REQUEST", "请求中的mchid与Authorization中的mchid不一致");
  const order = findOrder(core, mchid, by);
  if (!order) return errorAnswer(404, "ORDER_NOT_EXIST", "订单不存在");
  return ok(transactionOf(order));
}

function close(core: SimulatorCore, { mchid, body, param: outTradeNo }: ApiRequest): Answer {
  const parsed = closeRequest.safeParse(body);
  if (!parsed.success) return invalidBody(parsed.error);
  const order = core.state.orders[`${mchid}:${outTradeNo}`];
  if (!order) return errorAnswer(404, "ORDER_NOT_EXIST", "订单不存在");
  if (order.tradeState === "SUCCESS" || order.tradeState === "REFUND") return errorAnswer(400, "ORDER_PAID", "该订单已支付");
  if (order.tradeState === "NOTPAY") {
    order.tradeState = "CLOSED";
    order.closedAt = core.now();
  }
  return ok(null, 204);
}

export type PayResult = { ok: true; transaction: Record<string, unknown> } | { ok: false; status: number; error: string };

/** The payer scans (or confirms in WeChat) and pays: the order succeeds and a notification is queued. */
export function pay(
  core: SimulatorCore,
  mchid: string,
  outTradeNo: string,
  input: {
    openid?: string;
    notify?: NotifyOptions;
    refundOutcome?: "SUCCESS" | "ABNORMAL" | "CLOSED";
    refundAmount?: number;
    refundAfterSeconds?: number;
  } = {},
): PayResult {
  const order = core.state.orders[`${mchid}:${outTradeNo}`];
  if (!order) return { ok: false, status: 404, error: "ORDER_NOT_EXIST" };
  if (order.tradeState !== "NOTPAY") return { ok: false, status: 409, error: `ORDER_${order.tradeState}` };
  const now = core.now();
  if (now > order.linkExpiresAt) return { ok: false, status: 409, error: "PAYMENT_LINK_EXPIRED" };
  if (order.openid && input.openid && input.openid !== order.openid) return { ok: false, status: 409, error: "OPENID_MISMATCH" };
  order.tradeState = "SUCCESS";
  order.successTime = now;
  order.transactionId = newTransactionId(now);
  order.payerOpenid = order.openid ?? input.openid ?? `o${randomAlphanumeric(27)}`;
  if (input.refundOutcome) order.refundOutcome = input.refundOutcome;
  if (input.refundAmount) order.refundAmount = input.refundAmount;
  if (input.refundAfterSeconds !== undefined) order.refundAfterSeconds = input.refundAfterSeconds;
  const transaction = transactionOf(order);
  queueNotification(core, {
    url: order.notifyUrl,
    eventType: "TRANSACTION.SUCCESS",
    summary: "支付成功",
    originalType: "transaction",
    plaintext: transaction,
    outTradeNo,
    options: input.notify,
  });
  return { ok: true, transaction };
}
