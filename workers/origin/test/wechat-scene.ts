/**
 * The WeChat Pay tests' scene: a clean origin and simulator with two users, and the requests
 * those users make. Each test file keeps `origin`, `alice` and `bob` as its own variables
 * (set in its `beforeEach`) and hands the requests a way to read them.
 */
import { expect } from "vitest";
import type { OrderDetail } from "#contract/orders";
import type { WechatPrepay } from "#contract/payments";
import { seedUser } from "./origin-client";
import {
  clearingBalance,
  control,
  deliverNotifications,
  notificationsFor,
  payerPays,
  replay,
  wechatOrigin,
  type Recorded,
  type WechatOrigin,
} from "./wechat-support";

export type SceneUser = Awaited<ReturnType<typeof seedUser>>;

export async function wechatScene(
  options?: Parameters<typeof wechatOrigin>[0],
): Promise<{ origin: WechatOrigin; alice: SceneUser; bob: SceneUser }> {
  const origin = await wechatOrigin(options);
  const alice = await seedUser("alice", origin.now());
  const bob = await seedUser("bob", origin.now());
  return { origin, alice, bob };
}

export const key = () => `wx-${crypto.randomUUID()}`;
const payerAddress = { "X-Real-IP": "203.0.113.7" };
/** The pages' origin the test deploy names (WEBAUTHN_ORIGINS in the origin's wrangler.toml). */
export const pageOrigin = "http://localhost:5173";

/** The requests of the scene's users; `current` reads the test's origin and first user (alice). */
export function wechatRequests(current: () => { origin: WechatOrigin; alice: SceneUser }) {
  async function rechargeOrder(amount = 2_500, user = current().alice): Promise<{ id: string; expiresAt: string }> {
    const response = await current().origin.call("/api/orders/recharge", {
      body: { amount },
      headers: { ...user.auth, "Idempotency-Key": key() },
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { id: string; expiresAt: string } }).data;
  }

  async function taskBudgetOrder(
    user = current().alice,
    { reward = 500, slots = 2 } = {},
  ): Promise<{ taskId: string; orderId: string; amount: number }> {
    const origin = current().origin;
    const response = await origin.call("/api/tasks", {
      body: {
        title: "Check a page",
        description: "Open it and describe it.",
        reward,
        slots,
        deadline: new Date(origin.now() + 48 * 3600_000).toISOString(),
      },
      headers: { ...user.auth, "Idempotency-Key": key() },
    });
    expect(response.status).toBe(201);
    const { task, order } = ((await response.json()) as { data: { task: { id: string }; order: { id: string; amount: number } } }).data;
    return { taskId: task.id, orderId: order.id, amount: order.amount };
  }

  function payRequest(
    orderId: string,
    body: Record<string, unknown>,
    {
      user = current().alice,
      idempotencyKey = key(),
      headers = payerAddress as Record<string, string>,
    }: { user?: SceneUser; idempotencyKey?: string; headers?: Record<string, string> } = {},
  ) {
    return current().origin.call(`/api/orders/${orderId}/pay`, {
      body,
      headers: { ...user.auth, ...headers, "Idempotency-Key": idempotencyKey },
    });
  }

  async function startWechat(
    orderId: string,
    flow: "native" | "h5" | "jsapi" = "native",
    extra: Record<string, unknown> = {},
  ): Promise<WechatPrepay> {
    const response = await payRequest(orderId, { method: "wechat", flow, ...extra });
    const body = (await response.json()) as { data: WechatPrepay };
    expect(response.status, JSON.stringify(body)).toBe(201);
    return body.data;
  }

  /**
   * WeChat's sign-in as the page inside WeChat goes through it (decision 073): started for an
   * order of the user's, WeChat's stand-in page sends the browser back with a code, which the
   * origin swaps for the payer's openid.
   */
  async function signInWithWechat(user = current().alice, orderId?: string): Promise<void> {
    const origin = current().origin;
    const order = orderId ?? (await rechargeOrder(1_000, user)).id;
    const started = await origin.call("/api/payments/wechat/sign-in", {
      body: { orderId: order },
      headers: { ...user.auth, Origin: pageOrigin },
    });
    expect(started.status).toBe(200);
    const { url } = ((await started.json()) as { data: { url: string } }).data;
    const back = await origin.call(url.slice(pageOrigin.length), { method: "GET" });
    expect(back.status).toBe(302);
    const returned = new URL(back.headers.get("Location")!);
    const completed = await origin.call("/api/payments/wechat/sign-in/complete", {
      body: { code: returned.searchParams.get("code"), state: returned.searchParams.get("state") },
      headers: { ...user.auth, Origin: pageOrigin },
    });
    expect(completed.status).toBe(200);
  }

  async function orderDetail(orderId: string, user = current().alice): Promise<OrderDetail> {
    const response = await current().origin.call(`/api/orders/${orderId}`, { method: "GET", headers: user.auth });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: OrderDetail }).data;
  }

  async function cancel(orderId: string, user = current().alice) {
    const response = await current().origin.call(`/api/orders/${orderId}/cancel`, { headers: user.auth });
    expect(response.status).toBe(200);
  }

  /**
   * A recharge of `amount` paid with WeChat Pay after it was cancelled (its close failed), so
   * its money waits in the clearing account for the automatic refund, which WeChat Pay took.
   */
  async function lateRechargeRefund(amount: number): Promise<{ orderId: string; outTradeNo: string; outRefundNo: string }> {
    const order = await rechargeOrder(amount);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await replay(current().origin, await payerPays(outTradeNo))).status).toBe(204);
    expect(await clearingBalance()).toBe(amount);
    return { orderId: order.id, outTradeNo, outRefundNo: `RF${outTradeNo}` };
  }

  return { rechargeOrder, taskBudgetOrder, payRequest, startWechat, signInWithWechat, orderDetail, cancel, lateRechargeRefund };
}

/** The first notification of `eventType` about `outTradeNo` the sink recorded; none fails the test. */
export async function recordedNotification(outTradeNo: string, eventType: string): Promise<Recorded> {
  const [notification] = await notificationsFor(outTradeNo, eventType);
  if (!notification) throw new Error(`No ${eventType} notification was recorded for ${outTradeNo}`);
  return notification;
}

/** The payment's success notification once the simulator delivered what it has due. */
export async function payerPaysRecorded(outTradeNo: string): Promise<Recorded> {
  await deliverNotifications();
  return recordedNotification(outTradeNo, "TRANSACTION.SUCCESS");
}
