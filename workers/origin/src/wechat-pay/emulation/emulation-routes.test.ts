import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createOriginApp, openApiPath } from "../../app";
import worker from "../../index";
import { balanceOf } from "../../../test/origin-client";
import { key, payerPaysRecorded, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import {
  deliverNotifications,
  notificationsFor,
  replay,
  simulatorOrder,
  wechatTestEnv,
  type WechatOrigin,
} from "../../../test/wechat-support";
import { simulatorBound } from "../config";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
});

const { rechargeOrder, payRequest, startWechat, cancel, orderDetail } = wechatRequests(() => ({ origin, alice }));

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
    const fromPage = await payRequest(
      (await rechargeOrder(200)).id,
      { method: "wechat", flow: "h5" },
      { headers: { Origin: "http://localhost:5173" } },
    );
    expect(((await fromPage.json()) as { data: { h5Url: string } }).data.h5Url).toMatch(
      /^http:\/\/localhost:5173\/api\/payments\/wechat\/simulator\/cashier\?prepay_id=wx/,
    );
    for (const away of ["https://evil.example/", "//evil.example/", "/\\evil.example/", "/\t/evil.example/", "/\n/evil.example/"]) {
      const elsewhere = await origin.call(`${h5.h5Url}&redirect_url=${encodeURIComponent(away)}`, { method: "GET" });
      expect(await elsewhere.text(), JSON.stringify(away)).not.toContain("evil.example");
    }
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

  it("plays a payment whose notification comes late: Paydesk learns of it only by asking, here when the order is cancelled", async () => {
    const order = await rechargeOrder(2_200);
    const { outTradeNo } = await startWechat(order.id);
    const body = { orderId: order.id, notifyAfterSeconds: 600 };
    const pay = (sent: Record<string, unknown>) => origin.call("/api/payments/wechat/simulator/pay", { body: sent, headers: alice.auth });
    expect((await pay({ ...body, notifyAfterSeconds: 0 })).status).toBe(400);
    expect((await pay({ ...body, refundAfterSeconds: 0 })).status).toBe(400);
    expect((await pay(body)).status).toBe(200);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("SUCCESS");
    expect(await deliverNotifications()).toEqual([]);
    expect((await orderDetail(order.id)).status).toBe("pending");
    // Cancelling closes the WeChat Pay order; WeChat Pay refuses (it is paid), so Paydesk asks and refunds it.
    await cancel(order.id);
    expect(await orderDetail(order.id)).toMatchObject({
      status: "closed",
      closeReason: "cancelled",
      payments: [{ method: "wechat", status: "refunded", amount: 2_200, refund: { status: "pending", amount: 2_200 } }],
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
  });
});

// The worker as deployed (src/index.ts), called with an environment that binds the simulator
// (local emulation, these tests) or does not (production).
const bound: Env = { ...env, WECHATPAY_SIMULATOR_MERCHANT: "true" };
const unbound: Env = { ...env, WECHATPAY_SIMULATOR: undefined };
const emulationRequests = [
  ["POST", "/api/payments/wechat/simulator/pay"],
  ["GET", "/api/payments/wechat/simulator/cashier"],
  ["POST", "/api/payments/wechat/simulator/cashier"],
] as const;

async function callWorker(method: string, path: string, workerEnv: Env, headers: Record<string, string> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://origin.test${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    ...(method === "POST" ? { body: JSON.stringify({ orderId: "ord_00000000-0000-4000-8000-000000000000" }) } : {}),
  });
  const fetch = worker.fetch;
  if (!fetch) throw new Error("The origin worker has no fetch handler");
  const response = await fetch(request as Parameters<typeof fetch>[0], workerEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const noRoute = (method: string, path: string) => ({ code: "NOT_FOUND", message: `No API route ${method} ${path}.` });

describe("the emulation routes exist only where the simulator is bound", () => {
  it("with the binding, the worker routes them: the cashier answers its page, paying asks for a session", async () => {
    expect(simulatorBound(bound)).toBe(true);
    const cashier = await callWorker("GET", "/api/payments/wechat/simulator/cashier?prepay_id=wx_unknown", bound);
    expect(cashier.status).toBe(404);
    expect(cashier.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await cashier.text()).toContain("This payment link is unknown or has expired.");
    const pay = await callWorker("POST", "/api/payments/wechat/simulator/pay", bound);
    expect(pay.status).toBe(401);
    expect(await pay.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  it("without the binding, they answer 404 NOT_FOUND as any unknown API route does, signed in or not", async () => {
    expect(simulatorBound(unbound)).toBe(false);
    const unknown = await callWorker("GET", "/api/payments/wechat/no-such-route", unbound);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(noRoute("GET", "/api/payments/wechat/no-such-route"));
    for (const [method, path] of emulationRequests) {
      for (const headers of [{}, alice.auth]) {
        const answer = await callWorker(method, path, unbound, headers);
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(answer.headers.get("Content-Type")).toMatch(/^application\/json/);
        expect(await answer.json()).toEqual(noRoute(method, path));
      }
    }
    // Not mounted at all, not merely refusing.
    expect(
      (await createOriginApp({ emulation: simulatorBound(unbound) })).routes.filter((route) => route.path.includes("/simulator")),
    ).toEqual([]);
    // An app that has them, asked in an environment without the simulator, answers the same.
    for (const [method, path] of emulationRequests) {
      const answer = await origin.call(path, {
        method,
        ...(method === "POST" ? { body: { orderId: "ord_00000000-0000-4000-8000-000000000000" } } : {}),
        headers: alice.auth,
        env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined }),
      });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(await answer.json()).toEqual(noRoute(method, path));
    }
  });

  it("the published document never lists a /simulator path, with or without the binding", async () => {
    const pathsOf = async (answer: Response) => {
      expect(answer.status).toBe(200);
      return Object.keys(((await answer.json()) as { paths: Record<string, unknown> }).paths);
    };
    for (const workerEnv of [bound, unbound]) {
      const paths = await pathsOf(await callWorker("GET", openApiPath, workerEnv));
      expect(paths).toContain("/api/payments/wechat/notify");
      expect(paths.filter((path) => path.includes("/simulator"))).toEqual([]);
    }
    for (const emulation of [true, false]) {
      const app = await createOriginApp({ emulation });
      expect(app.routes.some((route) => route.path.includes("/simulator"))).toBe(emulation);
      expect((await pathsOf(await app.request(openApiPath, {}, env))).filter((path) => path.includes("/simulator"))).toEqual([]);
    }
  });
});
