/** WeChat Pay's configuration: the secrets a deployment sets, read into the client's settings. */
import { wechatPayFlows, type WechatPayFlow } from "#contract/value-lists";
import type { WechatPayClient } from "./client/client";
import type { WechatPayConfig } from "./client/client-config";

// Secrets (`wrangler secret put`, or `.dev.vars` locally), so `wrangler types` cannot know them.
declare global {
  interface Env {
    /** WeChat Pay merchant id (商户号). */
    WECHATPAY_MCHID?: string;
    /** The appid bound to the merchant (official account / app), also the JSAPI appid. */
    WECHATPAY_APPID?: string;
    /** Serial number of the merchant API certificate. */
    WECHATPAY_MERCHANT_SERIAL?: string;
    /** The merchant API private key, PKCS#8 PEM (`BEGIN PRIVATE KEY`). */
    WECHATPAY_PRIVATE_KEY?: string;
    /** The 32-character APIv3 key. */
    WECHATPAY_APIV3_KEY?: string;
    /** Public-key mode: the WeChat Pay public key id (`PUB_KEY_ID_…`) and its PEM. */
    WECHATPAY_PUBLIC_KEY_ID?: string;
    WECHATPAY_PUBLIC_KEY?: string;
    /** Platform-certificate mode: one or more PEM certificates, concatenated. */
    WECHATPAY_PLATFORM_CERTIFICATES?: string;
    /** Where WeChat Pay sends payment notifications: https://<host>/api/payments/wechat/notify */
    WECHATPAY_NOTIFY_URL?: string;
    /** Where refund notifications go; default: `refund-notify` beside WECHATPAY_NOTIFY_URL. */
    WECHATPAY_REFUND_NOTIFY_URL?: string;
    /** WeChat Pay's API host; default https://api.mch.weixin.qq.com. */
    WECHATPAY_BASE_URL?: string;
    /**
     * Flows offered, comma-separated; default `native,h5`. `jsapi` is offered only with
     * WECHATPAY_APP_SECRET: its payer's openid comes from WeChat's sign-in.
     */
    WECHATPAY_FLOWS?: string;
    /**
     * The AppSecret of the official account whose appid is WECHATPAY_APPID: WeChat's sign-in
     * (web authorization) swaps its code for the payer's openid with it
     * (docs/decisions/073-wechat-payer-sign-in.md).
     */
    WECHATPAY_APP_SECRET?: string;
    /**
     * Local emulation and tests only: the WeChat Pay simulator worker. When bound, WeChat Pay
     * is reached through it and the emulation routes (`/api/payments/wechat/simulator/…`,
     * emulation/emulation-routes.ts) are mounted to play the payer.
     */
    WECHATPAY_SIMULATOR?: Fetcher;
    /**
     * Local emulation only (`npm run dev` sets it): "true" takes the merchant configuration
     * (TEST-ONLY keys) from the bound simulator's `GET /__simulator/merchant-config` when no
     * WECHATPAY_* secrets are set, so that no key sits in any config file.
     */
    WECHATPAY_SIMULATOR_MERCHANT?: string;
  }
}

/** WeChat Pay as an environment has it configured: the client, and what the pages may offer. */
export type WechatPay = {
  client: WechatPayClient;
  flows: WechatPayFlow[];
  appid: string;
  /** The official account's AppSecret, which WeChat's sign-in needs; null when JSAPI is not offered. */
  appSecret: string | null;
  /** Only in local emulation and tests. */
  simulator: Fetcher | null;
};

const required = [
  "WECHATPAY_MCHID",
  "WECHATPAY_APPID",
  "WECHATPAY_MERCHANT_SERIAL",
  "WECHATPAY_PRIVATE_KEY",
  "WECHATPAY_APIV3_KEY",
  "WECHATPAY_NOTIFY_URL",
] as const;
const optional = [
  "WECHATPAY_PUBLIC_KEY_ID",
  "WECHATPAY_PUBLIC_KEY",
  "WECHATPAY_PLATFORM_CERTIFICATES",
  "WECHATPAY_REFUND_NOTIFY_URL",
  "WECHATPAY_BASE_URL",
  "WECHATPAY_FLOWS",
  "WECHATPAY_APP_SECRET",
] as const;

/** Local emulation and tests bind the simulator, production never: it decides whether the emulation routes are mounted. */
export function simulatorBound(env: Env): boolean {
  return env.WECHATPAY_SIMULATOR != null;
}

/** A secret or variable as set: trimmed, "" when absent. */
export const text = (value: string | undefined) => (typeof value === "string" ? value.trim() : "");

/** PEM blocks of a bundle of certificates. */
function certificatesIn(bundle: string): string[] {
  return bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

/** The refund notify URL beside the payment notify URL: …/notify → …/refund-notify. */
function siblingRefundUrl(notifyUrl: string): string | undefined {
  try {
    const url = new URL(notifyUrl);
    url.pathname = url.pathname.replace(/\/[^/]*$/, "/refund-notify");
    return url.toString();
  } catch {
    return undefined;
  }
}

/** Private keys in secrets often arrive with literal `\n`: turn them back into lines. */
const pem = (value: string) => value.replace(/\\n/g, "\n");

/** The client's settings, the flows offered, and the AppSecret JSAPI's sign-in needs. */
export type WechatPaySettings = { config: WechatPayConfig; flows: WechatPayFlow[]; appSecret: string | null };

/** The flows offered: those listed (or the default), without JSAPI when no AppSecret can learn a payer's openid. */
function offeredFlows(listed: WechatPayFlow[], appSecret: string | null): WechatPayFlow[] {
  const flows = listed.length > 0 ? [...new Set(listed)] : (["native", "h5"] as WechatPayFlow[]);
  return appSecret ? flows : flows.filter((flow) => flow !== "jsapi");
}

export function wechatPayConfigOf(env: Env): WechatPaySettings | null {
  if (required.some((name) => text(env[name]) === "")) return null;
  const publicKeyId = text(env.WECHATPAY_PUBLIC_KEY_ID);
  const publicKey = text(env.WECHATPAY_PUBLIC_KEY);
  const notifyUrl = text(env.WECHATPAY_NOTIFY_URL);
  const refundNotifyUrl = text(env.WECHATPAY_REFUND_NOTIFY_URL) || siblingRefundUrl(notifyUrl);
  const listed = text(env.WECHATPAY_FLOWS)
    .split(",")
    .map((flow) => flow.trim())
    .filter((flow): flow is WechatPayFlow => (wechatPayFlows as readonly string[]).includes(flow));
  const config: WechatPayConfig = {
    mchid: text(env.WECHATPAY_MCHID),
    appid: text(env.WECHATPAY_APPID),
    merchantSerial: text(env.WECHATPAY_MERCHANT_SERIAL),
    merchantPrivateKeyPem: pem(text(env.WECHATPAY_PRIVATE_KEY)),
    apiV3Key: text(env.WECHATPAY_APIV3_KEY),
    ...(publicKeyId && publicKey ? { wechatPublicKey: { id: publicKeyId, pem: pem(publicKey) } } : {}),
    platformCertificates: certificatesIn(pem(text(env.WECHATPAY_PLATFORM_CERTIFICATES))),
    notifyUrl,
    ...(refundNotifyUrl ? { refundNotifyUrl } : {}),
    ...(text(env.WECHATPAY_BASE_URL) ? { baseUrl: text(env.WECHATPAY_BASE_URL) } : {}),
  };
  const appSecret = text(env.WECHATPAY_APP_SECRET) || null;
  return { config, flows: offeredFlows(listed, appSecret), appSecret };
}

/** What a client is made from: the same fingerprint means the same client can serve. */
export function configFingerprint(env: Env): string {
  return (
    [...required, ...optional, "WECHATPAY_SIMULATOR_MERCHANT" as const].map((name) => text(env[name])).join("\u0000") +
    (env.WECHATPAY_SIMULATOR ? "\u0000simulator" : "")
  );
}
