import { describe, expect, it } from "vitest";
import {
  aeadAesGcmDecrypt,
  base64ToBytes,
  bytesToBase64,
  importMerchantPrivateKey,
  importPublicKeyPem,
  randomNonce,
  signSha256WithRsa,
  verifySha256WithRsa,
} from "./crypto";
import { docAnswerSignature, docNotificationResource, docPaySign, docRequestSignature, docSampleMerchantKey } from "./published-vectors";
import { answerSignatureMessage, authorizationHeader, paySignMessage, requestSignatureMessage } from "./signing";
import { verifyWechatSignature } from "./verify";
import { createKeyRing } from "./key-ring";

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${bytesToBase64(new Uint8Array(der)).replace(/.{64}/g, "$&\n")}\n-----END ${label}-----\n`;

async function generatedKeyPair() {
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

describe("the published vectors", () => {
  it("signs the documentation's request exactly", async () => {
    const v = docRequestSignature;
    const key = await importMerchantPrivateKey(docSampleMerchantKey);
    expect(await signSha256WithRsa(key, requestSignatureMessage(v.method, v.path, v.timestamp, v.nonce, v.body))).toBe(v.signature);
  });

  it("computes the documentation's JSAPI paySign exactly", async () => {
    const v = docPaySign;
    const key = await importMerchantPrivateKey(docSampleMerchantKey);
    expect(await signSha256WithRsa(key, paySignMessage(v.appId, v.timeStamp, v.nonceStr, v.package))).toBe(v.paySign);
  });

  it("verifies the documentation's answer signed with a WeChat Pay public key", async () => {
    const v = docAnswerSignature;
    const keys = createKeyRing({ publicKey: { id: v.serial, pem: v.publicKeyPem } }, { now: () => 0 });
    const headers = {
      "Wechatpay-Timestamp": v.timestamp,
      "Wechatpay-Nonce": v.nonce,
      "Wechatpay-Signature": v.signature,
      "Wechatpay-Serial": v.serial,
    };
    const now = () => Number(v.timestamp) * 1000 + 10_000;
    expect(await verifyWechatSignature(headers, v.body, { keys, now })).toEqual({ ok: true, serial: v.serial });
  });

  it("opens the documentation's notification resource", async () => {
    const v = docNotificationResource;
    const plaintext = await aeadAesGcmDecrypt({
      key: v.apiV3Key,
      nonce: v.nonce,
      associatedData: v.associatedData,
      ciphertext: v.ciphertext,
    });
    expect(JSON.parse(plaintext ?? "null")).toMatchObject({
      transaction_id: v.transactionId,
      trade_state: "SUCCESS",
      amount: { total: 100 },
    });
  });
});

describe("verifying answers and notifications", () => {
  const v = docAnswerSignature;
  const keys = createKeyRing({ publicKey: { id: v.serial, pem: v.publicKeyPem } }, { now: () => 0 });
  const signedAt = Number(v.timestamp) * 1000;
  const good = {
    "Wechatpay-Timestamp": v.timestamp,
    "Wechatpay-Nonce": v.nonce,
    "Wechatpay-Signature": v.signature,
    "Wechatpay-Serial": v.serial,
  };
  const verify = (headers: Record<string, string>, body = v.body, now = signedAt) =>
    verifyWechatSignature(headers, body, { keys, now: () => now });

  it("refuses a tampered body, even by one space", async () => {
    expect(await verify(good, v.body.replace('{"', '{ "'))).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verify(good, `${v.body}\n`)).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verify(good, JSON.stringify(JSON.parse(v.body), null, 1))).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses another nonce or timestamp than the one signed", async () => {
    expect(await verify({ ...good, "Wechatpay-Nonce": v.nonce.toUpperCase() })).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verify({ ...good, "Wechatpay-Timestamp": String(Number(v.timestamp) + 1) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("refuses timestamps five minutes or more away from our clock, either side", async () => {
    expect((await verify(good, v.body, signedAt + 299_000)).ok).toBe(true);
    expect((await verify(good, v.body, signedAt - 299_000)).ok).toBe(true);
    expect(await verify(good, v.body, signedAt + 300_000)).toEqual({ ok: false, reason: "stale_timestamp" });
    expect(await verify(good, v.body, signedAt - 300_000)).toEqual({ ok: false, reason: "stale_timestamp" });
    // Milliseconds instead of seconds (a pitfall the SDK issues show) never pass.
    expect(await verify({ ...good, "Wechatpay-Timestamp": `${v.timestamp}000` }, v.body)).toEqual({ ok: false, reason: "bad_timestamp" });
    expect(await verify({ ...good, "Wechatpay-Timestamp": "17228504.21" })).toEqual({ ok: false, reason: "bad_timestamp" });
  });

  it("refuses an unknown serial and a serial that names another key", async () => {
    expect(await verify({ ...good, "Wechatpay-Serial": "PUB_KEY_ID_0000000000000000000000000000000000" })).toEqual({
      ok: false,
      reason: "unknown_serial",
    });
    expect(await verify({ ...good, "Wechatpay-Serial": "5157F09EFDC096DE15EBE81A47057A7232F1B8E1" })).toEqual({
      ok: false,
      reason: "unknown_serial",
    });
  });

  it("refuses probe signatures without crashing, valid base64 or not", async () => {
    for (const signature of ["WECHATPAY/SIGNTEST/", "WECHATPAY/SIGNTEST/abc==", `WECHATPAY/SIGNTEST/${v.signature}`]) {
      expect(await verify({ ...good, "Wechatpay-Signature": signature })).toEqual({ ok: false, reason: "probe_signature" });
    }
    expect(await verify({ ...good, "Wechatpay-Signature": "not base64 at all" })).toEqual({ ok: false, reason: "bad_signature" });
    expect(await verify({ ...good, "Wechatpay-Signature": "AAAA" })).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("refuses missing headers and another signature type, reading headers case-insensitively", async () => {
    const { "Wechatpay-Nonce": _nonce, ...withoutNonce } = good;
    expect(await verify(withoutNonce)).toEqual({ ok: false, reason: "missing_headers" });
    expect(await verify({ ...good, "Wechatpay-Signature-Type": "WECHATPAY2-SM2-WITH-SM3" })).toEqual({
      ok: false,
      reason: "unsupported_signature_type",
    });
    const lower = Object.fromEntries(Object.entries(good).map(([k, value]) => [k.toLowerCase(), value]));
    expect((await verifyWechatSignature(new Headers(lower), v.body, { keys, now: () => signedAt })).ok).toBe(true);
  });
});

describe("generated keys", () => {
  it("sign and verify round trips, and the Authorization header carries the five fields", async () => {
    const { privatePem, publicPem } = await generatedKeyPair();
    const message = requestSignatureMessage(
      "GET",
      "/v3/pay/transactions/out-trade-no/P1234567?mchid=1230000109",
      1_700_000_000,
      "n".repeat(32),
      "",
    );
    expect(message).toBe(
      "GET\n/v3/pay/transactions/out-trade-no/P1234567?mchid=1230000109\n1700000000\nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn\n\n",
    );
    const signature = await signSha256WithRsa(await importMerchantPrivateKey(privatePem), message);
    const publicKey = await importPublicKeyPem(publicPem);
    expect(await verifySha256WithRsa(publicKey, message, signature)).toBe(true);
    expect(await verifySha256WithRsa(publicKey, message.replace("GET", "POST"), signature)).toBe(false);
    expect(authorizationHeader({ mchid: "1230000109", nonce: "n", timestamp: 1, serial: "ABC", signature: "c2ln" })).toBe(
      'WECHATPAY2-SHA256-RSA2048 mchid="1230000109",nonce_str="n",timestamp="1",serial_no="ABC",signature="c2ln"',
    );
  });

  it("an answer's signed string is three lines, an empty body leaving an empty last line", () => {
    expect(answerSignatureMessage("1", "n", "")).toBe("1\nn\n\n");
  });

  it("refuses a PKCS#1 merchant key with advice instead of an opaque WebCrypto error", async () => {
    await expect(importMerchantPrivateKey("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----")).rejects.toThrow(
      /PKCS#8/,
    );
  });

  it("accepts PEMs whose line breaks were written as \\n in an environment variable", async () => {
    const { privatePem } = await generatedKeyPair();
    await expect(importMerchantPrivateKey(privatePem.replaceAll("\n", "\\n"))).resolves.toBeTruthy();
  });
});

describe("AEAD_AES_256_GCM", () => {
  const v = docNotificationResource;
  const open = (changes: Partial<{ key: string; nonce: string; associatedData: string; ciphertext: string }>) =>
    aeadAesGcmDecrypt({ key: v.apiV3Key, nonce: v.nonce, associatedData: v.associatedData, ciphertext: v.ciphertext, ...changes });

  it("fails closed on a wrong key, nonce, associated data, tampered or truncated ciphertext, or bad base64", async () => {
    expect(await open({ key: "5YI2YwEdV56hCsNEoOGEeL17vRFcz3i7" })).toBeNull();
    expect(await open({ nonce: "katvtHDDPxkW" })).toBeNull();
    expect(await open({ associatedData: "refund" })).toBeNull();
    const sealed = base64ToBytes(v.ciphertext) ?? new Uint8Array(0);
    expect(sealed.length).toBeGreaterThan(40);
    sealed[10] = (sealed[10] ?? 0) ^ 1;
    expect(await open({ ciphertext: bytesToBase64(sealed) })).toBeNull();
    expect(await open({ ciphertext: bytesToBase64((base64ToBytes(v.ciphertext) ?? new Uint8Array(0)).subarray(0, 40)) })).toBeNull();
    expect(await open({ ciphertext: "not base64!" })).toBeNull();
    expect(await open({ key: "short" })).toBeNull();
  });
});

describe("random strings", () => {
  it("are 32 characters of [0-9A-Za-z] and differ", () => {
    const nonces = new Set(Array.from({ length: 50 }, () => randomNonce()));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(randomNonce(12)).toHaveLength(12);
  });
});
