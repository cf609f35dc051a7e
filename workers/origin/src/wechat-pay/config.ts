import * as Sentry from "@sentry/cloudflare";
import { wechatPayFlows, type WechatPayFlow } from "#contract/payments";
import type { Clock } from "../origin-env";
import { createWechatPayClient, type WechatPayClient, type WechatPayConfig } from "../wechatpay/client";
import { importMerchantPrivateKey } from "../wechatpay/crypto";

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
    /** Flows offered, comma-separated; default `native,h5` (jsapi needs the payer's openid from OAuth). */
    WECHATPAY_FLOWS?: string;
    /**
     * Local emulation and tests only: the WeChat Pay simulator worker. When bound, WeChat Pay
     * is reached through it and `POST /api/payments/wechat/simulator/pay` plays the payer.
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

export type WechatPay = {
  client: WechatPayClient;
  flows: WechatPayFlow[];
  appid: string;
  /** Only in local emulation and tests. */
  simulator: Fetcher | null;
};

const required = ["WECHATPAY_MCHID", "WECHATPAY_APPID", "WECHATPAY_MERCHANT_SERIAL", "WECHATPAY_PRIVATE_KEY", "WECHATPAY_APIV3_KEY", "WECHATPAY_NOTIFY_URL"] as const;
const optional = [
  "WECHATPAY_PUBLIC_KEY_ID",
  "WECHATPAY_PUBLIC_KEY",
  "WECHATPAY_PLATFORM_CERTIFICATES",
  "WECHATPAY_REFUND_NOTIFY_URL",
  "WECHATPAY_BASE_URL",
  "WECHATPAY_FLOWS",
] as const;

/** How long the origin waits for WeChat Pay per call (WeChat Pay wants notifications answered within 5 s). */
export const wechatPayTimeoutMs = 8_000;

const text = (value: string | undefined) => (typeof value === "string" ? value.trim() : "");

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

export function wechatPayConfigOf(env: Env): { config: WechatPayConfig; flows: WechatPayFlow[] } | null {
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
  return { config, flows: listed.length > 0 ? [...new Set(listed)] : ["native", "h5"] };
}

/**
 * Local emulation: the simulator's TEST-ONLY merchant, as its `GET /__simulator/merchant-config`
 * tells it, notified over the simulator's service binding to the origin (the URL's path counts).
 */
async function simulatorMerchant(simulator: Fetcher): Promise<{ config: WechatPayConfig; flows: WechatPayFlow[] } | null> {
  const answer = await simulator.fetch("http://wechatpay-simulator.internal/__simulator/merchant-config");
  if (!answer.ok) return null;
  const merchant = (await answer.json()) as Omit<WechatPayConfig, "notifyUrl" | "baseUrl">;
  return {
    config: {
      ...merchant,
      notifyUrl: "http://127.0.0.1/api/payments/wechat/notify",
      refundNotifyUrl: "http://127.0.0.1/api/payments/wechat/refund-notify",
      baseUrl: "http://wechatpay-simulator.internal",
    },
    flows: [...wechatPayFlows],
  };
}

/**
 * The WeChat Pay client for an environment, or null when WeChat Pay is not configured. One
 * client per configuration and clock is kept (its keys and downloaded certificates with it).
 * A configuration that is present but unusable is reported once and treated as absent.
 */
export function wechatPayFactory(clock: Clock, { timeoutMs = wechatPayTimeoutMs }: { timeoutMs?: number } = {}) {
  const made = new Map<string, Promise<WechatPay | null>>();
  const make = async (env: Env): Promise<WechatPay | null> => {
    const simulator = env.WECHATPAY_SIMULATOR ?? null;
    const found =
      wechatPayConfigOf(env) ?? (simulator && text(env.WECHATPAY_SIMULATOR_MERCHANT) === "true" ? await simulatorMerchant(simulator) : null);
    if (!found) return null;
    try {
      // A key WebCrypto cannot import (PKCS#1 instead of PKCS#8, a truncated secret) would fail
      // every call later: find out now, and treat WeChat Pay as not configured.
      await importMerchantPrivateKey(found.config.merchantPrivateKeyPem);
      const client = createWechatPayClient(found.config, {
        now: () => clock.now(),
        timeoutMs,
        ...(simulator ? { fetch: (request: Request) => simulator.fetch(request) } : {}),
      });
      return { client, flows: found.flows, appid: client.config.appid, simulator };
    } catch (error) {
      // Never the values: the error names the fields only.
      console.error("WeChat Pay is configured but the configuration is not usable", error instanceof Error ? error.message : error);
      Sentry.captureException(new Error("WeChat Pay configuration is not usable"));
      return null;
    }
  };
  return (env: Env): Promise<WechatPay | null> => {
    const fingerprint =
      [...required, ...optional, "WECHATPAY_SIMULATOR_MERCHANT" as const].map((name) => text(env[name])).join("\u0000") +
      (env.WECHATPAY_SIMULATOR ? "\u0000simulator" : "");
    const known = made.get(fingerprint);
    if (known) return known;
    const making = make(env).catch((error: unknown) => {
      // The simulator was not reachable: ask again next time.
      made.delete(fingerprint);
      console.error("WeChat Pay's configuration could not be read", error);
      return null;
    });
    made.set(fingerprint, making);
    return making;
  };
}
