import { beforeEach, describe, expect, it } from "vitest";
import { bytesToBase64, importMerchantPrivateKey, randomNonce, signSha256WithRsa } from "#origin/wechat-pay/client/crypto";
import { createWechatPayClient } from "#origin/wechat-pay/client/client";
import { docRequestSignature, docSampleMerchantKey } from "#origin/wechat-pay/client/published-vectors";
import { requestSignatureMessage } from "#origin/wechat-pay/client/signing";
import { parseAuthorization } from "../src/request-authentication";
import { importVerifyingKey, verify } from "../src/sim-crypto";
import { testMerchant } from "../src/test-only-keys";
import { control, inMinutes, notifyUrl, outTradeNo, resetSimulator, simulatorBaseUrl, simulatorFetch, testClient } from "./support";

beforeEach(async () => {
  await resetSimulator();
});

type Tweaks = {
  headers?: Record<string, string | null>;
  signedPath?: string;
  signedBody?: string;
  timestamp?: number;
  serial?: string;
  order?: "go" | "php";
};

/** A request signed as the merchant, with a way to get each part wrong. */
async function signed(method: "GET" | "POST", path: string, body = "", tweaks: Tweaks = {}) {
  const key = await importMerchantPrivateKey(testMerchant.privateKeyPem);
  const timestamp = tweaks.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = randomNonce();
  const signature = await signSha256WithRsa(
    key,
    requestSignatureMessage(method, tweaks.signedPath ?? path, timestamp, nonce, tweaks.signedBody ?? body),
  );
  const serial = tweaks.serial ?? testMerchant.serial;
  const authorization =
    tweaks.order === "php"
      ? `WECHATPAY2-SHA256-RSA2048 mchid="${testMerchant.mchid}",serial_no="${serial}",timestamp="${timestamp}",nonce_str="${nonce}",signature="${signature}"`
      : `WECHATPAY2-SHA256-RSA2048 mchid="${testMerchant.mchid}",nonce_str="${nonce}",timestamp="${timestamp}",serial_no="${serial}",signature="${signature}"`;
  const headers: Record<string, string> = {
    Authorization: authorization,
    Accept: "application/json",
    "User-Agent": "simulator-test",
    ...(method === "POST" ? { "Content-Type": "application/json" } : {}),
  };
  for (const [name, value] of Object.entries(tweaks.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const response = await simulatorFetch(new Request(simulatorBaseUrl + path, { method, headers, ...(method === "POST" ? { body } : {}) }));
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as { code?: string; message?: string }) : null,
  };
}

const nativeBody = (overrides: Record<string, unknown> = {}) => ({
  appid: testMerchant.appid,
  mchid: testMerchant.mchid,
  description: "Paydesk recharge",
  out_trade_no: outTradeNo("S"),
  notify_url: notifyUrl(),
  amount: { total: 100, currency: "CNY" },
  ...overrides,
});
const post = (path: string, body: unknown, tweaks: Tweaks = {}) => signed("POST", path, JSON.stringify(body), tweaks);
const queryPath = `/v3/pay/transactions/out-trade-no/NOSUCHORDER?mchid=${testMerchant.mchid}`;

describe("the simulator authenticates requests as WeChat Pay does", () => {
  it("accepts the Authorization fields in any order (the Go and PHP SDKs differ)", async () => {
    expect(await signed("GET", queryPath)).toMatchObject({ status: 404, body: { code: "ORDER_NOT_EXIST" } });
    expect(await signed("GET", queryPath, "", { order: "php" })).toMatchObject({ status: 404, body: { code: "ORDER_NOT_EXIST" } });
    expect(
      parseAuthorization('WECHATPAY2-SHA256-RSA2048 mchid="1",mchid="2",nonce_str="n",timestamp="1",serial_no="s",signature="x"'),
    ).toBeNull();
  });

  it("refuses a signature over another body, path or query (401 SIGN_ERROR)", async () => {
    const body = nativeBody();
    expect(
      await post("/v3/pay/transactions/native", body, { signedBody: JSON.stringify({ ...body, amount: { total: 1, currency: "CNY" } }) }),
    ).toMatchObject({
      status: 401,
      body: { code: "SIGN_ERROR" },
    });
    expect(await signed("GET", queryPath, "", { signedPath: "/v3/pay/transactions/out-trade-no/NOSUCHORDER" })).toMatchObject({
      status: 401,
      body: { code: "SIGN_ERROR" },
    });
    expect(await signed("GET", queryPath, "", { signedPath: queryPath.replace("NOSUCH", "OTHER") })).toMatchObject({ status: 401 });
  });

  it("refuses timestamps more than five minutes off, milliseconds, and unknown serials", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await signed("GET", queryPath, "", { timestamp: now - 301 })).toMatchObject({
      status: 401,
      body: { code: "SIGN_ERROR", message: "Http头Authorization中的timestamp与发起请求的时间不得超过5分钟" },
    });
    // The simulator's clock only moves on between here and its check: a timestamp in the past stays past the
    // line, one in the future drifts back towards it (a slow machine once spent a second, and 301 became 300).
    expect(await signed("GET", queryPath, "", { timestamp: Math.floor(Date.now() / 1000) + 330 })).toMatchObject({ status: 401 });
    expect(await signed("GET", queryPath, "", { timestamp: now * 1000 })).toMatchObject({ status: 401 });
    expect(await signed("GET", queryPath, "", { serial: "0000000000000000000000000000000000000000" })).toMatchObject({
      status: 401,
      body: { code: "SIGN_ERROR" },
    });
  });

  it("requires Accept, User-Agent and a JSON Content-Type on POST (400 INVALID_REQUEST)", async () => {
    expect(await signed("GET", queryPath, "", { headers: { "User-Agent": null } })).toMatchObject({
      status: 400,
      body: { code: "INVALID_REQUEST" },
    });
    expect(await signed("GET", queryPath, "", { headers: { Accept: null } })).toMatchObject({
      status: 400,
      body: { code: "INVALID_REQUEST" },
    });
    expect(await signed("GET", queryPath, "", { headers: { Accept: "*/*" } })).toMatchObject({ status: 404 });
    expect(await post("/v3/pay/transactions/native", nativeBody(), { headers: { "Content-Type": "text/plain" } })).toMatchObject({
      status: 400,
      body: { code: "INVALID_REQUEST" },
    });
  });

  it("signs business answers, errors included, but not authentication failures", async () => {
    const refused = await signed("GET", queryPath);
    expect(refused.headers.get("Wechatpay-Signature")).toBeTruthy();
    expect(refused.headers.get("Request-ID")).toMatch(/^[0-9A-F]{32}$/);
    const unauthenticated = await signed("GET", queryPath, "", { timestamp: 1 });
    expect(unauthenticated.headers.get("Wechatpay-Signature")).toBeNull();
  });
});

describe("the simulator validates bodies as WeChat Pay does (400 PARAM_ERROR)", () => {
  const refusedWith = async (body: unknown, code = "PARAM_ERROR", path = "/v3/pay/transactions/native") =>
    expect(await post(path, body), JSON.stringify(body)).toMatchObject({ status: 400, body: { code } });

  it("unknown fields, nulls, 4-byte UTF-8, bad numbers, lengths and patterns", async () => {
    await refusedWith(nativeBody({ unknown_field: 1 }));
    await refusedWith(nativeBody({ attach: null }));
    await refusedWith(nativeBody({ description: "充值😀" }));
    await refusedWith(nativeBody({ description: "x".repeat(128) }));
    await refusedWith(nativeBody({ out_trade_no: "12345" }));
    await refusedWith(nativeBody({ out_trade_no: "ORDER#12345" }));
    await refusedWith(nativeBody({ amount: { total: 0 } }));
    await refusedWith(nativeBody({ amount: { total: 1.5 } }));
    await refusedWith(nativeBody({ amount: { total: 100, currency: "USD" } }));
    await refusedWith(nativeBody({ amount: { total: "100" } }));
  });

  it("notify_url must be https without a query; time_expire RFC 3339 and in the future", async () => {
    await refusedWith(nativeBody({ notify_url: "https://merchant.test/notify?order=1" }));
    await refusedWith(nativeBody({ notify_url: "http://merchant.test/notify" }));
    await refusedWith(nativeBody({ time_expire: "2030-11-21 20:30:00" }));
    await refusedWith(nativeBody({ time_expire: "2030-11-21T20:30:00" }));
    await refusedWith(nativeBody({ time_expire: "2020-11-21T20:30:00+08:00" }));
    expect(await post("/v3/pay/transactions/native", nativeBody({ time_expire: "2030-11-21T20:30:00+08:00" }))).toMatchObject({
      status: 200,
    });
  });

  it("per flow: H5 needs scene_info.h5_info.type and payer_client_ip, JSAPI needs payer.openid", async () => {
    await refusedWith(
      nativeBody({ scene_info: { payer_client_ip: "203.0.113.7", h5_info: {} } }),
      "PARAM_ERROR",
      "/v3/pay/transactions/h5",
    );
    await refusedWith(nativeBody({ scene_info: { h5_info: { type: "Wap" } } }), "PARAM_ERROR", "/v3/pay/transactions/h5");
    await refusedWith(nativeBody(), "PARAM_ERROR", "/v3/pay/transactions/jsapi");
    expect(await post("/v3/pay/transactions/jsapi", nativeBody({ payer: { openid: "o1" } }))).toMatchObject({
      status: 200,
      body: { prepay_id: expect.stringMatching(/^wx/) },
    });
  });

  it("the merchant in the body must be the one who signed, and own the appid", async () => {
    await refusedWith(nativeBody({ mchid: "1900000999" }), "INVALID_REQUEST");
    await refusedWith(nativeBody({ appid: "wx0000000000000000" }), "APPID_MCHID_NOT_MATCH");
    expect(await signed("GET", "/v3/pay/transactions/out-trade-no/NOSUCHORDER")).toMatchObject({
      status: 400,
      body: { code: "PARAM_ERROR" },
    });
  });
});

describe("the simulator's own cryptography", () => {
  it("verifies the documentation's request signature with the sample key's public half", async () => {
    const privateKey = await crypto.subtle.importKey(
      "pkcs8",
      pkcs8Of(docSampleMerchantKey),
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      true,
      ["sign"],
    );
    const { n, e } = (await crypto.subtle.exportKey("jwk", privateKey)) as JsonWebKey;
    const publicKey = await crypto.subtle.importKey(
      "jwk",
      { kty: "RSA", n, e, alg: "RS256", ext: true },
      { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
      true,
      ["verify"],
    );
    const spki = new Uint8Array((await crypto.subtle.exportKey("spki", publicKey)) as ArrayBuffer);
    const key = await importVerifyingKey(`-----BEGIN PUBLIC KEY-----\n${bytesToBase64(spki)}\n-----END PUBLIC KEY-----`);
    const v = docRequestSignature;
    const message = `${v.method}\n${v.path}\n${v.timestamp}\n${v.nonce}\n${v.body}\n`;
    expect(await verify(key, message, v.signature)).toBe(true);
    expect(await verify(key, message.replace("1554208460", "1554208461"), v.signature)).toBe(false);
    expect(await verify(key, message, "WECHATPAY/SIGNTEST/xyz")).toBe(false);
  });
});

describe("control endpoints", () => {
  it("scan and pay: unknown orders and second payments are refused", async () => {
    expect(await control("/orders/NOSUCHORDER/pay", {})).toEqual({ status: 404, data: { error: "ORDER_NOT_EXIST" } });
    const { client } = testClient();
    const input = { outTradeNo: outTradeNo("S"), description: "Paydesk recharge", amount: 100, expiresAt: inMinutes(30) };
    await client.createNativeOrder(input);
    expect((await control(`/orders/${input.outTradeNo}/pay`, {})).status).toBe(200);
    expect(await control(`/orders/${input.outTradeNo}/pay`, {})).toEqual({ status: 409, data: { error: "ORDER_SUCCESS" } });
    expect(await control(`/orders/${input.outTradeNo}`)).toMatchObject({ status: 200, data: { transaction: { trade_state: "SUCCESS" } } });
  });

  it("merchant-config hands local emulation a configuration the client works with", async () => {
    const { data } = await control<Record<string, unknown>>("/merchant-config");
    const client = createWechatPayClient(
      { ...(data as object), notifyUrl: "http://localhost:5173/api/payments/wechat/notify", baseUrl: simulatorBaseUrl } as Parameters<
        typeof createWechatPayClient
      >[0],
      { fetch: simulatorFetch },
    );
    expect(
      (
        await client.createNativeOrder({
          outTradeNo: outTradeNo("S"),
          description: "Paydesk recharge",
          amount: 100,
          expiresAt: inMinutes(30),
        })
      ).outcome,
    ).toBe("ok");
  });

  it("a cashier page stands in for the H5 link", async () => {
    const { client } = testClient();
    const created = await client.createH5Order({
      outTradeNo: outTradeNo("S"),
      description: "Paydesk <recharge>",
      amount: 100,
      expiresAt: inMinutes(30),
      payerClientIp: "203.0.113.7",
    });
    if (created.outcome !== "ok") throw new Error("not created");
    const prepayId = new URL(created.data.h5Url).searchParams.get("prepay_id");
    const page = await simulatorFetch(new Request(`${simulatorBaseUrl}/__simulator/checkmweb?prepay_id=${prepayId}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Paydesk &lt;recharge&gt;");
  });
});

function pkcs8Of(pem: string): Uint8Array<ArrayBuffer> {
  const base64 = pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}
