import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OrderDetail } from "#contract/orders";
import type { WechatPayConfigAnswer, WechatPrepay } from "#contract/payments";
import { testMerchant } from "#wechatpay-simulator/test-only-keys";
import { balanceOf, expectLedgerWhole, seedUser } from "../../test/origin-client";
import {
  clearingBalance,
  control,
  deliverNotifications,
  notificationRows,
  notificationsFor,
  payerPays,
  paymentRow,
  refundRow,
  replay,
  signedNotification,
  simulatorOrder,
  wechatOrigin,
  wechatTestEnv,
  worldBalance,
  type WechatOrigin,
} from "../../test/wechat-support";

let origin: WechatOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  origin = await wechatOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

const key = () => `wx-${crypto.randomUUID()}`;
const payerAddress = { "X-Real-IP": "203.0.113.7" };

async function rechargeOrder(amount = 2_500, user = alice): Promise<{ id: string; expiresAt: string }> {
  const response = await origin.call("/api/orders/recharge", { body: { amount }, headers: { ...user.auth, "Idempotency-Key": key() } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string; expiresAt: string } }).data;
}

async function taskBudgetOrder(user = alice, { reward = 500, slots = 2 } = {}): Promise<{ taskId: string; orderId: string; amount: number }> {
  const response = await origin.call("/api/tasks", {
    body: { title: "Check a page", description: "Open it and describe it.", reward, slots, deadline: new Date(origin.now() + 48 * 3600_000).toISOString() },
    headers: { ...user.auth, "Idempotency-Key": key() },
  });
  expect(response.status).toBe(201);
  const { task, order } = ((await response.json()) as { data: { task: { id: string }; order: { id: string; amount: number } } }).data;
  return { taskId: task.id, orderId: order.id, amount: order.amount };
}

function payRequest(
  orderId: string,
  body: Record<string, unknown>,
  { user = alice, idempotencyKey = key(), headers = payerAddress as Record<string, string> }: { user?: typeof alice; idempotencyKey?: string; headers?: Record<string, string> } = {},
) {
  return origin.call(`/api/orders/${orderId}/pay`, { body, headers: { ...user.auth, ...headers, "Idempotency-Key": idempotencyKey } });
}

async function startWechat(orderId: string, flow: "native" | "h5" | "jsapi" = "native", extra: Record<string, unknown> = {}): Promise<WechatPrepay> {
  const response = await payRequest(orderId, { method: "wechat", flow, ...extra });
  const body = (await response.json()) as { data: WechatPrepay };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.data;
}

async function orderDetail(orderId: string, user = alice): Promise<OrderDetail> {
  const response = await origin.call(`/api/orders/${orderId}`, { method: "GET", headers: user.auth });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: OrderDetail }).data;
}

async function cancel(orderId: string, user = alice) {
  const response = await origin.call(`/api/orders/${orderId}/cancel`, { headers: user.auth });
  expect(response.status).toBe(200);
}

describe("configuration", () => {
  it("tells the pages whether WeChat Pay is offered, with which flows, and whether the simulator plays the payer", async () => {
    const configured = await origin.call("/api/payments/wechat/config", { method: "GET" });
    expect(await configured.json()).toEqual({
      code: "SUCCESS",
      data: { configured: true, flows: ["native", "h5", "jsapi"], jsapiAppId: testMerchant.appid, simulator: true },
    } satisfies { code: "SUCCESS"; data: WechatPayConfigAnswer });

    const bare = await origin.call("/api/payments/wechat/config", { method: "GET", env });
    expect(await bare.json()).toEqual({ code: "SUCCESS", data: { configured: false, flows: [], jsapiAppId: null, simulator: false } });

    const production = await origin.call("/api/payments/wechat/config", {
      method: "GET",
      env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined, WECHATPAY_FLOWS: undefined }),
    });
    expect(await production.json()).toEqual({ code: "SUCCESS", data: { configured: true, flows: ["native", "h5"], jsapiAppId: null, simulator: false } });
  });

  it("treats an unusable configuration as none (a PKCS#1 key, no WeChat Pay key at all)", async () => {
    for (const broken of [
      { WECHATPAY_PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAK==\n-----END RSA PRIVATE KEY-----" },
      { WECHATPAY_PUBLIC_KEY_ID: undefined, WECHATPAY_PUBLIC_KEY: undefined },
      { WECHATPAY_APIV3_KEY: "too-short" },
    ]) {
      const answer = await origin.call("/api/payments/wechat/config", { method: "GET", env: wechatTestEnv(broken) });
      expect(await answer.json(), JSON.stringify(broken)).toMatchObject({ data: { configured: false } });
    }
  });

  it("refuses to start a WeChat Pay payment where no WECHATPAY_* secrets are set, and an unoffered flow", async () => {
    const order = await rechargeOrder();
    const response = await origin.call(`/api/orders/${order.id}/pay`, {
      body: { method: "wechat", flow: "native" },
      headers: { ...alice.auth, "Idempotency-Key": key() },
      env,
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "WECHAT_PAY_NOT_CONFIGURED" });
    const jsapi = await origin.call(`/api/orders/${order.id}/pay`, {
      body: { method: "wechat", flow: "jsapi", openid: "oPayer123" },
      headers: { ...alice.auth, "Idempotency-Key": key() },
      env: wechatTestEnv({ WECHATPAY_FLOWS: "native" }),
    });
    expect(jsapi.status).toBe(422);
    expect(await jsapi.json()).toMatchObject({ code: "WECHAT_PAY_FLOW_NOT_AVAILABLE", field: "flow" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM payment").first("n")).toBe(0);
  });

  it("validates the pay body: a flow for WeChat Pay, an openid for JSAPI, nothing unknown", async () => {
    const order = await rechargeOrder();
    for (const [body, field] of [
      [{ method: "wechat" }, "flow"],
      [{ method: "wechat", flow: "app" }, "flow"],
      [{ method: "wechat", flow: "jsapi" }, "openid"],
      [{ method: "wechat", flow: "native", openid: "x" }, "openid"],
      [{ method: "card" }, "method"],
    ] as const) {
      const response = await payRequest(order.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
    }
  });
});

describe("starting a WeChat Pay payment", () => {
  it("answers a Native code_url, an H5 link and JSAPI parameters that WeixinJSBridge accepts, with the order's expiry", async () => {
    const order = await rechargeOrder(2_500);
    const native = await startWechat(order.id, "native");
    expect(native).toMatchObject({ orderId: order.id, method: "wechat", flow: "native", amount: 2_500, status: "pending", expiresAt: order.expiresAt });
    expect(native.flow === "native" && native.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(native.outTradeNo).toMatch(/^[0-9A-Za-z]{32}$/);
    // Stored before WeChat Pay was asked, and WeChat Pay's order ends with ours.
    expect(await paymentRow(native.outTradeNo)).toMatchObject({ status: "pending", remote_state: "open", next_check_at: origin.now() + 60_000 });
    const atWechat = await control<{ order: { timeExpire: number; total: number; tradeType: string } }>(`/orders/${native.outTradeNo}`);
    expect(atWechat.data.order).toMatchObject({ timeExpire: Date.parse(order.expiresAt), total: 2_500, tradeType: "NATIVE" });

    const h5Order = await rechargeOrder(1_000);
    const h5 = await startWechat(h5Order.id, "h5");
    // With the simulator bound (local emulation, these tests), the link leads to its stand-in cashier.
    expect(h5.flow === "h5" && h5.h5Url).toMatch(/^\/api\/payments\/wechat\/simulator\/cashier\?prepay_id=wx\w+&package=\d+$/);

    const jsapiOrder = await rechargeOrder(1_200);
    const jsapi = await startWechat(jsapiOrder.id, "jsapi", { openid: "oPayerOpenid0001" });
    expect(jsapi.flow).toBe("jsapi");
    if (jsapi.flow !== "jsapi") return;
    expect(jsapi.jsapi).toMatchObject({ appId: testMerchant.appid, signType: "RSA", package: expect.stringMatching(/^prepay_id=wx/) });
    expect((await control("/jsapi/verify", jsapi.jsapi)).data).toMatchObject({ valid: true, outTradeNo: jsapi.outTradeNo });
  });

  it("H5 sends the payer's address from CF-Connecting-IP or the edge's X-Real-IP, and needs one outside local emulation", async () => {
    const order = await rechargeOrder();
    const missing = await origin.call(`/api/orders/${order.id}/pay`, {
      body: { method: "wechat", flow: "h5" },
      headers: { ...alice.auth, "Idempotency-Key": key() },
      env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "BAD_REQUEST", field: "flow" });
    const sentFor = async (headers: Record<string, string>) => {
      const other = await rechargeOrder();
      const response = await payRequest(other.id, { method: "wechat", flow: "h5" }, { headers });
      expect(response.status).toBe(201);
      const { outTradeNo } = ((await response.json()) as { data: WechatPrepay }).data;
      return (await control<{ order: { fingerprint: string } }>(`/orders/${outTradeNo}`)).data.order.fingerprint;
    };
    expect(await sentFor({ "X-Real-IP": "203.0.113.7" })).toContain('"payer_client_ip":"203.0.113.7"');
    expect(await sentFor({ "CF-Connecting-IP": "2001:db8::1", "X-Real-IP": "203.0.113.7" })).toContain('"payer_client_ip":"2001:db8::1"');
    // Local emulation may have no address at all: loopback.
    expect(await sentFor({})).toContain('"payer_client_ip":"127.0.0.1"');
  });

  it("reuses the same out_trade_no for a repeated request (a fresh code each time), and replays an answer for a retried key", async () => {
    const order = await rechargeOrder();
    const first = await startWechat(order.id);
    const again = await startWechat(order.id);
    expect(again.outTradeNo).toBe(first.outTradeNo);
    expect(again.paymentId).toBe(first.paymentId);
    expect(again.flow === "native" && first.flow === "native" && again.codeUrl !== first.codeUrl).toBe(true);
    const retryKey = key();
    const one = await payRequest(order.id, { method: "wechat", flow: "native" }, { idempotencyKey: retryKey });
    const two = await payRequest(order.id, { method: "wechat", flow: "native" }, { idempotencyKey: retryKey });
    expect(await two.json()).toEqual(await one.json());
    expect(await env.DB.prepare("SELECT count(*) AS n FROM payment WHERE order_id = ?1").bind(order.id).first("n")).toBe(1);
  });

  it("on a change of flow closes the waiting WeChat Pay order first, then starts another", async () => {
    const order = await rechargeOrder();
    const native = await startWechat(order.id, "native");
    const h5 = await startWechat(order.id, "h5");
    expect(h5.outTradeNo).not.toBe(native.outTradeNo);
    expect((await simulatorOrder(native.outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(native.outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });
    expect(await paymentRow(h5.outTradeNo)).toMatchObject({ status: "pending" });
    // Ten requests at once for the same flow: one WeChat order.
    const answers = await Promise.all(Array.from({ length: 10 }, () => payRequest(order.id, { method: "wechat", flow: "h5" })));
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { data?: WechatPrepay }[];
    expect(new Set(bodies.flatMap((body) => (body.data ? [body.data.outTradeNo] : [])))).toEqual(new Set([h5.outTradeNo]));
  });

  it("refuses a paid or closed order, and keeps wallet payments of task budgets working", async () => {
    const order = await rechargeOrder();
    await cancel(order.id);
    const refused = await payRequest(order.id, { method: "wechat", flow: "native" });
    expect(refused.status).toBe(409);
    const { orderId, amount } = await taskBudgetOrder(bob);
    const wallet = await payRequest(orderId, { method: "wallet" }, { user: bob });
    expect(wallet.status).toBe(422);
    expect(await wallet.json()).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(amount).toBe(1_000);
  });
});

describe("payment notifications", () => {
  it("credit a recharge once, and answer duplicates (one by one and ten at once) without a second effect", async () => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    const first = await replay(origin, notification);
    expect(first.status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid", payments: [{ method: "wechat", status: "succeeded", amount: 2_500 }] });
    expect((await paymentRow(outTradeNo))?.transaction_id).toMatch(/^\d{28}$/);

    expect((await replay(origin, notification)).status).toBe(204);
    const storm = await Promise.all(Array.from({ length: 10 }, () => replay(origin, notification)));
    expect(storm.map((answer) => answer.status)).toEqual(Array(10).fill(204));
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    expect(await worldBalance()).toBe(-2_500);
    expect(await notificationRows(outTradeNo)).toEqual([expect.objectContaining({ event_type: "TRANSACTION.SUCCESS", outcome: "settled", deliveries: 12 })]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM journal_tx WHERE kind = 'recharge'").first("n")).toBe(1);
    await expectLedgerWhole();
  });

  it("settle when the simulator itself delivers twice at once", async () => {
    const order = await rechargeOrder(1_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, { notify: { duplicate: true } })).status).toBe(200);
    await deliverNotifications();
    const copies = await notificationsFor(outTradeNo, "TRANSACTION.SUCCESS");
    expect(copies).toHaveLength(2);
    const answers = await Promise.all(copies.map((copy) => replay(origin, copy)));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("pay a task budget into escrow and open the task, as a wallet payment does", async () => {
    const { taskId, orderId, amount } = await taskBudgetOrder(alice, { reward: 300, slots: 3 });
    const { outTradeNo } = await startWechat(orderId);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: amount });
    expect(await env.DB.prepare("SELECT status, escrow_remaining FROM task WHERE id = ?1").bind(taskId).first()).toEqual({ status: "open", escrow_remaining: 900 });
    await expectLedgerWhole();
  });

  it("are refused (not 2xx, nothing stored or moved) when a signature is a probe, wrong, stale or missing", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    for (const headers of <Record<string, string>[]>[
      { "wechatpay-signature": "WECHATPAY/SIGNTEST/abcdefghijklmnop" },
      { "wechatpay-signature": notification.headers["wechatpay-signature"]!.replace(/^./, (c) => (c === "A" ? "B" : "A")) },
      { "wechatpay-timestamp": String(Math.floor(origin.now() / 1000) - 301) },
      { "wechatpay-serial": "PUB_KEY_ID_0000000000000000000000000000000000" },
    ]) {
      const answer = await replay(origin, notification, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(await answer.json()).toEqual({ code: "FAIL", message: expect.any(String) });
    }
    const tampered = await replay(origin, { ...notification, body: notification.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') });
    expect(tampered.status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await notificationRows(outTradeNo)).toEqual([]);
    // The real one, resent as WeChat Pay does after a refusal, is taken.
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    await expectLedgerWhole();
  });

  it("refuse a payment of an order Paydesk does not know, storing the event and moving nothing", async () => {
    const stranger = await signedNotification(origin, { out_trade_no: "PDunknown0000000000000000000001", amount: { total: 900, payer_total: 900, currency: "CNY" } });
    const answer = await replay(origin, stranger);
    expect(answer.status).toBe(404);
    expect(await notificationRows("PDunknown0000000000000000000001")).toEqual([expect.objectContaining({ outcome: "unknown_order" })]);
    expect(await worldBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it("refuse a payment whose amount is not the order's, and leave the payment for an operator", async () => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const forged = await signedNotification(origin, { out_trade_no: outTradeNo, amount: { total: 1, payer_total: 1, currency: "CNY" } });
    const answer = await replay(origin, forged);
    expect(answer.status).toBe(422);
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "pending", remote_state: "mismatch", next_check_at: null });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await notificationRows(outTradeNo)).toEqual([expect.objectContaining({ outcome: "amount_mismatch" })]);
    await expectLedgerWhole();
  });

  it("a notification for another merchant or appid is refused", async () => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const foreign = await signedNotification(origin, { out_trade_no: outTradeNo, appid: "wx0000000000000000", amount: { total: 2_500 } });
    expect((await replay(origin, foreign)).status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
  });
});

describe("late and lost events", () => {
  it("a success for an order cancelled meanwhile is refunded automatically and recorded: money in, then out", async () => {
    const order = await rechargeOrder(3_000);
    const { outTradeNo } = await startWechat(order.id);
    // The close at cancel time fails, so the WeChat Pay order stays open and the payer pays it.
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST", times: 2 });
    await cancel(order.id);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("NOTPAY");
    const notification = await payerPays(outTradeNo);
    expect((await replay(origin, notification)).status).toBe(204);

    const refund = await refundRow(outTradeNo);
    expect(refund).toMatchObject({ out_refund_no: `RF${outTradeNo}`, status: "processing", amount: 3_000, reason: "order_closed" });
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "refunded" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(3_000);
    await expectLedgerWhole();
    expect(await orderDetail(order.id)).toMatchObject({
      status: "closed",
      payments: [{ method: "wechat", status: "refunded", refund: { status: "pending", amount: 3_000 } }],
    });
    // A duplicate of the late success refunds nothing more.
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM wechat_refund").first("n")).toBe(1);

    // WeChat Pay finishes the refund and says so: the money leaves once.
    expect((await control(`/refunds/RF${outTradeNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    await deliverNotifications();
    const [refunded] = await notificationsFor(outTradeNo, "REFUND.SUCCESS");
    expect(refunded).toBeDefined();
    expect((await replay(origin, refunded!)).status).toBe(204);
    expect((await replay(origin, refunded!)).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded", out_tx_id: expect.any(String) });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(0);
    expect((await orderDetail(order.id)).payments[0]?.refund).toEqual({ status: "succeeded", amount: 3_000 });
    await expectLedgerWhole();
  });

  it("a success for an order already paid another way (the wallet) is refunded too", async () => {
    const { orderId, amount } = await taskBudgetOrder(alice);
    const { outTradeNo } = await startWechat(orderId);
    // Alice also has the money in her wallet and pays the budget from it (funded as a code would).
    await env.DB.batch([
      env.DB.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_fund_alice', 'code_redemption', ?1)").bind(origin.now()),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_fund_alice', 'acc_world', 'available', ?1)").bind(-amount),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_fund_alice', ?1, 'available', ?2)").bind(`acc_${alice.id}`, amount),
      env.DB.prepare("INSERT INTO tx_seal (tx_id) VALUES ('tx_fund_alice')"),
    ]);
    await control("/faults", { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    const wallet = await payRequest(orderId, { method: "wallet" });
    expect(wallet.status).toBe(201);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ reason: "order_already_paid", status: "processing" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: amount });
    expect(await clearingBalance()).toBe(amount);
    await expectLedgerWhole();
  });

  it("a success nobody notified for a cancelled order: the cron's close meets ORDER_PAID, queries, and refunds", async () => {
    const order = await rechargeOrder(1_100);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    // The failed close at cancel time is tried again 2 minutes later.
    await origin.advance(60_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(60_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, refundsDue: 1 });
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "refunded" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "processing", reason: "order_closed" });
    expect(await clearingBalance()).toBe(1_100);
    // The simulator settles the refund after 60 s; the cron's query records it.
    await origin.advance(2 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ refundsAdvanced: 1 });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await clearingBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it("a lost notification is found by the cron's query from a minute after creation, then a late copy changes nothing", async () => {
    const order = await rechargeOrder(4_200);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(59_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(1_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, settled: 1 });
    expect(await balanceOf(alice.id)).toEqual({ available: 4_200, held: 0 });
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid" });
    await deliverNotifications();
    const [late] = await notificationsFor(outTradeNo, "TRANSACTION.SUCCESS");
    expect((await replay(origin, late!)).status).toBe(204);
    expect(await notificationRows(outTradeNo)).toEqual([expect.objectContaining({ outcome: "already_settled" })]);
    expect(await balanceOf(alice.id)).toEqual({ available: 4_200, held: 0 });
    await expectLedgerWhole();
  });

  it("an unpaid payment is queried with back-off (1, 2, 4 … minutes), and closed at WeChat Pay when the order expires", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    const checks: number[] = [];
    for (let minute = 1; minute <= 29; minute += 1) {
      await origin.advance(60_000);
      if (((await origin.cron()).wechat?.checked ?? 0) > 0) checks.push(minute);
    }
    expect(checks).toEqual([1, 3, 7, 15, 25]);
    await origin.advance(60_000 * 1.5);
    const run = await origin.cron();
    expect(run).toMatchObject({ closedOrders: 1, wechat: { closed: 1 } });
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed", next_check_at: null });
  });

  it("a cancelled order is closed at WeChat Pay; an unclear close is retried by the cron, only an ok close counts", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    await cancel(order.id);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });

    const other = await rechargeOrder();
    const second = await startWechat(other.id);
    await control("/faults", { kind: "timeout", delayMs: 1_000, afterCommit: false, path: `/v3/pay/transactions/out-trade-no/${second.outTradeNo}/close` });
    await cancel(other.id);
    expect(await paymentRow(second.outTradeNo)).toMatchObject({ status: "pending", checks: 1 });
    expect((await simulatorOrder(second.outTradeNo)).order.tradeState).toBe("NOTPAY");
    await origin.advance(2 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ closed: 1 });
    expect((await simulatorOrder(second.outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(second.outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });
  });
});

describe("races", () => {
  it("the cron's query and five copies of the notification at once settle once", async () => {
    const order = await rechargeOrder(3_300);
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    await origin.advance(60_000);
    const [run, ...answers] = await Promise.all([origin.cron(), ...Array.from({ length: 5 }, () => replay(origin, notification))]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(204));
    expect(run.wechat?.checked ?? 0).toBeLessThanOrEqual(1);
    expect(await balanceOf(alice.id)).toEqual({ available: 3_300, held: 0 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM journal_tx").first("n")).toBe(1);
    await expectLedgerWhole();
  });

  it("a success arriving as the order expires is either paid or refunded, never both", async () => {
    const order = await rechargeOrder(800);
    const { outTradeNo } = await startWechat(order.id);
    await origin.advance(30 * 60_000 - 2_000);
    const notification = await payerPays(outTradeNo);
    await origin.advance(2_000);
    const [, answer] = await Promise.all([origin.cron(), replay(origin, notification)]);
    expect(answer.status).toBe(204);
    const detail = await orderDetail(order.id);
    const refund = await refundRow(outTradeNo);
    if (detail.status === "paid") {
      expect(refund).toBeNull();
      expect(await balanceOf(alice.id)).toEqual({ available: 800, held: 0 });
    } else {
      expect(refund).toMatchObject({ amount: 800, reason: "order_closed" });
      expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    }
    await expectLedgerWhole();
  });
});

describe("refunds that fail at WeChat Pay", () => {
  it("an ABNORMAL refund is recorded, its money stays in the clearing account, and the order says so", async () => {
    const order = await rechargeOrder(900);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect((await control(`/refunds/RF${outTradeNo}/complete`, { status: "ABNORMAL" })).status).toBe(200);
    await deliverNotifications();
    const [abnormal] = await notificationsFor(outTradeNo, "REFUND.ABNORMAL");
    expect((await replay(origin, abnormal!)).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "abnormal", out_tx_id: null });
    expect(await clearingBalance()).toBe(900);
    expect((await orderDetail(order.id)).payments[0]).toMatchObject({ status: "refunded", refund: { status: "failed", amount: 900 } });
    // Nothing more happens by itself: an operator settles it at the merchant platform.
    await origin.advance(24 * 60 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ refundsAdvanced: 0 });
    await expectLedgerWhole();
  });
});

describe("WeChat Pay's faults lose or double no money", () => {
  it.each([
    ["500 before the change", { kind: "status", status: 500 }],
    ["503 after the change", { kind: "status", status: 503, afterCommit: true }],
    ["429", { kind: "status", status: 429 }],
    ["a time-out after the change", { kind: "timeout", delayMs: 1_000 }],
    ["an unsigned answer", { kind: "unsigned" }],
    ["a probe signature on the answer", { kind: "probe_signature" }],
  ])("creating the order: %s → WECHAT_PAY_UNAVAILABLE, and the retry reuses the out_trade_no", async (_, fault) => {
    const order = await rechargeOrder(1_500);
    await control("/faults", { ...fault, path: "/v3/pay/transactions/native" });
    const failed = await payRequest(order.id, { method: "wechat", flow: "native" });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ code: "WECHAT_PAY_UNAVAILABLE" });
    const stored = await env.DB.prepare("SELECT out_trade_no, status FROM payment WHERE order_id = ?1").bind(order.id).first<{ out_trade_no: string; status: string }>();
    expect(stored?.status).toBe("pending");
    const retried = await startWechat(order.id);
    expect(retried.outTradeNo).toBe(stored?.out_trade_no);
    expect((await replay(origin, await payerPays(retried.outTradeNo))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_500, held: 0 });
    await expectLedgerWhole();
  });

  it("querying and refunding through 500, 503, 429 and time-outs: settled once, refunded once", async () => {
    const order = await rechargeOrder(2_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    await control("/faults", {
      faults: [
        { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
        { kind: "status", status: 429, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
        { kind: "timeout", delayMs: 1_000, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
      ],
    });
    // Checked at 5 (500), 10 (429), 15 (time-out) minutes, then 8 minutes later: settled at 25.
    const settledAt: number[] = [];
    for (let minute = 5; minute <= 25; minute += 5) {
      await origin.advance(5 * 60_000);
      if ((await origin.cron()).wechat?.settled) settledAt.push(minute);
    }
    expect(settledAt).toEqual([25]);
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid" });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_000, held: 0 });

    // A second payment of a cancelled order, refunded through faults on the refund request.
    const order2 = await rechargeOrder(700, bob);
    const paid2 = await payRequest(order2.id, { method: "wechat", flow: "native" }, { user: bob });
    expect(paid2.status).toBe(201);
    const { outTradeNo: outTradeNo2 } = ((await paid2.json()) as { data: WechatPrepay }).data;
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order2.id, bob);
    await control("/faults", {
      faults: [
        { kind: "status", status: 503, afterCommit: true, path: "/v3/refund/domestic/refunds", method: "POST" },
        { kind: "timeout", delayMs: 1_000, path: "/v3/refund/domestic/refunds", method: "POST" },
      ],
    });
    expect((await replay(origin, await payerPays(outTradeNo2))).status).toBe(204);
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "due", attempts: 1 });
    await origin.advance(2 * 60_000);
    await origin.cron();
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "due", attempts: 2 });
    // The first request had gone through (503 after the change), and WeChat Pay settled it
    // meanwhile: the third request, under the same out_refund_no, gets that refund back.
    await origin.advance(4 * 60_000);
    await origin.cron();
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "succeeded", attempts: 2 });
    await origin.advance(60 * 60_000);
    await origin.cron();
    const refunds = (await control<{ refunds: Record<string, { status: string }> }>("/state")).data.refunds;
    expect(Object.values(refunds)).toHaveLength(1);
    expect(await clearingBalance()).toBe(0);
    expect(await balanceOf(bob.id)).toEqual({ available: 0, held: 0 });
    expect(await worldBalance()).toBe(-2_000);
    await expectLedgerWhole();
  });
});

describe("local emulation", () => {
  it("H5's stand-in cashier shows the order and pays it, then sends the browser back (same-site or loopback only)", async () => {
    const order = await rechargeOrder(1_300);
    const h5 = await startWechat(order.id, "h5");
    if (h5.flow !== "h5") throw new Error("not h5");
    const page = await origin.call(h5.h5Url, { method: "GET" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("¥13.00");
    const paid = await origin.call(`${h5.h5Url}&redirect_url=${encodeURIComponent(`/pay_success?order=${order.id}`)}`, { method: "POST" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("Location")).toBe(`/pay_success?order=${order.id}`);
    expect((await simulatorOrder(h5.outTradeNo)).order.tradeState).toBe("SUCCESS");
    // From a page on a loopback origin (npm run dev), the link is absolute, as WeChat Pay's is.
    const fromPage = await payRequest((await rechargeOrder(200)).id, { method: "wechat", flow: "h5" }, { headers: { Origin: "http://localhost:5173" } });
    expect(((await fromPage.json()) as { data: { h5Url: string } }).data.h5Url).toMatch(/^http:\/\/localhost:5173\/api\/payments\/wechat\/simulator\/cashier\?prepay_id=wx/);
    const elsewhere = await origin.call(`${h5.h5Url}&redirect_url=${encodeURIComponent("https://evil.example/")}`, { method: "GET" });
    expect(await elsewhere.text()).not.toContain("evil.example");
    const production = await origin.call(h5.h5Url, { method: "GET", env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined }) });
    expect(production.status).toBe(404);
    expect((await replay(origin, await payerPaysRecorded(h5.outTradeNo))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_300, held: 0 });
  });

  it("takes the TEST-ONLY merchant from the bound simulator when asked to (npm run dev), never without the binding", async () => {
    const devEnv = { ...env, WECHATPAY_SIMULATOR_MERCHANT: "true" };
    const dev = await origin.call("/api/payments/wechat/config", { method: "GET", env: devEnv });
    expect(await dev.json()).toMatchObject({ data: { configured: true, flows: ["native", "h5", "jsapi"], simulator: true } });
    const order = await rechargeOrder(600);
    const started = await origin.call(`/api/orders/${order.id}/pay`, {
      body: { method: "wechat", flow: "native" },
      headers: { ...alice.auth, "Idempotency-Key": key() },
      env: devEnv,
    });
    expect(started.status).toBe(201);
    const unbound = await origin.call("/api/payments/wechat/config", { method: "GET", env: { ...devEnv, WECHATPAY_SIMULATOR: undefined } });
    expect(await unbound.json()).toMatchObject({ data: { configured: false } });
  });

  it("plays the payer through the simulator for the signed-in owner of the order only", async () => {
    const order = await rechargeOrder(1_800);
    const { outTradeNo } = await startWechat(order.id);
    const notBob = await origin.call("/api/payments/wechat/simulator/pay", { body: { orderId: order.id }, headers: bob.auth });
    expect(notBob.status).toBe(404);
    const paid = await origin.call("/api/payments/wechat/simulator/pay", { body: { orderId: order.id }, headers: alice.auth });
    expect(await paid.json()).toEqual({ code: "SUCCESS", data: { orderId: order.id, outTradeNo, paid: true } });
    expect((await replay(origin, (await notificationsFor(outTradeNo))[0] ?? (await payerPaysRecorded(outTradeNo)))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_800, held: 0 });
    const production = await origin.call("/api/payments/wechat/simulator/pay", {
      body: { orderId: order.id },
      headers: alice.auth,
      env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined }),
    });
    expect(production.status).toBe(404);
  });
});

async function payerPaysRecorded(outTradeNo: string) {
  await deliverNotifications();
  const [notification] = await notificationsFor(outTradeNo, "TRANSACTION.SUCCESS");
  return notification!;
}
