import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { createWechatPayClient } from "#origin/wechat-pay/client/client";
import type { WechatPayConfig, WechatPayDeps } from "#origin/wechat-pay/client/client-config";
import type { SimDelivery, SimulatorState } from "../src/state";
import { testMerchant, testPlatformCertificates, testWechatPublicKey } from "../src/test-only-keys";

type TestEnv = { NOTIFY: Fetcher };
const notifySink = (env as unknown as TestEnv).NOTIFY;

export const simulatorBaseUrl = "https://wechatpay-simulator.test";

/** The simulator worker under test (its default export, through its Durable Object). */
export const simulatorFetch = (request: Request): Promise<Response> => exports.default.fetch(request);

export async function control<T = unknown>(
  path: string,
  body?: unknown,
  method = body === undefined ? "GET" : "POST",
): Promise<{ status: number; data: T }> {
  const response = await simulatorFetch(
    new Request(`${simulatorBaseUrl}/__simulator${path}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
    }),
  );
  return { status: response.status, data: (await response.json()) as T };
}

export const resetSimulator = () => control("/reset", {});
export const simulatorState = async () => (await control<SimulatorState>("/state")).data;

/** A notify URL of its own for each test, so recordings never mix. */
export function notifyUrl(): string {
  return `https://merchant.test/notify/${crypto.randomUUID()}`;
}

export async function planAnswers(url: string, statuses: Array<number | { status: number; delayMs: number }>): Promise<void> {
  await notifySink.fetch(`https://sink.test/__sink/plan${new URL(url).pathname}`, { method: "POST", body: JSON.stringify(statuses) });
}

export type Received = { url: string; headers: Record<string, string>; body: string };
export async function receivedAt(url: string): Promise<Received[]> {
  return (await notifySink.fetch(`https://sink.test/__sink/received${new URL(url).pathname}`)).json();
}

export async function deliverDue(): Promise<
  Array<{ id: string; eventType: string; outTradeNo: string; attempts: SimDelivery["attempts"] }>
> {
  return (await control<{ delivered: Awaited<ReturnType<typeof deliverDue>> }>("/notifications/deliver", {})).data.delivered;
}

export async function advanceClock(seconds: number): Promise<void> {
  const { status } = await control("/clock", { advanceSeconds: seconds });
  expect(status).toBe(200);
}

const merchantConfig = (overrides: Partial<WechatPayConfig> = {}): WechatPayConfig => ({
  mchid: testMerchant.mchid,
  appid: testMerchant.appid,
  merchantSerial: testMerchant.serial,
  merchantPrivateKeyPem: testMerchant.privateKeyPem,
  apiV3Key: testMerchant.apiV3Key,
  wechatPublicKey: { id: testWechatPublicKey.id, pem: testWechatPublicKey.publicKeyPem },
  notifyUrl: notifyUrl(),
  refundNotifyUrl: notifyUrl(),
  baseUrl: simulatorBaseUrl,
  ...overrides,
});

export const certificateConfig = (certificates = [testPlatformCertificates.A.certificatePem]): Partial<WechatPayConfig> => ({
  wechatPublicKey: undefined,
  platformCertificates: certificates,
});

/** The origin's client, talking to the simulator worker; `offset` follows the simulator's clock. */
export function testClient(overrides: Partial<WechatPayConfig> = {}, deps: WechatPayDeps & { offsetSeconds?: () => number } = {}) {
  const { offsetSeconds, ...rest } = deps;
  const config = merchantConfig(overrides);
  return {
    config,
    client: createWechatPayClient(config, {
      fetch: simulatorFetch,
      now: () => Date.now() + (offsetSeconds?.() ?? 0) * 1000,
      timeoutMs: 2_000,
      ...rest,
    }),
  };
}

let counter = 0;
export function outTradeNo(prefix = "PD"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${crypto.randomUUID().slice(0, 6)}`.slice(0, 32);
}

export const inMinutes = (minutes: number) => Date.now() + minutes * 60_000;
