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
import { wechatPayConfigSchema, type WechatPayConfig, type WechatPayDeps } from "./client-config";
import { aeadAesGcmDecrypt, importMerchantPrivateKey, randomNonce, signSha256WithRsa } from "./crypto";
import { WechatPayInputError, type OrderInput, type RefundInput } from "./inputs";
import { createKeyRing, type KeyRing } from "./key-ring";
import {
  decryptResource as openResource,
  verifyNotification as verifyNotificationWith,
  type DecryptedResource,
  type NotificationVerification,
} from "./notifications";
import { classify as classifyExchange, type Exchange, type WechatPayOutcome } from "./outcome";
import { authorizationHeader, paySignMessage, requestSignatureMessage } from "./signing";
import type { HeaderSource, VerificationFailure } from "./verify";
import { formatWechatTime } from "./wechat-time";
import {
  certificatesAnswerSchema,
  h5PrepayAnswerSchema,
  h5PrepayRequestSchema,
  jsapiPrepayAnswerSchema,
  jsapiPrepayRequestSchema,
  nativePrepayAnswerSchema,
  nativePrepayRequestSchema,
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

export type JsapiPayParams = { appId: string; timeStamp: string; nonceStr: string; package: string; signType: "RSA"; paySign: string };

export type NotificationRead =
  | { ok: true; notification: Notification; kind: "transaction"; transaction: Transaction }
  | { ok: true; notification: Notification; kind: "refund"; refund: RefundNotice }
  | {
      ok: false;
      reason:
        | VerificationFailure
        | "malformed_body"
        | "unsupported_algorithm"
        | "decrypt_failed"
        | "malformed_plaintext"
        | "unexpected_resource"
        | "foreign_merchant";
    };

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
    {
      now,
      download:
        settings.platformCertificates.length > 0
          ? () => downloadCertificates().then((r) => (r.outcome === "ok" ? r.data : null))
          : undefined,
    },
  );

  async function exchange(method: "GET" | "POST", path: string, body: unknown): Promise<Exchange> {
    const url = new URL(baseUrl + path);
    const bodyText = body === undefined ? "" : JSON.stringify(body);
    const timestamp = Math.floor(now() / 1000);
    const requestNonce = nonce();
    // Sign exactly what is sent: the same URL's path and query, the same body text.
    const signature = await signSha256WithRsa(
      await privateKey,
      requestSignatureMessage(method, url.pathname + url.search, timestamp, requestNonce, bodyText),
    );
    const headers = new Headers({
      Authorization: authorizationHeader({
        mchid: settings.mchid,
        nonce: requestNonce,
        timestamp,
        serial: settings.merchantSerial,
        signature,
      }),
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
        const response = await send(
          new Request(url, { method, headers, body: method === "POST" ? bodyText : undefined, signal: controller.signal }),
        );
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

  function classify<T>(
    answer: Exchange,
    parse: ((json: unknown) => T | undefined) | null,
    verifyWith: Pick<KeyRing, "keyFor"> = keys,
  ): Promise<WechatPayOutcome<T>> {
    return classifyExchange(answer, parse, { keys: verifyWith, now });
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
    if (downloaded.length === 0)
      return { outcome: "unknown", reason: "malformed_answer", status: answer.status, requestId: answer.headers.get("Request-ID") };
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
    async createJsapiOrder(
      order: OrderInput & { openid: string },
    ): Promise<WechatPayOutcome<{ prepayId: string; payParams: JsapiPayParams }>> {
      const body = checked(jsapiPrepayRequestSchema, { ...prepayBody(order), payer: { openid: order.openid } });
      const created = await call("POST", "/v3/pay/transactions/jsapi", body, parseWith(jsapiPrepayAnswerSchema));
      if (created.outcome !== "ok") return created;
      return {
        outcome: "ok",
        requestId: created.requestId,
        data: { prepayId: created.data.prepay_id, payParams: await jsapiPayParams(created.data.prepay_id) },
      };
    },

    jsapiPayParams,

    async queryOrder(outTradeNo: string): Promise<WechatPayOutcome<Transaction>> {
      const path = `/v3/pay/transactions/out-trade-no/${pathSegment(outTradeNo, outTradeNoSchema)}?mchid=${encodeURIComponent(settings.mchid)}`;
      return call("GET", path, undefined, parseWith(transactionSchema));
    },

    /** 204 on success, re-entrant: closing a closed order succeeds again. */
    async closeOrder(outTradeNo: string): Promise<WechatPayOutcome<null>> {
      return call(
        "POST",
        `/v3/pay/transactions/out-trade-no/${pathSegment(outTradeNo, outTradeNoSchema)}/close`,
        { mchid: settings.mchid },
        null,
      );
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
      return outcome.outcome === "ok"
        ? { outcome: "ok", requestId: outcome.requestId, data: { serials: outcome.data.map((c) => c.serial) } }
        : outcome;
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
        if (opened.transaction.mchid !== settings.mchid || opened.transaction.appid !== settings.appid)
          return { ok: false, reason: "foreign_merchant" };
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
