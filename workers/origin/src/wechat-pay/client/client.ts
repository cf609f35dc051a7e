/**
 * A WeChat Pay API v3 client for a direct merchant (普通商户), on WebCrypto and `fetch`.
 *
 * Every call ends in one of three outcomes:
 * - `ok`: a 2xx answer whose signature verified and whose body has the expected shape;
 * - `failed`: WeChat Pay refused the request (4xx with an error code) — nothing happened;
 * - `unknown`: a time-out, a network error, a 5xx, or a 2xx that cannot be verified or read.
 *   The request may or may not have taken effect: query, or send it again with the same
 *   out_trade_no / out_refund_no (both are re-entrant). Never treat `unknown` as success.
 */
import { z } from "zod";
import { aeadAesGcmDecrypt, importMerchantPrivateKey, randomNonce, signSha256WithRsa, utf8 } from "./crypto";
import {
  decryptResource as openResource,
  verifyNotification as verifyNotificationWith,
  type DecryptedResource,
  type NotificationVerification,
} from "./notifications";
import { authorizationHeader, paySignMessage, requestSignatureMessage } from "./signing";
import { verifyWechatSignature, type HeaderSource, type VerificationFailure } from "./verify";
import { formatWechatTime } from "./wechat-time";
import { createKeyRing, type KeyRing } from "./wechat-keys";
import {
  certificatesAnswerSchema,
  errorAnswerSchema,
  h5PrepayAnswerSchema,
  h5PrepayRequestSchema,
  jsapiPrepayAnswerSchema,
  jsapiPrepayRequestSchema,
  nativePrepayAnswerSchema,
  nativePrepayRequestSchema,
  notifyUrlSchema,
  outRefundNoSchema,
  outTradeNoSchema,
  refundRequestSchema,
  refundSchema,
  transactionSchema,
  type EncryptedResource,
  type Notification,
  type Refund,
  type RefundNotice,
  type Transaction,
} from "./wire";
import { parseCertificatePem, type PlatformCertificate } from "./x509";

export const wechatPayConfigSchema = z
  .object({
    mchid: z.string().min(1).max(32),
    appid: z.string().min(1).max(32),
    /** The serial number of the merchant API certificate (`serial_no` in Authorization). */
    merchantSerial: z.string().min(1),
    /** The merchant API private key, PKCS#8 PEM. */
    merchantPrivateKeyPem: z.string().min(1),
    /** The APIv3 key: 32 bytes. */
    apiV3Key: z.string().refine((key) => utf8(key).length === 32, "The APIv3 key is 32 bytes"),
    /** Public-key mode: the WeChat Pay public key and its id `PUB_KEY_ID_…`. */
    wechatPublicKey: z.object({ id: z.string().startsWith("PUB_KEY_ID_"), pem: z.string().min(1) }).optional(),
    /** Platform-certificate mode: PEM certificates; their serials are read from them. */
    platformCertificates: z.array(z.string().min(1)).default([]),
    notifyUrl: notifyUrlSchema,
    /** Where REFUND.* notifications go; none when absent. */
    refundNotifyUrl: notifyUrlSchema.optional(),
    baseUrl: z.url().default("https://api.mch.weixin.qq.com"),
    userAgent: z.string().min(1).default("Paydesk (WeChat Pay API v3; WebCrypto)"),
  })
  .refine((config) => config.wechatPublicKey || config.platformCertificates.length > 0, "Configure the WeChat Pay public key or platform certificates");

export type WechatPayConfig = z.input<typeof wechatPayConfigSchema>;

export type WechatPayDeps = {
  fetch?: (request: Request) => Promise<Response>;
  now?: () => number;
  /** The whole exchange, answer body included; default 10 s. */
  timeoutMs?: number;
  nonce?: () => string;
};

export type UnknownReason = "timeout" | "network_error" | "server_error" | "unexpected_status" | "unverified_answer" | "malformed_answer";

export type WechatPayOutcome<T> =
  | { outcome: "ok"; data: T; requestId: string | null }
  | { outcome: "failed"; status: number; code: string; rawCode: string; message: string; retryable: boolean; requestId: string | null }
  | {
      outcome: "unknown";
      reason: UnknownReason;
      status?: number;
      code?: string;
      message?: string;
      verification?: VerificationFailure;
      requestId: string | null;
    };

export type OrderInput = {
  outTradeNo: string;
  /** At most 127 characters, no emoji: see `wechatDescription`. */
  description: string;
  /** Fen. */
  amount: number;
  /** The Paydesk order's own expiry (ms); sent as `time_expire` so both end together. */
  expiresAt: number;
  attach?: string;
};

export type JsapiPayParams = { appId: string; timeStamp: string; nonceStr: string; package: string; signType: "RSA"; paySign: string };

export type RefundInput = {
  outRefundNo: string;
  refund: number;
  total: number;
  reason?: string;
} & ({ outTradeNo: string; transactionId?: never } | { transactionId: string; outTradeNo?: never });

export type NotificationRead =
  | { ok: true; notification: Notification; kind: "transaction"; transaction: Transaction }
  | { ok: true; notification: Notification; kind: "refund"; refund: RefundNotice }
  | { ok: false; reason: VerificationFailure | "malformed_body" | "unsupported_algorithm" | "decrypt_failed" | "malformed_plaintext" | "unexpected_resource" | "foreign_merchant" };

/** A programming error in the arguments: nothing was sent. */
export class WechatPayInputError extends Error {
  override name = "WechatPayInputError";
}

/** WeChat Pay spells some codes both ways by documentation generation (SYSTEMERROR / SYSTEM_ERROR). */
const codeSpellings: Record<string, string> = {
  SYSTEMERROR: "SYSTEM_ERROR",
  ORDERNOTEXIST: "ORDER_NOT_EXIST",
  ORDERPAID: "ORDER_PAID",
  ORDERCLOSED: "ORDER_CLOSED",
  USERPAYING: "USER_PAYING",
  RULELIMIT: "RULE_LIMIT",
  NOTENOUGH: "NOT_ENOUGH",
  FREQUENCYLIMITED: "FREQUENCY_LIMITED",
  NOAUTH: "NO_AUTH",
  PARAMERROR: "PARAM_ERROR",
  SIGNERROR: "SIGN_ERROR",
};

export function normalizeErrorCode(code: string): string {
  return codeSpellings[code] ?? code;
}

/** A description WeChat Pay accepts: no 4-byte UTF-8, at most 127 characters. */
export function wechatDescription(text: string): string {
  const withoutAstral = text.replace(/[\u{10000}-\u{10FFFF}]/gu, "").trim();
  return [...withoutAstral].slice(0, 127).join("") || "Paydesk";
}

type Exchange =
  | { kind: "answer"; status: number; headers: Headers; body: string }
  | { kind: "timeout" }
  | { kind: "network_error"; error: unknown };

export type WechatPayClient = ReturnType<typeof createWechatPayClient>;

export function createWechatPayClient(config: WechatPayConfig, deps: WechatPayDeps = {}) {
  const settings = wechatPayConfigSchema.parse(config);
  const now = deps.now ?? (() => Date.now());
  const send = deps.fetch ?? ((request: Request) => fetch(request));
  const timeoutMs = deps.timeoutMs ?? 10_000;
  const nonce = deps.nonce ?? (() => randomNonce(32));
  const baseUrl = settings.baseUrl.replace(/\/+$/, "");
  const privateKey = importMerchantPrivateKey(settings.merchantPrivateKeyPem);
  privateKey.catch(() => undefined);

  const keys: KeyRing = createKeyRing(
    { publicKey: settings.wechatPublicKey, platformCertificates: settings.platformCertificates },
    { now, download: settings.platformCertificates.length > 0 ? () => downloadCertificates().then((r) => (r.outcome === "ok" ? r.data : null)) : undefined },
  );

  async function exchange(method: "GET" | "POST", path: string, body: unknown): Promise<Exchange> {
    const url = new URL(baseUrl + path);
    const bodyText = body === undefined ? "" : JSON.stringify(body);
    const timestamp = Math.floor(now() / 1000);
    const requestNonce = nonce();
    // Sign exactly what is sent: the same URL's path and query, the same body text.
    const signature = await signSha256WithRsa(await privateKey, requestSignatureMessage(method, url.pathname + url.search, timestamp, requestNonce, bodyText));
    const headers = new Headers({
      Authorization: authorizationHeader({ mchid: settings.mchid, nonce: requestNonce, timestamp, serial: settings.merchantSerial, signature }),
      Accept: "application/json",
      "User-Agent": settings.userAgent,
    });
    if (method === "POST") headers.set("Content-Type", "application/json");
    // Which key we can verify with, as wechatpay-go and wechatpay-java send on every request.
    const serial = keys.preferredSerial();
    if (serial) headers.set("Wechatpay-Serial", serial);

    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const deadline = new Promise<Exchange>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ kind: "timeout" });
      }, timeoutMs);
    });
    const attempt = (async (): Promise<Exchange> => {
      try {
        const response = await send(new Request(url, { method, headers, body: method === "POST" ? bodyText : undefined, signal: controller.signal }));
        return { kind: "answer", status: response.status, headers: response.headers, body: await response.text() };
      } catch (error) {
        return controller.signal.aborted ? { kind: "timeout" } : { kind: "network_error", error };
      }
    })();
    try {
      return await Promise.race([attempt, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function classify<T>(
    answer: Exchange,
    parse: ((json: unknown) => T | undefined) | null,
    verifyWith: Pick<KeyRing, "keyFor"> = keys,
  ): Promise<WechatPayOutcome<T>> {
    if (answer.kind === "timeout") return { outcome: "unknown", reason: "timeout", requestId: null };
    if (answer.kind === "network_error") return { outcome: "unknown", reason: "network_error", requestId: null };
    const requestId = answer.headers.get("Request-ID") ?? null;
    const error = readError(answer.body);
    if (answer.status >= 200 && answer.status < 300) {
      const verified = await verifyWechatSignature(answer.headers, answer.body, { keys: verifyWith, now });
      if (!verified.ok) return { outcome: "unknown", reason: "unverified_answer", status: answer.status, verification: verified.reason, requestId };
      if (parse === null) return { outcome: "ok", data: null as T, requestId };
      let json: unknown;
      try {
        json = JSON.parse(answer.body);
      } catch {
        return { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId };
      }
      const data = parse(json);
      return data === undefined ? { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId } : { outcome: "ok", data, requestId };
    }
    if (answer.status === 429) {
      // Refused for frequency: not processed; the same request may be sent again later.
      return { outcome: "failed", status: 429, code: "FREQUENCY_LIMITED", rawCode: error?.code ?? "FREQUENCY_LIMITED", message: error?.message ?? "", retryable: true, requestId };
    }
    if (answer.status >= 400 && answer.status < 500) {
      const rawCode = error?.code ?? `HTTP_${answer.status}`;
      return { outcome: "failed", status: answer.status, code: normalizeErrorCode(rawCode), rawCode, message: error?.message ?? "", retryable: false, requestId };
    }
    return {
      outcome: "unknown",
      reason: answer.status >= 500 ? "server_error" : "unexpected_status",
      status: answer.status,
      ...(error ? { code: normalizeErrorCode(error.code), message: error.message ?? "" } : {}),
      requestId,
    };
  }

  async function call<T>(method: "GET" | "POST", path: string, body: unknown, parse: ((json: unknown) => T | undefined) | null) {
    return classify<T>(await exchange(method, path, body), parse);
  }

  const parseWith =
    <S extends z.ZodType>(schema: S) =>
    (json: unknown): z.infer<S> | undefined => {
      const parsed = schema.safeParse(json);
      return parsed.success ? parsed.data : undefined;
    };

  function prepayBody(order: OrderInput) {
    if (!Number.isFinite(order.expiresAt) || order.expiresAt <= now()) throw new WechatPayInputError("The order has already expired");
    return {
      appid: settings.appid,
      mchid: settings.mchid,
      description: order.description,
      out_trade_no: order.outTradeNo,
      time_expire: formatWechatTime(order.expiresAt),
      ...(order.attach === undefined ? {} : { attach: order.attach }),
      notify_url: settings.notifyUrl,
      amount: { total: order.amount, currency: "CNY" as const },
    };
  }

  function checked<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new WechatPayInputError(`Not a valid WeChat Pay request: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  }

  function pathSegment(value: string, schema: z.ZodType<string>): string {
    if (!schema.safeParse(value).success) throw new WechatPayInputError(`Not a valid merchant number: ${JSON.stringify(value)}`);
    return encodeURIComponent(value);
  }

  async function jsapiPayParams(prepayId: string): Promise<JsapiPayParams> {
    const timeStamp = String(Math.floor(now() / 1000));
    const nonceStr = nonce();
    const packageValue = `prepay_id=${prepayId}`;
    const paySign = await signSha256WithRsa(await privateKey, paySignMessage(settings.appid, timeStamp, nonceStr, packageValue));
    return { appId: settings.appid, timeStamp, nonceStr, package: packageValue, signType: "RSA", paySign };
  }

  /**
   * `GET /v3/certificates`: the certificates arrive sealed with the APIv3 key (AAD
   * "certificate"), which authenticates them; the answer itself is then verified with the
   * known keys or the certificate it brought.
   */
  async function downloadCertificates(): Promise<WechatPayOutcome<PlatformCertificate[]>> {
    const answer = await exchange("GET", "/v3/certificates", undefined);
    if (answer.kind !== "answer" || answer.status !== 200) return classify(answer, () => [] as PlatformCertificate[]);
    let downloaded: PlatformCertificate[] = [];
    try {
      const parsed = certificatesAnswerSchema.safeParse(JSON.parse(answer.body));
      if (parsed.success) {
        for (const entry of parsed.data.data) {
          const pem = await aeadAesGcmDecrypt({
            key: settings.apiV3Key,
            nonce: entry.encrypt_certificate.nonce,
            associatedData: entry.encrypt_certificate.associated_data ?? "",
            ciphertext: entry.encrypt_certificate.ciphertext,
          });
          if (pem === null) throw new Error("A downloaded certificate does not open with the APIv3 key");
          const certificate = parseCertificatePem(pem);
          if (certificate.serial !== entry.serial_no.toUpperCase()) throw new Error("A downloaded certificate's serial does not match");
          downloaded.push(certificate);
        }
      }
    } catch {
      downloaded = [];
    }
    if (downloaded.length === 0) return { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId: answer.headers.get("Request-ID") };
    const fresh = createKeyRing({}, { now });
    fresh.addCertificates(downloaded);
    const known: Pick<KeyRing, "keyFor"> = {
      keyFor: async (serial) => (await fresh.keyFor(serial)) ?? (keys.knownSerials().includes(serial) ? keys.keyFor(serial) : null),
    };
    const outcome = await classify(answer, () => downloaded, known);
    if (outcome.outcome === "ok") keys.addCertificates(downloaded);
    return outcome;
  }

  return {
    config: settings,
    keys,

    async createNativeOrder(order: OrderInput): Promise<WechatPayOutcome<{ codeUrl: string }>> {
      const body = checked(nativePrepayRequestSchema, prepayBody(order));
      return call("POST", "/v3/pay/transactions/native", body, (json) => {
        const parsed = nativePrepayAnswerSchema.safeParse(json);
        return parsed.success ? { codeUrl: parsed.data.code_url } : undefined;
      });
    },

    async createH5Order(
      order: OrderInput & { payerClientIp: string; sceneType?: "Wap" | "iOS" | "Android"; appName?: string; appUrl?: string },
    ): Promise<WechatPayOutcome<{ h5Url: string }>> {
      const body = checked(h5PrepayRequestSchema, {
        ...prepayBody(order),
        scene_info: {
          payer_client_ip: order.payerClientIp,
          h5_info: {
            type: order.sceneType ?? "Wap",
            ...(order.appName === undefined ? {} : { app_name: order.appName }),
            ...(order.appUrl === undefined ? {} : { app_url: order.appUrl }),
          },
        },
      });
      return call("POST", "/v3/pay/transactions/h5", body, (json) => {
        const parsed = h5PrepayAnswerSchema.safeParse(json);
        return parsed.success ? { h5Url: parsed.data.h5_url } : undefined;
      });
    },

    /** JSAPI (inside WeChat): the prepay id and the signed parameters for `getBrandWCPayRequest`. */
    async createJsapiOrder(order: OrderInput & { openid: string }): Promise<WechatPayOutcome<{ prepayId: string; payParams: JsapiPayParams }>> {
      const body = checked(jsapiPrepayRequestSchema, { ...prepayBody(order), payer: { openid: order.openid } });
      const created = await call("POST", "/v3/pay/transactions/jsapi", body, parseWith(jsapiPrepayAnswerSchema));
      if (created.outcome !== "ok") return created;
      return { outcome: "ok", requestId: created.requestId, data: { prepayId: created.data.prepay_id, payParams: await jsapiPayParams(created.data.prepay_id) } };
    },

    jsapiPayParams,

    async queryOrder(outTradeNo: string): Promise<WechatPayOutcome<Transaction>> {
      const path = `/v3/pay/transactions/out-trade-no/${pathSegment(outTradeNo, outTradeNoSchema)}?mchid=${encodeURIComponent(settings.mchid)}`;
      return call("GET", path, undefined, parseWith(transactionSchema));
    },

    /** 204 on success, re-entrant: closing a closed order succeeds again. */
    async closeOrder(outTradeNo: string): Promise<WechatPayOutcome<null>> {
      return call("POST", `/v3/pay/transactions/out-trade-no/${pathSegment(outTradeNo, outTradeNoSchema)}/close`, { mchid: settings.mchid }, null);
    },

    /** Accepted is not refunded: the result comes by REFUND.* notification or `queryRefund`. */
    async refund(input: RefundInput): Promise<WechatPayOutcome<Refund>> {
      const body = checked(refundRequestSchema, {
        ...(input.transactionId === undefined ? {} : { transaction_id: input.transactionId }),
        ...(input.outTradeNo === undefined ? {} : { out_trade_no: input.outTradeNo }),
        out_refund_no: input.outRefundNo,
        ...(input.reason === undefined ? {} : { reason: input.reason }),
        ...(settings.refundNotifyUrl === undefined ? {} : { notify_url: settings.refundNotifyUrl }),
        amount: { refund: input.refund, total: input.total, currency: "CNY" },
      });
      return call("POST", "/v3/refund/domestic/refunds", body, parseWith(refundSchema));
    },

    async queryRefund(outRefundNo: string): Promise<WechatPayOutcome<Refund>> {
      return call("GET", `/v3/refund/domestic/refunds/${pathSegment(outRefundNo, outRefundNoSchema)}`, undefined, parseWith(refundSchema));
    },

    /** Downloads the platform certificates now (e.g. from a daily cron), keeping the ones that verify. */
    async refreshCertificates(): Promise<WechatPayOutcome<{ serials: string[] }>> {
      const outcome = await downloadCertificates();
      return outcome.outcome === "ok" ? { outcome: "ok", requestId: outcome.requestId, data: { serials: outcome.data.map((c) => c.serial) } } : outcome;
    },

    /** Step 1 for `notify_url`: the signature over the raw body, then the envelope's shape. */
    verifyNotification(headers: HeaderSource, rawBody: string): Promise<NotificationVerification> {
      return verifyNotificationWith(headers, rawBody, { keys, now });
    },

    /** Step 2: open the AEAD_AES_256_GCM resource with the APIv3 key. */
    decryptResource(resource: EncryptedResource): Promise<DecryptedResource> {
      return openResource(resource, settings.apiV3Key);
    },

    /**
     * Both steps, and the resource must be ours (mchid, and appid for payments). The caller
     * still compares out_trade_no and amount.total with its own order before settling.
     */
    async readNotification(headers: HeaderSource, rawBody: string): Promise<NotificationRead> {
      const verified = await verifyNotificationWith(headers, rawBody, { keys, now });
      if (!verified.ok) return verified;
      const opened = await openResource(verified.notification.resource, settings.apiV3Key);
      if (!opened.ok) return opened;
      if (opened.kind === "transaction") {
        if (opened.transaction.mchid !== settings.mchid || opened.transaction.appid !== settings.appid) return { ok: false, reason: "foreign_merchant" };
        return { ok: true, notification: verified.notification, kind: "transaction", transaction: opened.transaction };
      }
      if (opened.kind === "refund") {
        if (opened.refund.mchid !== undefined && opened.refund.mchid !== settings.mchid) return { ok: false, reason: "foreign_merchant" };
        return { ok: true, notification: verified.notification, kind: "refund", refund: opened.refund };
      }
      return { ok: false, reason: "unexpected_resource" };
    },
  };
}

function readError(body: string): { code: string; message?: string } | null {
  try {
    const parsed = errorAnswerSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
