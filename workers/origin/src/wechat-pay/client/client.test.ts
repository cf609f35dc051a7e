import { describe, expect, it } from "vitest";
import { createWechatPayClient } from "./client";
import type { WechatPayConfig } from "./client-config";
import { bytesToBase64, importMerchantPrivateKey, importPublicKeyPem, signSha256WithRsa, verifySha256WithRsa } from "./crypto";
import { wechatDescription } from "./inputs";
import { normalizeErrorCode } from "./outcome";
import { answerSignatureMessage, requestSignatureMessage } from "./signing";
import { formatWechatTime, parseWechatTime } from "./wechat-time";

const pem = (label: string, der: ArrayBuffer) => `-----BEGIN ${label}-----\n${bytesToBase64(new Uint8Array(der))}\n-----END ${label}-----`;

async function keyPair() {
  const pair = (await crypto.subtle.generateKey(
    { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
    true,
    ["sign", "verify"],
  )) as CryptoKeyPair;
  return {
    privatePem: pem("PRIVATE KEY", (await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer),
    publicPem: pem("PUBLIC KEY", (await crypto.subtle.exportKey("spki", pair.publicKey)) as ArrayBuffer),
  };
}

const merchant = await keyPair();
const wechat = await keyPair();
const wechatKeyId = "PUB_KEY_ID_0000000000000000000000000000000042";
const now = Date.parse("2026-11-21T12:00:00Z");

const config: WechatPayConfig = {
  mchid: "1230000109",
  appid: "wxd678efh567hg6787",
  merchantSerial: "ABC123",
  merchantPrivateKeyPem: merchant.privatePem,
  apiV3Key: "0123456789abcdef0123456789abcdef",
  wechatPublicKey: { id: wechatKeyId, pem: wechat.publicPem },
  notifyUrl: "https://paydesk.example/api/payments/wechat/notify",
};

/** A hand-made WeChat Pay answer, signed with the test's WeChat key unless told otherwise. */
async function answer(status: number, body: string, headers: Record<string, string> = {}) {
  const timestamp = String(Math.floor(now / 1000));
  const nonce = "f".repeat(32);
  const signature = await signSha256WithRsa(
    await importMerchantPrivateKey(wechat.privatePem),
    answerSignatureMessage(timestamp, nonce, body),
  );
  return new Response(status === 204 ? null : body, {
    status,
    headers: {
      "Wechatpay-Timestamp": timestamp,
      "Wechatpay-Nonce": nonce,
      "Wechatpay-Signature": signature,
      "Wechatpay-Serial": wechatKeyId,
      "Request-ID": "R1",
      ...headers,
    },
  });
}

describe("requests", () => {
  it("are signed over the path with its query and the exact body, with the headers WeChat Pay requires", async () => {
    const seen: Request[] = [];
    const client = createWechatPayClient(config, {
      now: () => now,
      nonce: () => "N".repeat(32),
      fetch: async (request) => {
        seen.push(request.clone());
        return answer(200, '{"code_url":"weixin://wxpay/bizpayurl?pr=abcdefghi"}');
      },
    });
    await client.queryOrder("P|*_-1234");
    await client.createNativeOrder({ outTradeNo: "P000001", description: "Recharge", amount: 100, expiresAt: now + 30 * 60_000 });
    const [query, create] = seen as [Request, Request];
    expect(query.url).toBe("https://api.mch.weixin.qq.com/v3/pay/transactions/out-trade-no/P%7C*_-1234?mchid=1230000109");
    expect(Object.fromEntries(query.headers)).toMatchObject({
      accept: "application/json",
      "user-agent": expect.any(String),
      "wechatpay-serial": wechatKeyId,
    });
    expect(query.headers.get("content-type")).toBeNull();
    const body = await create.text();
    expect(JSON.parse(body)).toEqual({
      appid: config.appid,
      mchid: config.mchid,
      description: "Recharge",
      out_trade_no: "P000001",
      time_expire: "2026-11-21T20:30:00+08:00",
      notify_url: config.notifyUrl,
      amount: { total: 100, currency: "CNY" },
    });
    const auth = create.headers.get("Authorization") ?? "";
    const seconds = Math.floor(now / 1000);
    expect(auth).toMatch(
      new RegExp(
        `^WECHATPAY2-SHA256-RSA2048 mchid="1230000109",nonce_str="N{32}",timestamp="${seconds}",serial_no="ABC123",signature="[A-Za-z0-9+/=]+"$`,
      ),
    );
    const signature = /signature="([^"]+)"/.exec(auth)?.[1] ?? "";
    const merchantPublic = await importPublicKeyPem(merchant.publicPem);
    expect(
      await verifySha256WithRsa(
        merchantPublic,
        requestSignatureMessage("POST", "/v3/pay/transactions/native", seconds, "N".repeat(32), body),
        signature,
      ),
    ).toBe(true);
  });
});

describe("answers", () => {
  const call = (response: () => Promise<Response> | Response, timeoutMs = 1_000) =>
    createWechatPayClient(config, { now: () => now, fetch: async () => response(), timeoutMs }).queryOrder("P000001");

  it("a verified answer of the wrong shape is unknown, not ok", async () => {
    expect(await call(() => answer(200, '{"unexpected":true}'))).toMatchObject({ outcome: "unknown", reason: "malformed_answer" });
    expect(await call(() => answer(200, "not json"))).toMatchObject({ outcome: "unknown", reason: "malformed_answer" });
  });

  it("a redirect is unknown; a 4xx without a JSON error is failed with its status", async () => {
    expect(await call(() => new Response(null, { status: 302, headers: { Location: "https://elsewhere" } }))).toMatchObject({
      outcome: "unknown",
      reason: "unexpected_status",
    });
    expect(await call(() => new Response("<html>", { status: 400 }))).toMatchObject({
      outcome: "failed",
      code: "HTTP_400",
      retryable: false,
    });
  });

  it("old spellings of error codes are normalised, the raw one kept", async () => {
    expect(await call(() => Response.json({ code: "ORDERNOTEXIST", message: "订单不存在" }, { status: 404 }))).toMatchObject({
      outcome: "failed",
      code: "ORDER_NOT_EXIST",
      rawCode: "ORDERNOTEXIST",
    });
    expect(normalizeErrorCode("SYSTEMERROR")).toBe("SYSTEM_ERROR");
  });

  it("time out while waiting for the answer and while reading its body", async () => {
    expect(await call(() => new Promise<Response>(() => {}), 50)).toEqual({ outcome: "unknown", reason: "timeout", requestId: null });
    const stalled = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) });
    expect(await call(() => new Response(stalled, { status: 200 }), 50)).toEqual({
      outcome: "unknown",
      reason: "timeout",
      requestId: null,
    });
  });
});

describe("configuration", () => {
  it("refuses a short APIv3 key, no WeChat key at all, and a notify URL with a query", () => {
    expect(() => createWechatPayClient({ ...config, apiV3Key: "short" })).toThrow(/32 bytes/);
    expect(() => createWechatPayClient({ ...config, wechatPublicKey: undefined })).toThrow(/public key or platform certificates/);
    expect(() => createWechatPayClient({ ...config, notifyUrl: "https://paydesk.example/notify?x=1" })).toThrow(/notify_url/);
    expect(() => createWechatPayClient({ ...config, notifyUrl: "http://paydesk.example/notify" })).toThrow(/notify_url/);
    expect(() => createWechatPayClient({ ...config, notifyUrl: "http://localhost:5173/notify" })).not.toThrow();
  });
});

describe("helpers", () => {
  it("write WeChat Pay times in UTC+08:00, truncated to the second", () => {
    expect(formatWechatTime(Date.parse("2026-11-21T12:30:00.999Z"))).toBe("2026-11-21T20:30:00+08:00");
    expect(formatWechatTime(Date.parse("2026-12-31T16:00:00Z"))).toBe("2027-01-01T00:00:00+08:00");
    expect(parseWechatTime("2026-11-21T20:30:00+08:00")).toBe(Date.parse("2026-11-21T12:30:00Z"));
    expect(parseWechatTime("2026-11-21 20:30:00")).toBeNull();
  });

  it("make descriptions WeChat Pay accepts", () => {
    expect(wechatDescription("充值 😀 ok")).toBe("充值  ok");
    expect([...wechatDescription("字".repeat(200))]).toHaveLength(127);
    expect(wechatDescription("😀")).toBe("Paydesk");
  });
});
