/**
 * Starting a WeChat Pay payment of an order (Native, H5, JSAPI): the payment row first, then
 * WeChat Pay asked for the code, link or JSAPI parameters.
 */
import * as Sentry from "../../error-reporting";
import type { Context } from "hono";
import type { z } from "zod";
import type { WechatPrepay, wechatPayBodySchema } from "#contract/payments";
import { ApiError } from "../../http/answer";
import { isPayable, type PayableOrder } from "../../orders/payable-order";
import type { OriginEnv } from "../../origin-env";
import { wechatDescription, type OrderInput } from "../client/inputs";
import type { WechatPayOutcome } from "../client/outcome";
import { cashierLink } from "../emulation/cashier-link";
import type { WechatPay } from "../config";
import { checkPayment } from "../reconcile/check-payment";
import { findPayerOpenid } from "../payer-sign-in/payer-rows";
import { payerAddress } from "./payer-address";
import {
  findPendingWechatPayment,
  findWechatPayment,
  insertWechatPayment,
  isBeingCreated,
  markCreateAsked,
  markPaymentFailed,
  newOutTradeNo,
  noteRemoteState,
  type WechatPaymentRow,
} from "./payment-rows";
import { wechatCall } from "./wechat-call";

type WechatPayBody = z.infer<typeof wechatPayBodySchema>;

/** What WeChat Pay is asked for: the flow, and what that flow needs of the payer. */
type Way = { flow: "native" } | { flow: "h5"; clientIp: string } | { flow: "jsapi"; openid: string };

/**
 * The pay endpoint's WeChat Pay method. WeChat Pay not configured here and a flow not
 * offered are refused without recording the answer against the key (configuration changes);
 * an order that can no longer be paid is refused for good.
 */
export async function payWithWechat(c: Context<OriginEnv>, order: PayableOrder, body: WechatPayBody, now: number) {
  const wechat = await c.var.wechatPay();
  if (!wechat) {
    return c.var.idempotency.refuse(new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here.", "method"), {
      lasting: false,
    });
  }
  if (!wechat.flows.includes(body.flow)) {
    return c.var.idempotency.refuse(
      new ApiError("WECHAT_PAY_FLOW_NOT_AVAILABLE", `WeChat Pay's ${body.flow} flow is not offered here.`, "flow"),
      {
        lasting: false,
      },
    );
  }
  if (!isPayable(order, now)) {
    return c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
  }
  const answer = await startWechatPayment(c, wechat, order, await wayOf(c, wechat, body), now);
  await refuseIfGivenUpWhileCreating(c, wechat, answer.outTradeNo, now);
  return c.var.idempotency.commit([noteRemoteState(c.env.DB, answer.paymentId, "open", now)], 201, {
    code: "SUCCESS" as const,
    data: answer,
  });
}

async function wayOf(c: Context<OriginEnv>, wechat: WechatPay, body: WechatPayBody): Promise<Way> {
  if (body.flow === "jsapi") {
    // The openid WeChat's sign-in gave for this person, never one a client names (decision 073).
    const openid = await findPayerOpenid(c.env.DB, c.var.user.id, wechat.appid);
    if (openid) return { flow: "jsapi", openid };
    return c.var.idempotency.refuse(
      new ApiError("WECHAT_SIGN_IN_NEEDED", "JSAPI needs WeChat's sign-in first: POST /api/payments/wechat/sign-in.", "flow"),
      { lasting: false },
    );
  }
  if (body.flow === "native") return { flow: "native" };
  const clientIp = payerAddress(c.var.clientIp, wechat);
  if (!clientIp) {
    throw new ApiError(
      "BAD_REQUEST",
      "H5 needs the payer's address (CF-Connecting-IP or X-Real-IP), and none came with this request.",
      "flow",
    );
  }
  return { flow: "h5", clientIp };
}

/**
 * While WeChat Pay was creating its order, the order may have been paid from the wallet or
 * cancelled, or this payment given up for another flow's (decision 004). The order WeChat
 * Pay now holds is then closed rather than handed to the payer: the close that came first
 * met no order there. An order that is over is refused for good; one still pending, whose
 * payment another flow replaced, hears a retryable refusal.
 */
async function refuseIfGivenUpWhileCreating(c: Context<OriginEnv>, wechat: WechatPay, outTradeNo: string, now: number): Promise<void> {
  const db = c.env.DB;
  const payment = await findWechatPayment(db, outTradeNo);
  if (!payment || (payment.status === "pending" && payment.order_status === "pending")) return;
  if (payment.status === "pending") await checkPayment(db, wechat, payment, now);
  else if (payment.remote_state === "absent") {
    // Given up as never created, and created after all: closed here, as nothing else will.
    const closed = await wechatCall(() => wechat.client.closeOrder(outTradeNo));
    if (closed.outcome !== "ok")
      Sentry.captureMessage(`WeChat Pay order ${outTradeNo} was created after it was given up, and is not closed`, "error");
  }
  if (payment.order_status === "pending") await c.var.idempotency.refuse(paymentStarting(), { lasting: false });
  await c.var.idempotency.refuse(new ApiError("ORDER_NOT_PENDING", "This order can no longer be paid."));
}

const unavailable = () => new ApiError("WECHAT_PAY_UNAVAILABLE", "WeChat Pay did not answer clearly. Please try again.");
const paymentStarting = () =>
  new ApiError("PAYMENT_STARTING", "This order's payment is being started in another flow. Try again in a few seconds.");

/**
 * Stores the payment (or reuses the one waiting), then asks WeChat Pay for the code, link or
 * JSAPI parameters. Every refusal here is temporary (not recorded against the key): a retry
 * reuses the same out_trade_no with identical parameters, which WeChat Pay accepts again.
 */
async function startWechatPayment(
  c: Context<OriginEnv>,
  wechat: WechatPay,
  order: PayableOrder,
  way: Way,
  now: number,
): Promise<WechatPrepay> {
  const db = c.env.DB;
  const flow = way.flow;
  const wanted = { flow, openid: way.flow === "jsapi" ? way.openid : null, clientIp: way.flow === "h5" ? way.clientIp : null };
  const sameRequest = (payment: WechatPaymentRow) =>
    payment.flow === wanted.flow && payment.openid === wanted.openid && payment.client_ip === wanted.clientIp;

  let payment = await findPendingWechatPayment(db, order.id);
  if (payment && !sameRequest(payment)) {
    // Another flow: WeChat Pay would refuse other parameters under the same out_trade_no, and
    // two open WeChat orders could both be paid. Close the waiting one first — but not while
    // its create may still land at WeChat Pay: closing it then meets ORDER_NOT_EXIST, gives
    // it up, and the create that lands after can still be paid.
    if (isBeingCreated(payment, now)) throw paymentStarting();
    const check = await checkPayment(db, wechat, { ...payment, order_status: "closed" }, now);
    if (check === "settled" || check === "refund_due") throw new ApiError("ORDER_NOT_PENDING", "This order was paid meanwhile.");
    if (check !== "closed") {
      // Not given up because a create was asked for it meanwhile (checkPayment): wait for it.
      const again = await findPendingWechatPayment(db, order.id);
      throw again && isBeingCreated(again, now) ? paymentStarting() : unavailable();
    }
    payment = null;
  }
  let inserted = false;
  if (!payment) {
    const paymentId = `pay_${crypto.randomUUID()}`;
    try {
      await insertWechatPayment(db, {
        id: paymentId,
        orderId: order.id,
        amount: order.amount,
        outTradeNo: newOutTradeNo(),
        ...wanted,
        now,
      }).run();
      inserted = true;
    } catch (error) {
      // A request at the same moment stored one first: use it if it asks the same.
      if (!(error instanceof Error && error.message.includes("UNIQUE constraint failed: payment.order_id"))) throw error;
    }
    payment = await findPendingWechatPayment(db, order.id);
    if (!payment) throw unavailable();
    // Another flow's request stored its payment first, at this very moment.
    if (!sameRequest(payment)) throw isBeingCreated(payment, now) ? paymentStarting() : unavailable();
  }
  // A new payment is stored with the time its create is asked; a create asked again (a retry,
  // or a twin at the same moment) notes its own, so another flow waits for it too.
  if (!inserted && !(await markCreateAsked(db, payment.id, now))) throw unavailable();

  const input: OrderInput = {
    outTradeNo: payment.out_trade_no,
    description: wechatDescription(order.description),
    amount: payment.amount,
    expiresAt: order.expires_at,
    attach: payment.id,
  };
  const common = {
    orderId: order.id,
    paymentId: payment.id,
    method: "wechat" as const,
    amount: payment.amount,
    status: "pending" as const,
    outTradeNo: payment.out_trade_no,
    expiresAt: new Date(order.expires_at).toISOString(),
  };
  const client = wechat.client;
  const created = await wechatCall<WechatPrepay>(async () => {
    const toAnswer = <T>(outcome: WechatPayOutcome<T>, shape: (data: T) => WechatPrepay): WechatPayOutcome<WechatPrepay> =>
      outcome.outcome === "ok" ? { ...outcome, data: shape(outcome.data) } : outcome;
    if (way.flow === "native")
      return toAnswer(await client.createNativeOrder(input), (data) => ({ ...common, flow: "native", codeUrl: data.codeUrl }));
    if (way.flow === "h5") {
      return toAnswer(await client.createH5Order({ ...input, payerClientIp: way.clientIp }), (data) => ({
        ...common,
        flow: "h5",
        h5Url: wechat.simulator ? cashierLink(data.h5Url, c.req.header("Origin")) : data.h5Url,
      }));
    }
    return toAnswer(await client.createJsapiOrder({ ...input, openid: way.openid }), (data) => ({
      ...common,
      flow: "jsapi",
      jsapi: data.payParams,
    }));
  });
  if (created.outcome === "ok") return created.data;
  if (created.outcome === "unknown") throw unavailable();
  if (created.code === "ORDER_PAID") {
    // Paid already (the notification is on its way): settle it from a query now.
    const check = await checkPayment(db, wechat, payment, now);
    throw check === "settled" || check === "refund_due" ? new ApiError("ORDER_NOT_PENDING", "This order is already paid.") : unavailable();
  }
  if (created.code === "ORDER_CLOSED") {
    await markPaymentFailed(db, payment.id, "closed", now);
    throw unavailable();
  }
  if (created.retryable) throw unavailable();
  // Refused for good (parameters, account, signature): this out_trade_no is given up; if
  // WeChat Pay took money under it after all, that payment is refunded.
  await markPaymentFailed(db, payment.id, "refused", now);
  console.error(`WeChat Pay refused order ${payment.out_trade_no}: ${created.status} ${created.code} ${created.message}`);
  Sentry.captureMessage(`WeChat Pay refused to create an order: ${created.code}`, "error");
  throw new ApiError("WECHAT_PAY_REFUSED", "WeChat Pay could not start this payment.");
}
