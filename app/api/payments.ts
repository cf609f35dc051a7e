import type { z } from "zod";
import type { simulatedPaymentSchema, simulatePaymentBodySchema, WechatPayConfigAnswer } from "#contract/payments";
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
