/** The WeChat Pay client an environment's configuration makes, kept per configuration and clock. */
import * as Sentry from "../error-reporting";
import type { Clock } from "../origin-env";
import { createWechatPayClient } from "./client/client";
import { importMerchantPrivateKey } from "./client/crypto";
import { configFingerprint, wechatPayConfigOf, type WechatPay } from "./config";
import { simulatorMerchant } from "./emulation/simulator-merchant";

/** How long the origin waits for WeChat Pay per call (WeChat Pay wants notifications answered within 5 s). */
const wechatPayTimeoutMs = 8_000;

/**
 * The WeChat Pay client for an environment, or null when WeChat Pay is not configured. One
 * client per configuration and clock is kept (its keys and downloaded certificates with it).
 * A configuration that is present but unusable is reported once and treated as absent.
 */
export function wechatPayFactory(clock: Clock, { timeoutMs = wechatPayTimeoutMs }: { timeoutMs?: number } = {}) {
  const made = new Map<string, Promise<WechatPay | null>>();
  const make = async (env: Env): Promise<WechatPay | null> => {
    const simulator = env.WECHATPAY_SIMULATOR ?? null;
    const found = wechatPayConfigOf(env) ?? (await simulatorMerchant(env));
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
      return { client, flows: found.flows, appid: client.config.appid, appSecret: found.appSecret, simulator };
    } catch (error) {
      // Never the values: the error names the fields only.
      console.error("WeChat Pay is configured but the configuration is not usable", error instanceof Error ? error.message : error);
      Sentry.captureException(new Error("WeChat Pay configuration is not usable"));
      return null;
    }
  };
  return (env: Env): Promise<WechatPay | null> => {
    const fingerprint = configFingerprint(env);
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
