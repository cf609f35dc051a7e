import { z } from "zod";
import { orderIdSchema } from "./orders";
import { wechatOpenidMaxLength, wechatOpenidPattern, wechatPayFlows } from "./value-lists";

/**
 * Paying an order (docs/screens.md /pay and /wechat_pay; issue #5): from the wallet (task
 * budgets only), or with WeChat Pay — Native (a QR code, desktop), H5 (a phone's browser)
 * or JSAPI (inside WeChat, with the openid WeChat's sign-in gave for the payer).
 */
export { wechatPayFlows, type WechatPayFlow } from "./value-lists";

export const walletPayBodySchema = z.strictObject({ method: z.literal("wallet") });

/**
 * A payer's openid as WeChat's sign-in reports it (docs/decisions/073-wechat-payer-sign-in.md):
 * the origin checks WeChat's answer with it. No client names an openid.
 */
export const wechatOpenidSchema = z
  .string()
  .min(1)
  .max(wechatOpenidMaxLength, `An openid has at most ${wechatOpenidMaxLength} characters.`)
  .regex(wechatOpenidPattern, "Not an openid.");

/** JSAPI pays with the openid WeChat's sign-in gave for this person (`POST /api/payments/wechat/sign-in`). */
export const wechatPayBodySchema = z.discriminatedUnion(
  "flow",
  [
    z.strictObject({ method: z.literal("wechat"), flow: z.literal("native") }),
    z.strictObject({ method: z.literal("wechat"), flow: z.literal("h5") }),
    z.strictObject({ method: z.literal("wechat"), flow: z.literal("jsapi") }),
  ],
  { error: "Choose the WeChat Pay flow: native, h5 or jsapi." },
);

export const payOrderBodySchema = z.discriminatedUnion("method", [walletPayBodySchema, wechatPayBodySchema], {
  error: "Choose how to pay: wallet or wechat.",
});

/** A wallet payment: done at once. */
const paymentReceiptSchema = z.strictObject({
  orderId: z.string(),
  paymentId: z.string(),
  method: z.literal("wallet"),
  amount: z.number().int(),
  status: z.literal("paid"),
  paidAt: z.iso.datetime(),
});
export type PaymentReceipt = z.infer<typeof paymentReceiptSchema>;

/** What `WeixinJSBridge.invoke("getBrandWCPayRequest", …)` takes, signed by the origin. */
const jsapiPayParamsSchema = z.strictObject({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.literal("RSA"),
  paySign: z.string(),
});

const wechatPendingPayment = {
  orderId: z.string(),
  paymentId: z.string(),
  method: z.literal("wechat"),
  amount: z.number().int(),
  /** Paid only when WeChat Pay says so: poll `GET /api/orders/{id}` until it is `paid`. */
  status: z.literal("pending"),
  /** WeChat Pay's merchant order number; the same for every repeated request of this flow. */
  outTradeNo: z.string(),
  /** The order's own expiry, also WeChat Pay's time_expire: show a countdown to it. */
  expiresAt: z.iso.datetime(),
};

/**
 * A WeChat Pay payment waiting for the payer: Native → render `codeUrl` as a QR code; H5 →
 * send the browser to `h5Url` (it returns whether paid or not: poll the order); JSAPI →
 * pass `jsapi` to `getBrandWCPayRequest` (its "ok" is no proof: poll the order).
 */
const wechatPrepaySchema = z.discriminatedUnion("flow", [
  z.strictObject({ ...wechatPendingPayment, flow: z.literal("native"), codeUrl: z.string() }),
  z.strictObject({ ...wechatPendingPayment, flow: z.literal("h5"), h5Url: z.string() }),
  z.strictObject({ ...wechatPendingPayment, flow: z.literal("jsapi"), jsapi: jsapiPayParamsSchema }),
]);
export type WechatPrepay = z.infer<typeof wechatPrepaySchema>;

/** The answer of `POST /api/orders/{id}/pay`: a receipt (wallet) or a payment to complete (WeChat Pay). */
export const payAnswerSchema = z.union([paymentReceiptSchema, wechatPrepaySchema]);

/**
 * `GET /api/payments/wechat/config`: whether this Paydesk takes WeChat Pay, and with which
 * flows. `jsapiAppId` is the appid a JSAPI page's OAuth (snsapi_base) must use to get the
 * payer's openid. `simulator` is true only in local emulation: then
 * `POST /api/payments/wechat/simulator/pay` plays the payer ("Simulate scan and pay").
 */
export const wechatPayConfigAnswerSchema = z.strictObject({
  configured: z.boolean(),
  flows: z.array(z.enum(wechatPayFlows)),
  jsapiAppId: z.string().nullable(),
  simulator: z.boolean(),
});
export type WechatPayConfigAnswer = z.infer<typeof wechatPayConfigAnswerSchema>;

export const simulatePaymentBodySchema = z.strictObject({
  orderId: orderIdSchema,
  /** Local emulation: how this payer's refunds end (ABNORMAL: their card was cancelled since). */
  refundOutcome: z.enum(["SUCCESS", "ABNORMAL", "CLOSED"]).optional(),
  /**
   * Local emulation: the amount (fen) this payer's refunds end with, when not the one asked
   * for, an anomaly Paydesk parks (docs/decisions/070-parked-refunds-settled.md).
   */
  refundAmount: z.int().min(1).optional(),
  /**
   * Local emulation: WeChat Pay's notification of this payment comes this many seconds late,
   * so Paydesk hears of it only when it asks (a payment landing as its order is cancelled).
   */
  notifyAfterSeconds: z.int().min(1).max(3600).optional(),
  /** Local emulation: this payer's refunds take this many seconds to end, not the simulator's usual few. */
  refundAfterSeconds: z.int().min(1).max(3600).optional(),
});

export const simulatedPaymentSchema = z.strictObject({
  orderId: z.string(),
  outTradeNo: z.string(),
  /** WeChat Pay (the simulator) took the money; the order is paid once its notification arrives. */
  paid: z.literal(true),
});

/** Whether WeChat's sign-in has given this person's openid for the deploy's appid: JSAPI can pay at once. */
export const wechatSignInStatusSchema = z.strictObject({ signedIn: z.boolean() });

/** Starting WeChat's sign-in inside WeChat: the order whose payment page WeChat returns to. */
export const wechatSignInBodySchema = z.strictObject({ orderId: orderIdSchema });

/** WeChat's page to send the browser to; it comes back to the order's payment page with a code. */
export const wechatSignInAnswerSchema = z.strictObject({ url: z.string() });

/** What WeChat brought back to the page: its code, and the state Paydesk gave the sign-in. */
export const wechatSignInCompleteBodySchema = z.strictObject({
  code: z
    .string({ error: "WeChat's code is missing." })
    .min(1, "WeChat's code is missing.")
    .max(128, "WeChat's code has at most 128 characters.")
    .regex(/^[0-9A-Za-z_-]+$/, "Not a code WeChat gives."),
  state: z.string({ error: "The sign-in's state is missing." }).regex(/^[0-9a-f]{64}$/, "Not a state this sign-in gave."),
});

export const wechatSignInCompleteAnswerSchema = z.strictObject({ signedIn: z.literal(true) });
