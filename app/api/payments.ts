import type { z } from "zod";
import type {
  simulatedPaymentSchema,
  simulatePaymentBodySchema,
  WechatPayConfigAnswer,
  wechatSignInAnswerSchema,
  wechatSignInBodySchema,
  wechatSignInCompleteAnswerSchema,
  wechatSignInCompleteBodySchema,
  wechatSignInStatusSchema,
} from "#contract/payments";
import type { SignedInApi } from "./client";

type SimulatedPayment = z.infer<typeof simulatedPaymentSchema>;

/** Whether this Paydesk takes WeChat Pay, and with which flows. */
export function getWechatPayConfig(api: SignedInApi): Promise<WechatPayConfigAnswer> {
  return api.get<WechatPayConfigAnswer>("/api/payments/wechat/config");
}

/** Local emulation only: the simulator plays the payer ("Simulate scan and pay"). */
export function simulateWechatPayment(api: SignedInApi, body: z.input<typeof simulatePaymentBodySchema>): Promise<SimulatedPayment> {
  return api.post<SimulatedPayment>("/api/payments/wechat/simulator/pay", body);
}

/** Inside WeChat: whether WeChat's sign-in has given this person's openid, so JSAPI can pay at once. */
export function getWechatSignIn(api: SignedInApi): Promise<z.infer<typeof wechatSignInStatusSchema>> {
  return api.get("/api/payments/wechat/sign-in");
}

/** Inside WeChat: WeChat's sign-in page, which comes back to this order's payment page with a code. */
export function startWechatSignIn(
  api: SignedInApi,
  body: z.input<typeof wechatSignInBodySchema>,
): Promise<z.infer<typeof wechatSignInAnswerSchema>> {
  return api.post("/api/payments/wechat/sign-in", body);
}

/** Inside WeChat: the code WeChat came back with, swapped by the origin for the payer's openid. */
export function completeWechatSignIn(
  api: SignedInApi,
  body: z.input<typeof wechatSignInCompleteBodySchema>,
): Promise<z.infer<typeof wechatSignInCompleteAnswerSchema>> {
  return api.post("/api/payments/wechat/sign-in/complete", body);
}
