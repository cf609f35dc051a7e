/**
 * What WeixinJSBridge checks before showing the cashier: the merchant's paySign over
 * appId, timeStamp, nonceStr and package, and a live prepay id (§10.13). With `pay`, the
 * payer also pays, as confirming in WeChat would.
 */
import { z } from "zod";
import type { SimulatorCore } from "./core";
import { merchantKeyId, merchants } from "./keys";
import { verify } from "./sim-crypto";
import type { SimOrder } from "./state";
import { pay } from "./transactions";

export type PaySignCheck = { valid: boolean; reason?: string; outTradeNo?: string; transaction?: Record<string, unknown> };

const bridgeRequest = z.object({
  appId: z.string(),
  timeStamp: z.string(),
  nonceStr: z.string(),
  package: z.string(),
  signType: z.string(),
  paySign: z.string(),
  pay: z.boolean().optional(),
  openid: z.string().optional(),
});

export async function verifyPaySign(core: SimulatorCore, input: unknown, mchid: string): Promise<PaySignCheck> {
  const parsed = bridgeRequest.safeParse(input);
  if (!parsed.success) return { valid: false, reason: "MISSING_PARAMETERS" };
  const params = parsed.data;
  if (params.signType !== "RSA") return { valid: false, reason: "SIGN_TYPE" };
  if (!/^\d{10}$/.test(params.timeStamp)) return { valid: false, reason: "TIMESTAMP" };
  const prepayId = /^prepay_id=(wx\w+)$/.exec(params.package)?.[1];
  const order = Object.values(core.state.orders).find(
    (candidate) => candidate.mchid === mchid && candidate.prepayId === prepayId && candidate.tradeType === "JSAPI",
  );
  if (!order) return { valid: false, reason: "PREPAY_ID" };
  if (order.appid !== params.appId) return { valid: false, reason: "APPID" };
  if (core.now() > order.linkExpiresAt) return { valid: false, reason: "PREPAY_ID_EXPIRED" };
  const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`;
  if (!(await signedByMerchant(core, mchid, message, params.paySign))) return { valid: false, reason: "PAY_SIGN" };
  if (!params.pay) return { valid: true, outTradeNo: order.outTradeNo };
  return payAsPayer(core, order, params.openid);
}

async function signedByMerchant(core: SimulatorCore, mchid: string, message: string, signature: string): Promise<boolean> {
  const keys = await core.keys();
  for (const serial of Object.keys(merchants[mchid]?.serials ?? {})) {
    const key = keys.merchants.get(merchantKeyId(mchid, serial));
    if (key && (await verify(key, message, signature))) return true;
  }
  return false;
}

async function payAsPayer(core: SimulatorCore, order: SimOrder, openid: string | undefined): Promise<PaySignCheck> {
  const paid = pay(core, order.mchid, order.outTradeNo, openid === undefined ? {} : { openid });
  await core.settled();
  return paid.ok
    ? { valid: true, outTradeNo: order.outTradeNo, transaction: paid.transaction }
    : { valid: true, outTradeNo: order.outTradeNo, reason: paid.error };
}
