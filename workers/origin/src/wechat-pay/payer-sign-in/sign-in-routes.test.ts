/**
 * WeChat's sign-in for JSAPI (docs/decisions/073-wechat-payer-sign-in.md), against the
 * simulator's web authorization: the state is the starter's, good once and for ten minutes;
 * WeChat's code is swapped for the openid JSAPI pays with; a refused or unclear exchange
 * keeps nothing, and no client names an openid.
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { testMerchant } from "#wechatpay-simulator/test-only-keys";
import { emulatedOpenid } from "#wechatpay-simulator/web-authorization";
import { key, pageOrigin, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { control, wechatTestEnv, type WechatOrigin } from "../../../test/wechat-support";
import { signInLifetimeMs } from "./sign-in-routes";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
});

const { rechargeOrder, payRequest, signInWithWechat } = wechatRequests(() => ({ origin, alice }));

async function start(
  orderId: string,
  { user = alice, from = pageOrigin, envOverrides }: { user?: SceneUser; from?: string; envOverrides?: Partial<Env> } = {},
) {
  return origin.call("/api/payments/wechat/sign-in", {
    body: { orderId },
    headers: { ...user.auth, Origin: from },
    ...(envOverrides ? { env: wechatTestEnv(envOverrides) } : {}),
  });
}

/** Started, then WeChat's stand-in page: where it sends the browser back. */
async function throughWechat(orderId: string, user = alice): Promise<{ url: URL; code: string; state: string }> {
  const started = await start(orderId, { user });
  expect(started.status).toBe(200);
  const { url } = ((await started.json()) as { data: { url: string } }).data;
  const back = await origin.call(url.slice(pageOrigin.length), { method: "GET" });
  expect(back.status).toBe(302);
  const returned = new URL(back.headers.get("Location")!);
  return { url: returned, code: returned.searchParams.get("code")!, state: returned.searchParams.get("state")! };
}

function complete(body: Record<string, unknown>, user = alice) {
  return origin.call("/api/payments/wechat/sign-in/complete", { body, headers: { ...user.auth, Origin: pageOrigin } });
}

const payerRow = (userId: string) => env.DB.prepare("SELECT appid, openid FROM wechat_payer WHERE user_id = ?1").bind(userId).first();

describe("WeChat's sign-in for JSAPI", () => {
  it("sends the page to WeChat's authorize page, comes back to the order with a code, and pays JSAPI with the openid WeChat gave", async () => {
    const order = await rechargeOrder(1_800);
    // Before the sign-in, JSAPI is refused, and nothing is recorded against the key.
    const idempotencyKey = key();
    const before = await payRequest(order.id, { method: "wechat", flow: "jsapi" }, { idempotencyKey });
    expect(before.status).toBe(409);
    expect(await before.json()).toMatchObject({ code: "WECHAT_SIGN_IN_NEEDED", field: "flow" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM payment").first("n")).toBe(0);

    const signedIn = async () => {
      const answer = await origin.call("/api/payments/wechat/sign-in", { method: "GET", headers: alice.auth });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: { signedIn: boolean } }).data.signedIn;
    };
    expect(await signedIn()).toBe(false);

    const started = await start(order.id);
    const { url } = ((await started.json()) as { data: { url: string } }).data;
    const authorize = new URL(url);
    expect(authorize.origin + authorize.pathname).toBe(`${pageOrigin}/api/payments/wechat/simulator/connect/oauth2/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      appid: testMerchant.appid,
      redirect_uri: `${pageOrigin}/wechat_pay?order=${order.id}`,
      response_type: "code",
      scope: "snsapi_base",
      state: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Outside emulation, WeChat's own page, with its closing fragment.
    const production = await start(order.id, { envOverrides: { WECHATPAY_SIMULATOR: undefined } });
    const productionUrl = ((await production.json()) as { data: { url: string } }).data.url;
    expect(productionUrl).toMatch(
      /^https:\/\/open\.weixin\.qq\.com\/connect\/oauth2\/authorize\?appid=wxd678efh567hg6787&redirect_uri=http%3A%2F%2Flocalhost%3A5173%2Fwechat_pay%3Forder%3Dord_[\w-]+&response_type=code&scope=snsapi_base&state=[0-9a-f]{64}#wechat_redirect$/,
    );

    const back = await origin.call(url.slice(pageOrigin.length), { method: "GET" });
    const returned = new URL(back.headers.get("Location")!);
    expect(returned.origin + returned.pathname).toBe(`${pageOrigin}/wechat_pay`);
    expect(returned.searchParams.get("order")).toBe(order.id);
    expect(returned.searchParams.get("state")).toBe(authorize.searchParams.get("state"));
    const completed = await complete({ code: returned.searchParams.get("code"), state: returned.searchParams.get("state") });
    expect(completed.status).toBe(200);
    expect(await completed.json()).toEqual({ code: "SUCCESS", data: { signedIn: true } });
    expect(await payerRow(alice.id)).toEqual({ appid: testMerchant.appid, openid: await emulatedOpenid(testMerchant.appid) });
    expect(await signedIn()).toBe(true);

    // The same key, refused before, now starts the payment; WeChat Pay is asked with WeChat's openid.
    const paid = await payRequest(order.id, { method: "wechat", flow: "jsapi" }, { idempotencyKey });
    expect(paid.status).toBe(201);
    const { outTradeNo } = ((await paid.json()) as { data: { outTradeNo: string } }).data;
    const openid = await emulatedOpenid(testMerchant.appid);
    expect(await env.DB.prepare("SELECT flow, openid FROM payment WHERE out_trade_no = ?1").bind(outTradeNo).first()).toEqual({
      flow: "jsapi",
      openid,
    });
    const atWechat = await control<{ order: { fingerprint: string } }>(`/orders/${outTradeNo}`);
    expect(atWechat.data.order.fingerprint).toContain(`"payer":{"openid":"${openid}"}`);
  });

  it("takes a state once, only from whoever started it, for ten minutes; a code WeChat refuses keeps nothing", async () => {
    const order = await rechargeOrder();
    const first = await throughWechat(order.id);
    // Bob holds alice's state and code: not his sign-in, and alice's stays hers.
    const stolen = await complete({ code: first.code, state: first.state }, bob);
    expect(stolen.status).toBe(422);
    expect(await stolen.json()).toMatchObject({ code: "WECHAT_SIGN_IN_EXPIRED" });
    expect((await complete({ code: first.code, state: first.state })).status).toBe(200);
    // A reload of the returned page sends them again: the state is used.
    const reloaded = await complete({ code: first.code, state: first.state });
    expect(reloaded.status).toBe(422);
    expect(await reloaded.json()).toMatchObject({ code: "WECHAT_SIGN_IN_EXPIRED" });

    // WeChat refuses a code used already (40163): a fresh state with it keeps nothing new.
    await env.DB.prepare("DELETE FROM wechat_payer").run();
    const second = await throughWechat(order.id);
    const reused = await complete({ code: first.code, state: second.state });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: "WECHAT_SIGN_IN_EXPIRED" });
    expect(await payerRow(alice.id)).toBeNull();
    // And the state went with that try.
    expect((await complete({ code: second.code, state: second.state })).status).toBe(422);

    // A code WeChat does not know (40029) with a fresh state: refused, and the state went with it.
    const unknown = await throughWechat(order.id);
    const invalid = await complete({ code: "unknowncode", state: unknown.state });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ code: "WECHAT_SIGN_IN_EXPIRED" });
    expect((await complete({ code: unknown.code, state: unknown.state })).status).toBe(422);
    expect(await payerRow(alice.id)).toBeNull();

    // A state started more than ten minutes ago is gone, even with a code WeChat has just given.
    const started = await start(order.id);
    const { url } = ((await started.json()) as { data: { url: string } }).data;
    await origin.advance(signInLifetimeMs + 1);
    const back = new URL((await origin.call(url.slice(pageOrigin.length), { method: "GET" })).headers.get("Location")!);
    const tooLate = await complete({ code: back.searchParams.get("code"), state: back.searchParams.get("state") });
    expect(tooLate.status).toBe(422);
    expect(await payerRow(alice.id)).toBeNull();
  });

  it("keeps nothing from a page WeChat opened as a snapshot, whose openid is a stand-in", async () => {
    await signInWithWechat(alice);
    expect((await control("/web-authorization", { snapshotPages: true })).status).toBe(200);
    const order = await rechargeOrder();
    const returned = await throughWechat(order.id);
    const snapshot = await complete({ code: returned.code, state: returned.state });
    expect(snapshot.status).toBe(422);
    expect(await snapshot.json()).toMatchObject({ code: "WECHAT_SIGN_IN_EXPIRED" });
    expect(await payerRow(alice.id)).toEqual({ appid: testMerchant.appid, openid: await emulatedOpenid(testMerchant.appid) });
  });

  it("keeps the state when WeChat does not answer clearly (busy, or a gateway's 5xx), so the same return may try again", async () => {
    const order = await rechargeOrder();
    const returned = await throughWechat(order.id);
    for (const status of [500, 503]) {
      // 500: WeChat's own "busy", HTTP 200 with errcode -1; 503: a bare gateway answer.
      expect((await control("/faults", { kind: "status", status, path: "/sns/oauth2/access_token", method: "GET" })).status).toBe(200);
      const unclear = await complete({ code: returned.code, state: returned.state });
      expect(unclear.status).toBe(503);
      expect(await unclear.json()).toMatchObject({ code: "WECHAT_PAY_UNAVAILABLE" });
      expect(await payerRow(alice.id)).toBeNull();
    }
    expect((await complete({ code: returned.code, state: returned.state })).status).toBe(200);
    expect(await payerRow(alice.id)).toMatchObject({ openid: await emulatedOpenid(testMerchant.appid) });
  });

  it("answers a wrong AppSecret as unclear (reported), never as the person's fault", async () => {
    const order = await rechargeOrder();
    const returned = await throughWechat(order.id);
    const response = await origin.call("/api/payments/wechat/sign-in/complete", {
      body: { code: returned.code, state: returned.state },
      headers: { ...alice.auth, Origin: pageOrigin },
      env: wechatTestEnv({ WECHATPAY_APP_SECRET: "TESTONLYwrongsecret0123456789abc" }),
    });
    expect(response.status).toBe(503);
    expect(await payerRow(alice.id)).toBeNull();
    // Once the secret is mended, the same return goes through.
    expect((await complete({ code: returned.code, state: returned.state })).status).toBe(200);
  });

  it("refuses another site's page, someone else's order, a deploy without JSAPI, and malformed returns", async () => {
    const order = await rechargeOrder();
    const foreign = await start(order.id, { from: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ code: "FORBIDDEN" });
    const bobs = await rechargeOrder(1_000, bob);
    const notHers = await start(bobs.id);
    expect(notHers.status).toBe(404);
    const noSecret = await start(order.id, { envOverrides: { WECHATPAY_APP_SECRET: undefined } });
    expect(noSecret.status).toBe(422);
    expect(await noSecret.json()).toMatchObject({ code: "WECHAT_PAY_FLOW_NOT_AVAILABLE" });
    const noSecretStatus = await origin.call("/api/payments/wechat/sign-in", {
      method: "GET",
      headers: alice.auth,
      env: wechatTestEnv({ WECHATPAY_APP_SECRET: undefined }),
    });
    expect(noSecretStatus.status).toBe(422);
    const notConfigured = await origin.call("/api/payments/wechat/sign-in", {
      body: { orderId: order.id },
      headers: { ...alice.auth, Origin: pageOrigin },
      env,
    });
    expect(notConfigured.status).toBe(422);
    expect(await notConfigured.json()).toMatchObject({ code: "WECHAT_PAY_NOT_CONFIGURED" });
    for (const [body, field] of [
      [{ code: "abc" }, "state"],
      [{ code: "abc", state: "ABC" }, "state"],
      [{ code: "a b", state: "0".repeat(64) }, "code"],
      [{ code: "a".repeat(129), state: "0".repeat(64) }, "code"],
      [{ code: "abc", state: "0".repeat(64), openid: "oMine" }, "openid"],
    ] as const) {
      const response = await complete(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM wechat_sign_in").first("n")).toBe(0);
    expect(
      (await origin.call("/api/payments/wechat/sign-in", { body: { orderId: order.id }, headers: { Origin: pageOrigin } })).status,
    ).toBe(401);
  });

  it("the emulated authorize page returns only to a loopback page", async () => {
    const order = await rechargeOrder();
    const started = await start(order.id);
    const url = new URL(((await started.json()) as { data: { url: string } }).data.url);
    url.searchParams.set("redirect_uri", "https://evil.example/wechat_pay");
    const refused = await origin.call(url.pathname + url.search, { method: "GET" });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Location")).toBeNull();
  });

  it("a later sign-in replaces the openid (another WeChat account), and two people may share one", async () => {
    await signInWithWechat(alice);
    await signInWithWechat(bob);
    expect((await payerRow(alice.id))?.openid).toBe((await payerRow(bob.id))?.openid);
    await env.DB.prepare("UPDATE wechat_payer SET openid = 'oOldWechatAccount' WHERE user_id = ?1").bind(alice.id).run();
    await signInWithWechat(alice);
    expect((await payerRow(alice.id))?.openid).toBe(await emulatedOpenid(testMerchant.appid));
  });

  it("a locked account may ask whether it is signed in, but starts and finishes no sign-in (403 ACCOUNT_LOCKED)", async () => {
    const order = await rechargeOrder();
    const returned = await throughWechat(order.id);
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), alice.id).run();
    expect((await origin.call("/api/payments/wechat/sign-in", { method: "GET", headers: alice.auth })).status).toBe(200);
    for (const refused of [await start(order.id), await complete({ code: returned.code, state: returned.state })]) {
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
    }
    expect(await payerRow(alice.id)).toBeNull();
  });
});
