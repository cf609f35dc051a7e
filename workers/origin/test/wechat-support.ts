/**
 * The origin with WeChat Pay configured against the simulator worker (TEST-ONLY merchant),
 * on a clock the test moves — the simulator's clock moves with it. The simulator's
 * notifications are recorded by the sink worker; tests replay them into the origin as
 * WeChat Pay sent them (raw body and headers).
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createOriginApp } from "../src/app";
import { runTimeBasedRules } from "../src/scheduled";
import type { Transaction } from "../src/wechat-pay/client/wire";
import { simulatorBound } from "../src/wechat-pay/config";
import { wechatPayFactory } from "../src/wechat-pay/factory";
import { randomAlphanumeric, randomHex, seal, sign, importSigningKey } from "#wechatpay-simulator/sim-crypto";
import type { SimDelivery, SimulatorState } from "#wechatpay-simulator/state";
import { testMerchant, testWechatPublicKey } from "#wechatpay-simulator/test-only-keys";
import { resetDatabase } from "./origin-client";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Test-only: the simulator's notification recorder (vitest.config.ts). */
      WECHATPAY_NOTIFY_SINK: Fetcher;
      /** The simulator worker (vitest.config.ts), as local emulation binds it. */
      WECHATPAY_SIMULATOR: Fetcher;
    }
  }
}

const notifyPath = "/api/payments/wechat/notify";
const refundNotifyPath = "/api/payments/wechat/refund-notify";

/** The origin's WeChat Pay configuration in tests: the simulator's TEST-ONLY merchant. */
export function wechatTestEnv(overrides: Partial<Env> = {}): Env {
  return {
    ...env,
    WECHATPAY_MCHID: testMerchant.mchid,
    WECHATPAY_APPID: testMerchant.appid,
    WECHATPAY_MERCHANT_SERIAL: testMerchant.serial,
    WECHATPAY_PRIVATE_KEY: testMerchant.privateKeyPem,
    WECHATPAY_APIV3_KEY: testMerchant.apiV3Key,
    WECHATPAY_PUBLIC_KEY_ID: testWechatPublicKey.id,
    WECHATPAY_PUBLIC_KEY: testWechatPublicKey.publicKeyPem,
    WECHATPAY_NOTIFY_URL: `https://paydesk.test${notifyPath}`,
    WECHATPAY_BASE_URL: "https://wechatpay-simulator.test",
    WECHATPAY_FLOWS: "native,h5,jsapi",
    WECHATPAY_APP_SECRET: testMerchant.appSecret,
    ...overrides,
  };
}

type CallInit = { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string };

export async function control<T = unknown>(
  path: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
): Promise<{ status: number; data: T }> {
  const response = await env.WECHATPAY_SIMULATOR.fetch(`https://wechatpay-simulator.test/__simulator${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
  });
  return { status: response.status, data: (await response.json()) as T };
}

/**
 * WeChat Pay's next answer about refund `outRefundNo` (any refund without it) states
 * `refundAmount` as paid out, signed as ever, while the refund itself is unchanged (the
 * simulator's `misreport_refund` fault).
 */
export const misreportNextRefundQuery = (refundAmount: number, outRefundNo = "") =>
  control("/faults", { kind: "misreport_refund", method: "GET", path: `/v3/refund/domestic/refunds/${outRefundNo}`, refundAmount });

/**
 * A clean database and simulator, and an origin whose clock (and the simulator's) the test
 * moves. `wechatPayTimeoutMs` is short so that time-outs are seen without waiting long.
 */
export async function wechatOrigin({
  start = Date.parse("2026-11-01T00:00:00Z"),
  envOverrides = {},
  wechatPayTimeoutMs = 500,
}: {
  start?: number;
  envOverrides?: Partial<Env>;
  wechatPayTimeoutMs?: number;
} = {}) {
  await resetDatabase();
  await control("/reset", {});
  let now = start;
  const clock = { now: () => now };
  const wechatEnv = wechatTestEnv(envOverrides);
  const app = await createOriginApp({ clock, wechatPayTimeoutMs, emulation: simulatorBound(wechatEnv) });
  await control("/clock", { offsetSeconds: Math.round((now - Date.now()) / 1000) });
  const wechatPay = wechatPayFactory(clock, { timeoutMs: wechatPayTimeoutMs });
  const call = (path: string, init: CallInit & { env?: Env } = {}) =>
    app.request(
      path,
      {
        method: init.method ?? "POST",
        headers: { "Content-Type": "application/json", ...init.headers },
        body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
      },
      init.env ?? wechatEnv,
    );
  return {
    app,
    call,
    env: wechatEnv,
    now: () => now,
    /** Moves both clocks. */
    advance: async (ms: number) => {
      now += ms;
      expect((await control("/clock", { advanceSeconds: ms / 1000 })).status).toBe(200);
    },
    /** One cron run with WeChat Pay configured. */
    cron: async () => runTimeBasedRules(env.DB, now, { wechatPay: await wechatPay(wechatEnv) }),
    wechatPay: async () => {
      const wechat = await wechatPay(wechatEnv);
      if (!wechat) throw new Error("WeChat Pay is not configured with the TEST-ONLY merchant");
      return wechat;
    },
  };
}

export type WechatOrigin = Awaited<ReturnType<typeof wechatOrigin>>;

export type Recorded = { url: string; headers: Record<string, string>; body: string };

/** Delivers what the simulator has due, and answers the recorded notifications, newest last. */
export async function deliverNotifications(): Promise<
  Array<{ id: string; eventType: string; outTradeNo: string; attempts: SimDelivery["attempts"] }>
> {
  const { data } = await control<{ delivered: Awaited<ReturnType<typeof deliverNotifications>> }>("/notifications/deliver", {});
  return data.delivered;
}

async function recordedAt(path: string): Promise<Recorded[]> {
  return (await env.WECHATPAY_NOTIFY_SINK.fetch(`https://sink.test/__sink/received${path}`)).json();
}

/** The simulator's notifications about `outTradeNo` (an event type, or all), as the sink recorded them. */
export async function notificationsFor(outTradeNo: string, eventType?: string): Promise<Recorded[]> {
  const state = (await control<SimulatorState>("/state")).data;
  const ids = new Set(
    state.deliveries.filter((d) => d.outTradeNo === outTradeNo && (!eventType || d.eventType === eventType)).map((d) => d.id),
  );
  const recorded = [...(await recordedAt(notifyPath)), ...(await recordedAt(refundNotifyPath))];
  return recorded.filter((entry) => ids.has((JSON.parse(entry.body) as { id: string }).id));
}

/** Posts a recorded notification to the origin exactly as WeChat Pay sent it. */
export async function replay(origin: WechatOrigin, notification: Recorded, headers: Record<string, string> = {}): Promise<Response> {
  return await origin.app.request(
    new URL(notification.url).pathname,
    { method: "POST", headers: { ...notification.headers, ...headers }, body: notification.body },
    origin.env,
  );
}

/** The payer scans and pays at the simulator; the notification is delivered to the sink and returned. */
export async function payerPays(outTradeNo: string, body: Record<string, unknown> = {}): Promise<Recorded> {
  const paid = await control(`/orders/${outTradeNo}/pay`, body);
  expect(paid.status).toBe(200);
  await deliverNotifications();
  const [notification] = await notificationsFor(outTradeNo, "TRANSACTION.SUCCESS");
  expect(notification).toBeDefined();
  if (!notification) throw new Error(`No TRANSACTION.SUCCESS notification was recorded for ${outTradeNo}`);
  return notification;
}

/**
 * A notification built here with the TEST-ONLY keys, signed as WeChat Pay signs: for the
 * cases the simulator will not produce (another amount, an order it never saw).
 */
export async function signedNotification(
  origin: WechatOrigin,
  transaction: Partial<Transaction> & Pick<Transaction, "out_trade_no">,
  { eventType = "TRANSACTION.SUCCESS" }: { eventType?: string } = {},
): Promise<Recorded> {
  const plaintext = JSON.stringify({
    appid: testMerchant.appid,
    mchid: testMerchant.mchid,
    trade_type: "NATIVE",
    trade_state: "SUCCESS",
    trade_state_desc: "支付成功",
    bank_type: "OTHERS",
    transaction_id: `4200${randomHex(24).replace(/\D/g, "7")}`.slice(0, 28),
    success_time: "2026-11-01T08:00:00+08:00",
    payer: { openid: "oTestOnlyPayer" },
    ...transaction,
  });
  const nonce = randomAlphanumeric(12);
  const body = JSON.stringify({
    id: crypto.randomUUID(),
    create_time: "2026-11-01T08:00:00+08:00",
    resource_type: "encrypt-resource",
    event_type: eventType,
    summary: "支付成功",
    resource: {
      original_type: "transaction",
      algorithm: "AEAD_AES_256_GCM",
      ciphertext: await seal(testMerchant.apiV3Key, nonce, "transaction", plaintext),
      associated_data: "transaction",
      nonce,
    },
  });
  const timestamp = String(Math.floor(origin.now() / 1000));
  const signatureNonce = randomHex(32);
  const key = await importSigningKey(testWechatPublicKey.privateKeyPem);
  return {
    url: `https://paydesk.test${notifyPath}`,
    body,
    headers: {
      "content-type": "application/json",
      "wechatpay-timestamp": timestamp,
      "wechatpay-nonce": signatureNonce,
      "wechatpay-serial": testWechatPublicKey.id,
      "wechatpay-signature-type": "WECHATPAY2-SHA256-RSA2048",
      "wechatpay-signature": await sign(key, `${timestamp}\n${signatureNonce}\n${body}\n`),
    },
  };
}

export async function simulatorOrder(outTradeNo: string): Promise<{ status: number; order: { tradeState: string; total: number } }> {
  const { status, data } = await control<{ order: { tradeState: string; total: number } }>(`/orders/${outTradeNo}`);
  return { status, order: data.order };
}

export async function paymentRow(outTradeNo: string) {
  return env.DB.prepare(
    "SELECT id, status, remote_state, next_check_at, checks, transaction_id, tx_id FROM payment WHERE out_trade_no = ?1",
  )
    .bind(outTradeNo)
    .first<{
      id: string;
      status: string;
      remote_state: string | null;
      next_check_at: number | null;
      checks: number;
      transaction_id: string | null;
      tx_id: string | null;
    }>();
}

export async function refundRow(outTradeNo: string) {
  return env.DB.prepare(
    "SELECT out_refund_no, status, amount, reason, attempts, out_tx_id FROM wechat_refund WHERE payment_id = (SELECT id FROM payment WHERE out_trade_no = ?1)",
  )
    .bind(outTradeNo)
    .first<{ out_refund_no: string; status: string; amount: number; reason: string; attempts: number; out_tx_id: string | null }>();
}

export async function clearingBalance(): Promise<number> {
  return (
    (await env.DB.prepare("SELECT coalesce(sum(available + held), 0) AS total FROM account WHERE id = 'acc_wechat_clearing'").first<number>(
      "total",
    )) ?? 0
  );
}

export async function notificationRows(outTradeNo: string) {
  return (
    await env.DB.prepare(
      "SELECT id, event_type, outcome, deliveries FROM wechat_notification WHERE out_trade_no = ?1 ORDER BY first_received_at",
    )
      .bind(outTradeNo)
      .all<{ id: string; event_type: string; outcome: string; deliveries: number }>()
  ).results;
}

export async function worldBalance(): Promise<number> {
  return (await env.DB.prepare("SELECT available FROM account WHERE id = 'acc_world'").first<number>("available")) ?? NaN;
}
