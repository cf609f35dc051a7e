import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { WechatPayConfigAnswer } from "#contract/payments";
import { testMerchant } from "#wechatpay-simulator/test-only-keys";
import { key, wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import { wechatTestEnv, type WechatOrigin } from "../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
});

const { rechargeOrder, payRequest } = wechatRequests(() => ({ origin, alice }));

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
    expect(await production.json()).toEqual({
      code: "SUCCESS",
      data: { configured: true, flows: ["native", "h5"], jsapiAppId: null, simulator: false },
    });

    // JSAPI listed without the official account's AppSecret: no sign-in could give a payer's openid.
    const noSecret = await origin.call("/api/payments/wechat/config", {
      method: "GET",
      env: wechatTestEnv({ WECHATPAY_SIMULATOR: undefined, WECHATPAY_APP_SECRET: undefined }),
    });
    expect(await noSecret.json()).toMatchObject({ data: { flows: ["native", "h5"], jsapiAppId: null } });
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
      body: { method: "wechat", flow: "jsapi" },
      headers: { ...alice.auth, "Idempotency-Key": key() },
      env: wechatTestEnv({ WECHATPAY_FLOWS: "native" }),
    });
    expect(jsapi.status).toBe(422);
    expect(await jsapi.json()).toMatchObject({ code: "WECHAT_PAY_FLOW_NOT_AVAILABLE", field: "flow" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM payment").first("n")).toBe(0);
  });

  it("validates the pay body: a flow for WeChat Pay, no openid a client names (decision 073), nothing unknown", async () => {
    const order = await rechargeOrder();
    for (const [body, field] of [
      [{ method: "wechat" }, "flow"],
      [{ method: "wechat", flow: "app" }, "flow"],
      [{ method: "wechat", flow: "jsapi", openid: "oPayer123" }, "openid"],
      [{ method: "wechat", flow: "native", openid: "x" }, "openid"],
      [{ method: "card" }, "method"],
    ] as const) {
      const response = await payRequest(order.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
    }
  });
});
