import { wechatPayFlows } from "#contract/value-lists";
import type { WechatPayConfig } from "../client/client-config";
import { text, type WechatPaySettings } from "../config";

/**
 * Local emulation (`WECHATPAY_SIMULATOR_MERCHANT=true` beside the bound simulator): the
 * simulator's TEST-ONLY merchant, as its `GET /__simulator/merchant-config`
 * tells it, notified over the simulator's service binding to the origin (the URL's path counts).
 */
export async function simulatorMerchant(env: Env): Promise<WechatPaySettings | null> {
  const simulator = env.WECHATPAY_SIMULATOR ?? null;
  if (!simulator || text(env.WECHATPAY_SIMULATOR_MERCHANT) !== "true") return null;
  const answer = await simulator.fetch("http://wechatpay-simulator.internal/__simulator/merchant-config");
  if (!answer.ok) return null;
  const { appSecret, ...merchant } = (await answer.json()) as Omit<WechatPayConfig, "notifyUrl" | "baseUrl"> & { appSecret: string };
  return {
    config: {
      ...merchant,
      notifyUrl: "http://127.0.0.1/api/payments/wechat/notify",
      refundNotifyUrl: "http://127.0.0.1/api/payments/wechat/refund-notify",
      baseUrl: "http://wechatpay-simulator.internal",
    },
    flows: [...wechatPayFlows],
    appSecret,
  };
}
