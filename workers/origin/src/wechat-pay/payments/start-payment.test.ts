import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { WechatPrepay } from "#contract/payments";
import { testMerchant } from "#wechatpay-simulator/test-only-keys";
import { key, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { control, paymentRow, simulatorOrder, wechatTestEnv, type WechatOrigin } from "../../../test/wechat-support";
import { findPendingWechatPayment, markCreateAsked, markPaymentAbsent } from "./payment-rows";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
});

const { rechargeOrder, taskBudgetOrder, payRequest, startWechat, cancel, signInWithWechat } = wechatRequests(() => ({ origin, alice }));

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
    await signInWithWechat(alice);
    const jsapi = await startWechat(jsapiOrder.id, "jsapi");
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

  describe("a change of flow while a create may still land at WeChat Pay", () => {
    // The native create is held at WeChat Pay's door, then refused there without an order:
    // its outcome unknown, the payment stays `creating`.
    const nativeCreateLost = () =>
      control("/faults", { kind: "timeout", afterCommit: false, delayMs: 1_000, path: "/v3/pay/transactions/native" });
    const rowsOf = async (orderId: string) =>
      (await env.DB.prepare("SELECT flow, status, remote_state FROM payment WHERE order_id = ?1 ORDER BY created_at").bind(orderId).all())
        .results;

    it("waits while the first create is in flight, then gives that payment up and starts another", async () => {
      const order = await rechargeOrder();
      await nativeCreateLost();
      const first = payRequest(order.id, { method: "wechat", flow: "native" });
      const stateOf = () => env.DB.prepare("SELECT remote_state FROM payment WHERE order_id = ?1").bind(order.id).first("remote_state");
      await expect.poll(stateOf).toBe("creating");
      // Closing it now would meet ORDER_NOT_EXIST and give up a payment whose create can still land.
      const h5Key = key();
      const other = await payRequest(order.id, { method: "wechat", flow: "h5" }, { idempotencyKey: h5Key });
      expect(other.status).toBe(409);
      expect(await other.json()).toMatchObject({ code: "PAYMENT_STARTING" });
      expect((await first).status).toBe(503);
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "pending", remote_state: "creating" }]);
      origin.advance(29_999);
      expect((await payRequest(order.id, { method: "wechat", flow: "h5" }, { idempotencyKey: h5Key })).status).toBe(409);
      // Once no create can land any more, the same request (not recorded against its key) goes ahead.
      origin.advance(1);
      const again = await payRequest(order.id, { method: "wechat", flow: "h5" }, { idempotencyKey: h5Key });
      expect(again.status).toBe(201);
      expect(await rowsOf(order.id)).toEqual([
        { flow: "native", status: "failed", remote_state: "absent" },
        { flow: "h5", status: "pending", remote_state: "open" },
      ]);
    });

    it("waits again for a create asked again, and not for one WeChat Pay already holds", async () => {
      const order = await rechargeOrder();
      await nativeCreateLost();
      expect((await payRequest(order.id, { method: "wechat", flow: "native" })).status).toBe(503);
      origin.advance(60_000);
      // The same flow asks again, and is lost again: another flow waits for this create too.
      await nativeCreateLost();
      expect((await payRequest(order.id, { method: "wechat", flow: "native" })).status).toBe(503);
      const other = await payRequest(order.id, { method: "wechat", flow: "h5" });
      expect(await other.json()).toMatchObject({ code: "PAYMENT_STARTING" });
      // The third time WeChat Pay answers: it holds the order, and another flow closes it at once.
      const native = await startWechat(order.id, "native");
      const h5 = await startWechat(order.id, "h5");
      expect((await simulatorOrder(native.outTradeNo)).order.tradeState).toBe("CLOSED");
      expect(await rowsOf(order.id)).toEqual([
        { flow: "native", status: "failed", remote_state: "closed" },
        { flow: "h5", status: "pending", remote_state: "open" },
      ]);
      expect(h5.outTradeNo).not.toBe(native.outTradeNo);
    });

    it("an order cancelled while its create is on its way keeps the payment until the create can no longer land", async () => {
      const order = await rechargeOrder();
      await nativeCreateLost();
      const first = payRequest(order.id, { method: "wechat", flow: "native" });
      const stateOf = () => env.DB.prepare("SELECT remote_state FROM payment WHERE order_id = ?1").bind(order.id).first("remote_state");
      await expect.poll(stateOf).toBe("creating");
      // The cancel's close meets no order at WeChat Pay: a create landing after it could still be paid.
      await cancel(order.id);
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "pending", remote_state: "creating" }]);
      const { create_asked_at: askedAt, next_check_at: nextCheck } = (await env.DB.prepare(
        "SELECT create_asked_at, next_check_at FROM payment WHERE order_id = ?1",
      )
        .bind(order.id)
        .first<{ create_asked_at: number; next_check_at: number }>()) ?? { create_asked_at: 0, next_check_at: 0 };
      expect(nextCheck).toBe(askedAt + 30_000);
      expect((await first).status).toBe(503);
      // Once no create can land, the cron gives it up.
      await origin.advance(30_000);
      expect((await origin.cron()).wechat).toMatchObject({ checked: 1, closed: 1 });
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "failed", remote_state: "absent" }]);
    });

    it("a create that lands after its order was cancelled is closed at WeChat Pay, and the payer hears the order is over", async () => {
      // The origin waits up to 5 s for WeChat Pay, which creates the order at once and takes 2 s to answer.
      ({ origin, alice, bob } = await wechatScene({ wechatPayTimeoutMs: 5_000 }));
      const order = await rechargeOrder();
      await control("/faults", { kind: "timeout", delayMs: 2_000, path: "/v3/pay/transactions/native" });
      const first = payRequest(order.id, { method: "wechat", flow: "native" });
      const outTradeNoOf = () =>
        env.DB.prepare("SELECT out_trade_no FROM payment WHERE order_id = ?1").bind(order.id).first<string>("out_trade_no");
      await expect.poll(outTradeNoOf).toMatch(/^[0-9A-Za-z]{32}$/);
      const outTradeNo = (await outTradeNoOf()) ?? "";
      await expect.poll(async () => (await simulatorOrder(outTradeNo)).status).toBe(200);
      // Cancelled while WeChat Pay's answer is on its way.
      await cancel(order.id);
      const answer = await first;
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({ code: "ORDER_NOT_PENDING" });
      expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "failed", remote_state: "closed" }]);
    });

    it("a create that lands after another flow replaced its payment is closed, and its request may be sent again", async () => {
      ({ origin, alice, bob } = await wechatScene({ wechatPayTimeoutMs: 5_000 }));
      const order = await rechargeOrder();
      const native = await startWechat(order.id, "native");
      // The same flow asked again; WeChat Pay answers it 2 s late, and meanwhile another flow gives this payment up.
      await control("/faults", { kind: "timeout", delayMs: 2_000, path: "/v3/pay/transactions/native" });
      await origin.advance(1_000);
      const retryKey = key();
      const retry = payRequest(order.id, { method: "wechat", flow: "native" }, { idempotencyKey: retryKey });
      await expect
        .poll(
          async () =>
            (await env.DB.prepare("SELECT create_asked_at FROM payment WHERE out_trade_no = ?1")
              .bind(native.outTradeNo)
              .first<number>("create_asked_at")) ?? 0,
        )
        .toBe(origin.now());
      await env.DB.prepare("UPDATE payment SET status = 'failed', remote_state = 'absent' WHERE out_trade_no = ?1")
        .bind(native.outTradeNo)
        .run();
      const answer = await retry;
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({ code: "PAYMENT_STARTING" });
      expect((await simulatorOrder(native.outTradeNo)).order.tradeState).toBe("CLOSED");
      // Not recorded against its key: sent again, it starts a new payment for the order, still pending.
      const again = await payRequest(order.id, { method: "wechat", flow: "native" }, { idempotencyKey: retryKey });
      expect(again.status).toBe(201);
      expect(((await again.json()) as { data: WechatPrepay }).data.outTradeNo).not.toBe(native.outTradeNo);
    });

    it("gives a payment up on ORDER_NOT_EXIST only if no create was asked since it was read", async () => {
      const order = await rechargeOrder();
      await nativeCreateLost();
      await payRequest(order.id, { method: "wechat", flow: "native" });
      const read = await findPendingWechatPayment(env.DB, order.id);
      if (!read) throw new Error("no pending payment");
      origin.advance(60_000);
      expect(await markCreateAsked(env.DB, read.id, origin.now())).toBe(true);
      expect(await markPaymentAbsent(env.DB, read, origin.now())).toBe(false);
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "pending", remote_state: "creating" }]);
      const current = await findPendingWechatPayment(env.DB, order.id);
      expect(current && (await markPaymentAbsent(env.DB, current, origin.now()))).toBe(true);
      expect(await rowsOf(order.id)).toEqual([{ flow: "native", status: "failed", remote_state: "absent" }]);
    });
  });

  it("closes the WeChat Pay order of a task cancelled before its budget was paid, at once", async () => {
    const { taskId, orderId } = await taskBudgetOrder();
    const native = await startWechat(orderId, "native");
    const cancelled = await origin.call(`/api/tasks/${taskId}/cancel`, { headers: alice.auth });
    expect(cancelled.status).toBe(200);
    // Not left open until the cron's next run, where the poster could still pay it.
    expect((await simulatorOrder(native.outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(native.outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });
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
