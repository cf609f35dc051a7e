import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { WechatPrepay } from "#contract/payments";
import { testMerchant } from "#wechatpay-simulator/test-only-keys";
import { key, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { control, paymentRow, simulatorOrder, wechatTestEnv, type WechatOrigin } from "../../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
});

const { rechargeOrder, taskBudgetOrder, payRequest, startWechat, cancel } = wechatRequests(() => ({ origin, alice }));

describe("starting a WeChat Pay payment", () => {
  it("answers a Native code_url, an H5 link and JSAPI parameters that WeixinJSBridge accepts, with the order's expiry", async () => {
    const order = await rechargeOrder(2_500);
    const native = await startWechat(order.id, "native");
    expect(native).toMatchObject({
      orderId: order.id,
      method: "wechat",
      flow: "native",
      amount: 2_500,
      status: "pending",
      expiresAt: order.expiresAt,
    });
    expect(native.flow === "native" && native.codeUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(native.outTradeNo).toMatch(/^[0-9A-Za-z]{32}$/);
    // Stored before WeChat Pay was asked, and WeChat Pay's order ends with ours.
    expect(await paymentRow(native.outTradeNo)).toMatchObject({
      status: "pending",
      remote_state: "open",
      next_check_at: origin.now() + 60_000,
    });
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

  it("H5 sends the payer's address the edge forwarded (X-Real-IP), and needs one outside local emulation", async () => {
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
    expect(await sentFor({ "X-Real-IP": "2001:db8::1" })).toContain('"payer_client_ip":"2001:db8::1"');
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

  it("on a change of flow waits while the other flow's create may still land at WeChat Pay, then gives it up", async () => {
    const order = await rechargeOrder();
    // The native create is held at WeChat Pay's door, then refused there without an order.
    await control("/faults", { kind: "timeout", afterCommit: false, delayMs: 1_000, path: "/v3/pay/transactions/native" });
    const first = payRequest(order.id, { method: "wechat", flow: "native" });
    const stateOf = () => env.DB.prepare("SELECT remote_state FROM payment WHERE order_id = ?1").bind(order.id).first("remote_state");
    await expect.poll(stateOf).toBe("creating");
    // Closing it now would meet ORDER_NOT_EXIST and give up a payment whose create can still land.
    const other = await payRequest(order.id, { method: "wechat", flow: "h5" });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: "PAYMENT_STARTING" });
    expect((await first).status).toBe(503);
    const rows = () =>
      env.DB.prepare("SELECT flow, status, remote_state FROM payment WHERE order_id = ?1 ORDER BY created_at").bind(order.id).all();
    expect((await rows()).results).toEqual([{ flow: "native", status: "pending", remote_state: "creating" }]);
    // Once no create can land any more, the other flow goes ahead: the native one was never created.
    origin.advance(30_000);
    const h5 = await startWechat(order.id, "h5");
    expect((await rows()).results).toEqual([
      { flow: "native", status: "failed", remote_state: "absent" },
      { flow: "h5", status: "pending", remote_state: "open" },
    ]);
    expect(h5.flow).toBe("h5");
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
