/**
 * Verifying a signed answer or notification from WeChat Pay: the `Wechatpay-*` headers,
 * a timestamp within five minutes, then SHA256-with-RSA over `timestamp\nnonce\nbody\n`
 * with the key `Wechatpay-Serial` names (wechatpay-go `core/auth/validators/wechat_pay_validator.go`).
 */
import { verifySha256WithRsa } from "./crypto";
import { answerSignatureMessage, signatureType } from "./signing";
import type { KeyRing } from "./key-ring";

export type VerificationFailure =
  | "missing_headers"
  | "unsupported_signature_type"
  | "bad_timestamp"
  | "stale_timestamp"
  | "probe_signature"
  | "unknown_serial"
  | "unusable_key"
  | "bad_signature";

export type Verification = { ok: true; serial: string } | { ok: false; reason: VerificationFailure };

/**
 * Seconds either side of our clock a signature may be dated. wechatpay-go and wechatpay-java
 * refuse a difference of 300 s or more; wechatpay-php refuses only more than 300 s.
 */
const maxClockSkewSeconds = 300;

/**
 * WeChat Pay sends a few deliberately wrong signatures to check that merchants verify
 * (pay.weixin.qq.com community, "回调签名验证失败排查指引", case 4); they start with this
 * prefix and are refused here before any key lookup, so a probe cannot trigger a download.
 */
const probeSignaturePrefix = "WECHATPAY/SIGNTEST/";

export type HeaderSource = Headers | Record<string, string | undefined>;

function header(headers: HeaderSource, name: string): string {
  if (headers instanceof Headers) return (headers.get(name) ?? "").trim();
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return (value ?? "").trim();
  return "";
}

export async function verifyWechatSignature(
  headers: HeaderSource,
  rawBody: string,
  { keys, now }: { keys: Pick<KeyRing, "keyFor">; now: () => number },
): Promise<Verification> {
  const timestamp = header(headers, "Wechatpay-Timestamp");
  const nonce = header(headers, "Wechatpay-Nonce");
  const signature = header(headers, "Wechatpay-Signature");
  const serial = header(headers, "Wechatpay-Serial");
  const type = header(headers, "Wechatpay-Signature-Type");
  if (!timestamp || !nonce || !signature || !serial) return { ok: false, reason: "missing_headers" };
  if (type && type !== signatureType) return { ok: false, reason: "unsupported_signature_type" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "bad_timestamp" };
  if (Math.abs(Math.floor(now() / 1000) - Number(timestamp)) >= maxClockSkewSeconds) return { ok: false, reason: "stale_timestamp" };
  if (signature.startsWith(probeSignaturePrefix)) return { ok: false, reason: "probe_signature" };
  let key: CryptoKey | null;
  try {
    key = await keys.keyFor(serial);
  } catch {
    return { ok: false, reason: "unusable_key" };
  }
  if (!key) return { ok: false, reason: "unknown_serial" };
  const valid = await verifySha256WithRsa(key, answerSignatureMessage(timestamp, nonce, rawBody), signature);
  return valid ? { ok: true, serial } : { ok: false, reason: "bad_signature" };
}
