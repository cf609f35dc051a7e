/**
 * A WeChat Pay API v3 simulator for a direct merchant: the endpoints Paydesk's client uses,
 * with WeChat Pay's checks, signatures, ids, expiries and errors
 * (shared/reference/wechatpay-v3.md §10), signed and sealed notifications with the retry
 * schedule, fault injection, and control endpoints under `/__simulator/`.
 * Plain class, clock and delivery passed in; the worker wraps it in a Durable Object.
 */
import { z } from "zod";
import { importSigningKey, importVerifyingKey, randomAlphanumeric, randomDigits, randomHex, seal, sign, verify } from "./sim-crypto";
import {
  initialState,
  retryScheduleSeconds,
  type FaultKind,
  type NotifyOptions,
  type SimDelivery,
  type SimFault,
  type SimOrder,
  type SimRefund,
  type SimulatorState,
  type TradeType,
} from "./state";
import { testMerchant, testPlatformCertificates, testRogueKey, testWechatPublicKey } from "./test-only-keys";
import { closeRequest, containsNull, h5Request, jsapiRequest, nativeRequest, paramError, refundRequest, rfc3339 } from "./validation";

export type SimulatorOptions = {
  /** The real clock (ms); the simulator's own clock adds `state.clockOffsetMs`. */
  now?: () => number;
  /** How notifications leave: `fetch`, or a service binding in tests. */
  deliver: (request: Request) => Promise<Response>;
  /** Where h5_url points; WeChat Pay's cashier by default, a simulator page in local emulation. */
  h5UrlBase?: string;
  /** Seconds until a PROCESSING refund succeeds by itself. */
  refundSettleSeconds?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Stores the state before a delayed answer, so a time-out after the change keeps it. */
  persist?: () => Promise<void>;
};

type Answer = { status: number; body: unknown | null; signed: boolean };

type Signer = { serial: string; key: CryptoKey };

const merchants: Record<string, { appids: string[]; serials: Record<string, string> }> = {
  [testMerchant.mchid]: { appids: [testMerchant.appid], serials: { [testMerchant.serial]: testMerchant.publicKeyPem } },
};

const signatureType = "WECHATPAY2-SHA256-RSA2048";
const probePrefix = "WECHATPAY/SIGNTEST/";
const twoHours = 2 * 60 * 60 * 1000;
const fiveMinutes = 5 * 60 * 1000;
const deliveryTimeoutMs = 5_000;

const cst = (at: number) => `${new Date(Math.floor(at / 1000) * 1000 + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;
const compactCst = (at: number) => cst(at).slice(0, 19).replace(/[-T:]/g, "");

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const error = (status: number, code: string, message: string, detail?: unknown): Answer => ({
  status,
  body: detail === undefined ? { code, message } : { code, message, detail },
  signed: true,
});

/** Authorization: `WECHATPAY2-SHA256-RSA2048 k="v",…` in any order (the documentation: 无顺序要求). */
export function parseAuthorization(header: string | null): Record<string, string> | null {
  if (!header?.startsWith(`${signatureType} `)) return null;
  const fields: Record<string, string> = {};
  for (const part of header.slice(signatureType.length + 1).split(",")) {
    const match = /^\s*([a-z_]+)="([^"]*)"\s*$/.exec(part);
    if (!match?.[1] || match[2] === undefined || match[1] in fields) return null;
    fields[match[1]] = match[2];
  }
  for (const name of ["mchid", "nonce_str", "timestamp", "serial_no", "signature"]) if (!fields[name]) return null;
  return fields;
}

export class WechatPaySimulator {
  state: SimulatorState;
  private readonly realNow: () => number;
  private readonly options: SimulatorOptions;
  private keys: Promise<{
    merchants: Map<string, CryptoKey>;
    publicKey: CryptoKey;
    A: CryptoKey;
    B: CryptoKey;
    rogue: CryptoKey;
  }> | null = null;

  constructor(options: SimulatorOptions, state?: SimulatorState) {
    this.options = options;
    this.realNow = options.now ?? (() => Date.now());
    this.state = state ?? initialState();
  }

  now(): number {
    return this.realNow() + this.state.clockOffsetMs;
  }

  private loadKeys() {
    this.keys ??= (async () => {
      const merchantKeys = new Map<string, CryptoKey>();
      for (const [mchid, merchant] of Object.entries(merchants)) {
        for (const [serial, pem] of Object.entries(merchant.serials)) merchantKeys.set(`${mchid}:${serial}`, await importVerifyingKey(pem));
      }
      return {
        merchants: merchantKeys,
        publicKey: await importSigningKey(testWechatPublicKey.privateKeyPem),
        A: await importSigningKey(testPlatformCertificates.A.privateKeyPem),
        B: await importSigningKey(testPlatformCertificates.B.privateKeyPem),
        rogue: await importSigningKey(testRogueKey.privateKeyPem),
      };
    })();
    return this.keys;
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    this.tick();
    const response = url.pathname.startsWith("/__simulator/")
      ? await this.control(request, url)
      : url.pathname.startsWith("/v3/")
        ? await this.api(request, url)
        : Response.json({ code: "NOT_FOUND", message: "Not a WeChat Pay API path" }, { status: 404 });
    await this.settled();
    return response;
  }

  /** Time-based changes: unpaid orders past time_expire close; PROCESSING refunds settle. */
  tick(): void {
    const now = this.now();
    for (const order of Object.values(this.state.orders)) {
      if (order.tradeState === "NOTPAY" && now >= order.timeExpire) {
        order.tradeState = "CLOSED";
        order.closedAt = order.timeExpire;
      }
    }
    for (const refund of Object.values(this.state.refunds)) {
      if (refund.status === "PROCESSING" && now >= refund.settleAt) this.finishRefund(refund, "SUCCESS");
    }
  }

  /** When the simulator next has something to do, on the real clock; null when nothing waits. */
  nextWakeUp(): number | null {
    const due = [
      ...this.state.deliveries.flatMap((delivery) => (delivery.nextAttemptAt === null ? [] : [delivery.nextAttemptAt])),
      ...Object.values(this.state.refunds).flatMap((refund) => (refund.status === "PROCESSING" ? [refund.settleAt] : [])),
    ];
    return due.length === 0 ? null : Math.min(...due) - this.state.clockOffsetMs;
  }

  // ——— The API ———————————————————————————————————————————————————————————————

  private async api(request: Request, url: URL): Promise<Response> {
    const raw = await request.text();
    const method = request.method.toUpperCase();
    const path = url.pathname + url.search;
    const log = (status: number, fault?: FaultKind) => {
      this.state.requests.push({ at: this.now(), method, path, status, ...(fault ? { fault } : {}) });
      if (this.state.requests.length > 200) this.state.requests.shift();
    };

    const refused = await this.authenticate(request, method, path, raw);
    if (refused.answer) {
      log(refused.answer.status);
      return this.respond(refused.answer, request, undefined);
    }
    const mchid = refused.mchid;

    const fault = this.takeFault(method, url.pathname);
    const afterCommit = fault?.afterCommit ?? fault?.kind === "timeout";
    if (fault && !afterCommit && (fault.kind === "status" || fault.kind === "timeout")) {
      if (fault.kind === "timeout") await this.sleep(fault.delayMs ?? 30_000);
      const answer = this.faultAnswer(fault);
      log(answer.status, fault.kind);
      return this.respond(answer, request, undefined);
    }

    let answer: Answer;
    try {
      answer = await this.route(method, url, raw, mchid);
    } catch (caught) {
      console.error("WeChat Pay simulator failed", caught);
      answer = { status: 500, body: { code: "SYSTEM_ERROR", message: "系统异常，请稍后重试" }, signed: false };
    }

    if (fault && afterCommit && fault.kind === "status") {
      const faulty = this.faultAnswer(fault);
      log(faulty.status, fault.kind);
      return this.respond(faulty, request, undefined);
    }
    if (fault?.kind === "timeout") {
      await this.settled();
      await this.options.persist?.();
      await this.sleep(fault.delayMs ?? 30_000);
    }
    log(answer.status, fault?.kind);
    return this.respond(answer, request, fault);
  }

  private faultAnswer(fault: SimFault): Answer {
    const status = fault.kind === "timeout" ? 504 : (fault.status ?? 500);
    const code =
      fault.code ??
      (status === 429 ? "FREQUENCY_LIMITED" : status === 500 ? "SYSTEM_ERROR" : status >= 502 ? "SERVICE_UNAVAILABLE" : "INVALID_REQUEST");
    const message = fault.message ?? (status === 429 ? "频率超限" : status >= 500 ? "系统异常，请稍后重试" : "无效请求");
    return { status, body: { code, message }, signed: false };
  }

  private takeFault(method: string, pathname: string): SimFault | undefined {
    const fault = this.state.faults.find(
      (candidate) => candidate.remaining > 0 && (!candidate.method || candidate.method === method) && (!candidate.path || pathname.startsWith(candidate.path)),
    );
    if (fault) {
      fault.remaining -= 1;
      this.state.faults = this.state.faults.filter((candidate) => candidate.remaining > 0);
    }
    return fault;
  }

  private async authenticate(request: Request, method: string, path: string, raw: string): Promise<{ answer: Answer; mchid?: never } | { answer?: never; mchid: string }> {
    const accept = request.headers.get("Accept") ?? "";
    if (!/application\/json|application\/\*|\*\/\*/.test(accept)) {
      return { answer: { ...error(400, "INVALID_REQUEST", "HTTP头缺少Accept或不接受application/json"), signed: false } };
    }
    if (!request.headers.get("User-Agent")) return { answer: { ...error(400, "INVALID_REQUEST", "HTTP头缺少User-Agent"), signed: false } };
    if (method === "POST" && !(request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("application/json")) {
      return { answer: { ...error(400, "INVALID_REQUEST", "Content-Type须为application/json"), signed: false } };
    }
    const auth = parseAuthorization(request.headers.get("Authorization"));
    if (!auth) return { answer: { ...error(401, "SIGN_ERROR", "Authorization格式不正确"), signed: false } };
    const mchid = auth.mchid!;
    const merchant = merchants[mchid];
    if (!merchant) return { answer: { ...error(400, "MCH_NOT_EXISTS", "商户号不存在"), signed: false } };
    const key = (await this.loadKeys()).merchants.get(`${mchid}:${auth.serial_no}`);
    if (!key) return { answer: { ...error(401, "SIGN_ERROR", "商户证书序列号有误"), signed: false } };
    const timestamp = auth.timestamp!;
    if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - Math.floor(this.now() / 1000)) > 300) {
      // The wording WeChat Pay answers with (seen in its developer community).
      return { answer: { ...error(401, "SIGN_ERROR", "Http头Authorization中的timestamp与发起请求的时间不得超过5分钟"), signed: false } };
    }
    const message = `${method}\n${path}\n${timestamp}\n${auth.nonce_str}\n${raw}\n`;
    if (!(await verify(key, message, auth.signature!))) return { answer: { ...error(401, "SIGN_ERROR", "签名错误"), signed: false } };
    return { mchid };
  }

  private async route(method: string, url: URL, raw: string, mchid: string): Promise<Answer> {
    const path = url.pathname;
    let body: unknown = undefined;
    if (method === "POST") {
      try {
        body = JSON.parse(raw);
      } catch {
        return error(400, "PARAM_ERROR", "请求体不是有效的JSON");
      }
      if (containsNull(body)) return error(400, "PARAM_ERROR", "参数不能为null");
      const bodyMchid = (body as { mchid?: unknown }).mchid;
      if (bodyMchid !== undefined && bodyMchid !== mchid) return error(400, "INVALID_REQUEST", "请求中的mchid与Authorization中的mchid不一致");
    }
    const prepay = /^\/v3\/pay\/transactions\/(native|h5|jsapi)$/.exec(path);
    if (prepay && method === "POST") return this.prepay(prepay[1] as "native" | "h5" | "jsapi", body, mchid);
    const byOutTradeNo = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(path);
    if (byOutTradeNo && method === "GET") return this.query(mchid, url, { outTradeNo: decodeURIComponent(byOutTradeNo[1]!) });
    const byId = /^\/v3\/pay\/transactions\/id\/([^/]+)$/.exec(path);
    if (byId && method === "GET") return this.query(mchid, url, { transactionId: decodeURIComponent(byId[1]!) });
    const close = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)\/close$/.exec(path);
    if (close && method === "POST") return this.close(mchid, decodeURIComponent(close[1]!), body);
    if (path === "/v3/refund/domestic/refunds" && method === "POST") return this.refund(mchid, body);
    const refundQuery = /^\/v3\/refund\/domestic\/refunds\/([^/]+)$/.exec(path);
    if (refundQuery && method === "GET") return this.queryRefund(mchid, decodeURIComponent(refundQuery[1]!));
    if (path === "/v3/certificates" && method === "GET") return this.certificates();
    return error(404, "NOT_FOUND", "请求的资源不存在");
  }

  private prepay(kind: "native" | "h5" | "jsapi", body: unknown, mchid: string): Answer {
    const schema = kind === "native" ? nativeRequest : kind === "h5" ? h5Request : jsapiRequest;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const { message, detail } = paramError(parsed.error);
      return error(400, "PARAM_ERROR", message, detail);
    }
    const request = parsed.data;
    if (!merchants[mchid]!.appids.includes(request.appid)) return error(400, "APPID_MCHID_NOT_MATCH", "AppID和mch_id不匹配");
    const now = this.now();
    let timeExpire = now + 7 * 24 * 3600_000;
    if (request.time_expire !== undefined) {
      const at = rfc3339.test(request.time_expire) ? Date.parse(request.time_expire) : NaN;
      if (Number.isNaN(at)) return error(400, "PARAM_ERROR", "time_expire格式错误", { location: "body", field: "/body/time_expire" });
      if (at <= now) return error(400, "PARAM_ERROR", "订单失效时间须晚于当前时间", { location: "body", field: "/body/time_expire" });
      timeExpire = at;
    }
    const tradeType: TradeType = kind === "native" ? "NATIVE" : kind === "h5" ? "MWEB" : "JSAPI";
    const fingerprint = canonical({ kind, ...request });
    const key = `${mchid}:${request.out_trade_no}`;
    const existing = this.state.orders[key];
    if (existing) {
      if (existing.tradeState === "SUCCESS" || existing.tradeState === "REFUND") return error(400, "ORDER_PAID", "该订单已支付");
      if (existing.tradeState === "CLOSED") return error(400, "ORDER_CLOSED", "订单已关闭");
      if (existing.fingerprint !== fingerprint) return error(403, "OUT_TRADE_NO_USED", "商户订单号重复");
      // The same request again: a fresh prepay id / link for the same order.
      existing.prepayId = this.newPrepayId();
      existing.linkExpiresAt = now + (tradeType === "MWEB" ? fiveMinutes : twoHours);
      return { status: 200, body: this.prepayAnswer(existing), signed: true };
    }
    const order: SimOrder = {
      mchid,
      appid: request.appid,
      outTradeNo: request.out_trade_no,
      tradeType,
      fingerprint,
      description: request.description,
      total: request.amount.total,
      ...(request.attach === undefined ? {} : { attach: request.attach }),
      notifyUrl: request.notify_url,
      ...(kind === "jsapi" ? { openid: (request as z.infer<typeof jsapiRequest>).payer.openid } : {}),
      createdAt: now,
      timeExpire,
      tradeState: "NOTPAY",
      prepayId: this.newPrepayId(),
      linkExpiresAt: now + (tradeType === "MWEB" ? fiveMinutes : twoHours),
      refundedTotal: 0,
      refundCount: 0,
    };
    this.state.orders[key] = order;
    return { status: 200, body: this.prepayAnswer(order), signed: true };
  }

  private newPrepayId(): string {
    return `wx${compactCst(this.now())}${randomHex(20)}`;
  }

  private prepayAnswer(order: SimOrder): Record<string, string> {
    if (order.tradeType === "NATIVE") return { code_url: `weixin://wxpay/bizpayurl?pr=${randomAlphanumeric(9)}` };
    if (order.tradeType === "MWEB") {
      const base = this.options.h5UrlBase ?? "https://wx.tenpay.com/cgi-bin/mmpayweb-bin/checkmweb";
      return { h5_url: `${base}?prepay_id=${order.prepayId}&package=${randomDigits(10)}` };
    }
    return { prepay_id: order.prepayId };
  }

  private transactionOf(order: SimOrder): Record<string, unknown> {
    const paid = order.tradeState === "SUCCESS" || order.tradeState === "REFUND";
    const describe = { SUCCESS: "支付成功", REFUND: "转入退款", NOTPAY: "订单未支付", CLOSED: "订单已关闭" } as const;
    return {
      appid: order.appid,
      mchid: order.mchid,
      out_trade_no: order.outTradeNo,
      ...(paid
        ? {
            transaction_id: order.transactionId,
            trade_type: order.tradeType,
            bank_type: "OTHERS",
            success_time: cst(order.successTime!),
            payer: { openid: order.payerOpenid },
          }
        : {}),
      trade_state: order.tradeState,
      trade_state_desc: describe[order.tradeState],
      ...(order.attach === undefined ? {} : { attach: order.attach }),
      amount: paid
        ? { total: order.total, payer_total: order.total, currency: "CNY", payer_currency: "CNY" }
        : { total: order.total, currency: "CNY", payer_currency: "CNY" },
      promotion_detail: [],
    };
  }

  private query(mchid: string, url: URL, by: { outTradeNo: string } | { transactionId: string }): Answer {
    const queryMchid = url.searchParams.get("mchid");
    if (!queryMchid) return error(400, "PARAM_ERROR", "缺少参数mchid", { location: "query", field: "mchid" });
    if (queryMchid !== mchid) return error(400, "INVALID_REQUEST", "请求中的mchid与Authorization中的mchid不一致");
    const order =
      "outTradeNo" in by
        ? this.state.orders[`${mchid}:${by.outTradeNo}`]
        : Object.values(this.state.orders).find((candidate) => candidate.mchid === mchid && candidate.transactionId === by.transactionId);
    if (!order) return error(404, "ORDER_NOT_EXIST", "订单不存在");
    return { status: 200, body: this.transactionOf(order), signed: true };
  }

  private close(mchid: string, outTradeNo: string, body: unknown): Answer {
    const parsed = closeRequest.safeParse(body);
    if (!parsed.success) {
      const { message, detail } = paramError(parsed.error);
      return error(400, "PARAM_ERROR", message, detail);
    }
    const order = this.state.orders[`${mchid}:${outTradeNo}`];
    if (!order) return error(404, "ORDER_NOT_EXIST", "订单不存在");
    if (order.tradeState === "SUCCESS" || order.tradeState === "REFUND") return error(400, "ORDER_PAID", "该订单已支付");
    if (order.tradeState === "NOTPAY") {
      order.tradeState = "CLOSED";
      order.closedAt = this.now();
    }
    return { status: 204, body: null, signed: true };
  }

  private refundOf(refund: SimRefund): Record<string, unknown> {
    return {
      refund_id: refund.refundId,
      out_refund_no: refund.outRefundNo,
      transaction_id: refund.transactionId,
      out_trade_no: refund.outTradeNo,
      channel: "ORIGINAL",
      user_received_account: "支付用户零钱",
      ...(refund.successTime === undefined ? {} : { success_time: cst(refund.successTime) }),
      create_time: cst(refund.createdAt),
      status: refund.status,
      funds_account: "AVAILABLE",
      amount: {
        total: refund.total,
        refund: refund.refund,
        from: [],
        payer_total: refund.total,
        payer_refund: refund.refund,
        settlement_refund: refund.refund,
        settlement_total: refund.total,
        discount_refund: 0,
        currency: "CNY",
      },
    };
  }

  private refund(mchid: string, body: unknown): Answer {
    const parsed = refundRequest.safeParse(body);
    if (!parsed.success) {
      const { message, detail } = paramError(parsed.error);
      return error(400, "PARAM_ERROR", message, detail);
    }
    const request = parsed.data;
    const order =
      request.out_trade_no !== undefined
        ? this.state.orders[`${mchid}:${request.out_trade_no}`]
        : Object.values(this.state.orders).find((candidate) => candidate.mchid === mchid && candidate.transactionId === request.transaction_id);
    const fingerprint = canonical(request);
    const existing = this.state.refunds[`${mchid}:${request.out_refund_no}`];
    if (existing) {
      // The same out_refund_no refunds once: the same request gets the same refund back.
      if (existing.fingerprint !== fingerprint) return error(400, "INVALID_REQUEST", "退款单号重复，且请求参数与之前不一致");
      return { status: 200, body: this.refundOf(existing), signed: true };
    }
    if (!order) return error(404, "RESOURCE_NOT_EXISTS", "订单不存在");
    if (order.tradeState !== "SUCCESS" && order.tradeState !== "REFUND") return error(403, "TRADE_ERROR", "订单未支付，不能退款");
    if (request.amount.total !== order.total) return error(400, "PARAM_ERROR", "订单金额与原订单不一致", { location: "body", field: "/body/amount/total" });
    if (order.refundedTotal + request.amount.refund > order.total) return error(400, "INVALID_REQUEST", "申请退款金额超过订单可退金额");
    if (order.refundCount >= 50) return error(403, "RULE_LIMIT", "部分退款次数超过50次");
    const now = this.now();
    if (now - order.successTime! > 365 * 24 * 3600_000) return error(403, "RULE_LIMIT", "订单已超过退款期限");
    const refund: SimRefund = {
      mchid,
      outRefundNo: request.out_refund_no,
      refundId: `50${randomDigits(27)}`,
      outTradeNo: order.outTradeNo,
      transactionId: order.transactionId!,
      fingerprint,
      refund: request.amount.refund,
      total: request.amount.total,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      ...(request.notify_url === undefined ? {} : { notifyUrl: request.notify_url }),
      status: "PROCESSING",
      createdAt: now,
      settleAt: now + (this.options.refundSettleSeconds ?? 60) * 1000,
    };
    this.state.refunds[`${mchid}:${refund.outRefundNo}`] = refund;
    order.refundedTotal += refund.refund;
    order.refundCount += 1;
    order.tradeState = "REFUND";
    return { status: 200, body: this.refundOf(refund), signed: true };
  }

  private queryRefund(mchid: string, outRefundNo: string): Answer {
    const refund = this.state.refunds[`${mchid}:${outRefundNo}`];
    if (!refund) return error(404, "RESOURCE_NOT_EXISTS", "退款单不存在");
    return { status: 200, body: this.refundOf(refund), signed: true };
  }

  private async certificates(): Promise<Answer> {
    // Public-key merchants have no platform certificate (wechatpay-java CertificateDownloader expects NOT_FOUND).
    if (this.state.mode === "public_key") return error(404, "NOT_FOUND", "商户未开通平台证书");
    const issued = this.state.rotated ? (["A", "B"] as const) : (["A"] as const);
    const data = [];
    for (const name of issued) {
      const certificate = testPlatformCertificates[name];
      const nonce = randomAlphanumeric(12);
      data.push({
        serial_no: certificate.serial,
        effective_time: "2026-11-21T22:40:52+08:00",
        expire_time: "2036-11-18T22:40:52+08:00",
        encrypt_certificate: {
          algorithm: "AEAD_AES_256_GCM",
          nonce,
          associated_data: "certificate",
          ciphertext: await seal(testMerchant.apiV3Key, nonce, "certificate", `${certificate.certificatePem}\n`),
        },
      });
    }
    return { status: 200, body: { data }, signed: true };
  }

  // ——— Signing ——————————————————————————————————————————————————————————————

  private async signer(choice: "public_key" | "certificate"): Promise<Signer> {
    const keys = await this.loadKeys();
    if (choice === "public_key") return { serial: testWechatPublicKey.id, key: keys.publicKey };
    const current = this.state.currentCertificate;
    return { serial: testPlatformCertificates[current].serial, key: keys[current] };
  }

  /**
   * The key for an answer: the merchant's mode decides; during a migration ("both") the
   * request's `Wechatpay-Serial` chooses between the public key and the current certificate.
   */
  private answerKeyChoice(requestSerial: string | null): "public_key" | "certificate" {
    if (this.state.mode !== "both") return this.state.mode;
    const certificateSerials = [testPlatformCertificates.A.serial, testPlatformCertificates.B.serial];
    return requestSerial && certificateSerials.includes(requestSerial) ? "certificate" : "public_key";
  }

  private async signatureHeaders(body: string, signer: Signer, fault?: SimFault): Promise<Record<string, string>> {
    const keys = await this.loadKeys();
    let { serial, key } = signer;
    if (fault?.kind === "unknown_serial") ({ serial, key } = { serial: testRogueKey.serial, key: keys.rogue });
    if (fault?.kind === "wrong_key") key = keys.rogue;
    const timestamp = String(Math.floor(this.now() / 1000) + (fault?.kind === "skew" ? (fault.skewSeconds ?? 600) : 0));
    const nonce = randomHex(32);
    const signature = fault?.kind === "probe_signature" ? `${probePrefix}${randomAlphanumeric(20)}` : await sign(key, `${timestamp}\n${nonce}\n${body}\n`);
    return {
      "Wechatpay-Nonce": nonce,
      "Wechatpay-Signature": signature,
      "Wechatpay-Timestamp": timestamp,
      "Wechatpay-Serial": serial,
      "Wechatpay-Signature-Type": signatureType,
    };
  }

  private async respond(answer: Answer, request: Request, fault: SimFault | undefined): Promise<Response> {
    const text = answer.body === null ? "" : JSON.stringify(answer.body);
    const headers: Record<string, string> = { "Request-ID": randomHex(32).toUpperCase() };
    if (text) headers["Content-Type"] = "application/json; charset=utf-8";
    if (answer.signed && fault?.kind !== "unsigned") {
      const signer = await this.signer(this.answerKeyChoice(request.headers.get("Wechatpay-Serial")));
      Object.assign(headers, await this.signatureHeaders(text, signer, fault));
    }
    // A body changed after signing, as a meddling proxy would.
    const sent = fault?.kind === "tamper_body" && text ? text.replace(/}$/, ' }') : text;
    return new Response(answer.status === 204 ? null : sent, { status: answer.status, headers });
  }

  // ——— Payments, refunds and notifications ————————————————————————————————

  /** The payer scans (or confirms in WeChat) and pays: the order succeeds and a notification is queued. */
  pay(mchid: string, outTradeNo: string, input: { openid?: string; notify?: NotifyOptions } = {}): { ok: true; transaction: Record<string, unknown> } | { ok: false; status: number; error: string } {
    const order = this.state.orders[`${mchid}:${outTradeNo}`];
    if (!order) return { ok: false, status: 404, error: "ORDER_NOT_EXIST" };
    if (order.tradeState !== "NOTPAY") return { ok: false, status: 409, error: `ORDER_${order.tradeState}` };
    const now = this.now();
    if (now > order.linkExpiresAt) return { ok: false, status: 409, error: "PAYMENT_LINK_EXPIRED" };
    if (order.openid && input.openid && input.openid !== order.openid) return { ok: false, status: 409, error: "OPENID_MISMATCH" };
    order.tradeState = "SUCCESS";
    order.successTime = now;
    order.transactionId = `4200${compactCst(now).slice(0, 8)}${randomDigits(16)}`;
    order.payerOpenid = order.openid ?? input.openid ?? `o${randomAlphanumeric(27)}`;
    const transaction = this.transactionOf(order);
    this.queueNotification({
      url: order.notifyUrl,
      eventType: "TRANSACTION.SUCCESS",
      summary: "支付成功",
      originalType: "transaction",
      plaintext: transaction,
      outTradeNo,
      options: input.notify,
    });
    return { ok: true, transaction };
  }

  finishRefund(refund: SimRefund, status: "SUCCESS" | "ABNORMAL" | "CLOSED"): void {
    if (refund.status !== "PROCESSING") return;
    refund.status = status;
    if (status === "SUCCESS") refund.successTime = this.now();
    const order = this.state.orders[`${refund.mchid}:${refund.outTradeNo}`];
    if (order && status !== "SUCCESS") order.refundedTotal -= refund.refund;
    if (!refund.notifyUrl) return;
    const summary = { SUCCESS: "退款成功", ABNORMAL: "退款异常", CLOSED: "退款关闭" }[status];
    this.queueNotification({
      url: refund.notifyUrl,
      eventType: `REFUND.${status}`,
      summary,
      originalType: "refund",
      plaintext: {
        mchid: refund.mchid,
        out_trade_no: refund.outTradeNo,
        transaction_id: refund.transactionId,
        out_refund_no: refund.outRefundNo,
        refund_id: refund.refundId,
        refund_status: status,
        ...(refund.successTime === undefined ? {} : { success_time: cst(refund.successTime) }),
        user_received_account: "支付用户零钱",
        amount: { total: refund.total, refund: refund.refund, payer_total: refund.total, payer_refund: refund.refund },
      },
      outTradeNo: refund.outTradeNo,
      outRefundNo: refund.outRefundNo,
    });
  }

  private queueNotification(input: {
    url: string;
    eventType: string;
    summary: string;
    originalType: "transaction" | "refund";
    plaintext: Record<string, unknown>;
    outTradeNo: string;
    outRefundNo?: string;
    options?: NotifyOptions;
  }): void {
    const now = this.now();
    const id = crypto.randomUUID();
    const nonce = randomAlphanumeric(12);
    // Sealed once; every retry re-signs the same body with a new timestamp and nonce.
    const pending = seal(testMerchant.apiV3Key, nonce, input.originalType, JSON.stringify(input.plaintext)).then((ciphertext) =>
      JSON.stringify({
        id,
        create_time: cst(now),
        resource_type: "encrypt-resource",
        event_type: input.eventType,
        summary: input.summary,
        resource: { original_type: input.originalType, algorithm: "AEAD_AES_256_GCM", ciphertext, associated_data: input.originalType, nonce },
      }),
    );
    const delivery: SimDelivery = {
      id,
      url: input.url,
      body: "",
      eventType: input.eventType,
      outTradeNo: input.outTradeNo,
      ...(input.outRefundNo === undefined ? {} : { outRefundNo: input.outRefundNo }),
      createdAt: now,
      nextAttemptAt: now,
      failures: 0,
      delivered: false,
      gaveUp: false,
      probeAccepted: false,
      options: { ...this.state.notifyDefaults, ...input.options },
      attempts: [],
    };
    this.sealing.push(pending.then((body) => void (delivery.body = body)));
    this.state.deliveries.push(delivery);
    // Finished deliveries beyond the last 200 are forgotten, to keep the stored state small.
    const finished = this.state.deliveries.filter((item) => item.nextAttemptAt === null);
    if (finished.length > 200) {
      const forget = new Set(finished.slice(0, finished.length - 200));
      this.state.deliveries = this.state.deliveries.filter((item) => !forget.has(item));
    }
  }

  private sealing: Promise<void>[] = [];

  /** Waits for notification bodies still being sealed (state must not be stored half-made). */
  async settled(): Promise<void> {
    const pending = this.sealing;
    this.sealing = [];
    await Promise.all(pending);
  }

  private notificationKeyChoice(delivery: SimDelivery): "public_key" | "certificate" {
    if (delivery.options.signWith) return delivery.options.signWith;
    if (this.state.mode !== "both") return this.state.mode;
    this.state.alternation += 1;
    return this.state.alternation % 2 === 0 ? "public_key" : "certificate";
  }

  private async send(delivery: SimDelivery, fault?: FaultKind, skewSeconds?: number): Promise<{ status: number | "timeout" | "network_error"; serial: string }> {
    const signer = await this.signer(this.notificationKeyChoice(delivery));
    const signatureHeaders = await this.signatureHeaders(delivery.body, signer, fault ? { id: "notification", kind: fault, remaining: 0, ...(skewSeconds === undefined ? {} : { skewSeconds }) } : undefined);
    const headers = { "Content-Type": "application/json", "Request-ID": randomHex(32).toUpperCase(), ...signatureHeaders };
    const request = new Request(delivery.url, { method: "POST", headers, body: delivery.body });
    let timer: ReturnType<typeof setTimeout> | null = null;
    try {
      const outcome = await Promise.race([
        this.options.deliver(request).then(async (response) => {
          await response.body?.cancel();
          return response.status;
        }),
        new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), deliveryTimeoutMs);
        }),
      ]);
      return { status: outcome, serial: signatureHeaders["Wechatpay-Serial"]! };
    } catch {
      return { status: "network_error", serial: signatureHeaders["Wechatpay-Serial"]! };
    } finally {
      if (timer !== null) clearTimeout(timer);
    }
  }

  /** Makes every attempt that is due; 200 or 204 within 5 s counts as delivered. */
  async deliverDue(): Promise<Array<{ id: string; eventType: string; outTradeNo: string; attempts: SimDelivery["attempts"] }>> {
    await this.settled();
    this.tick();
    await this.settled();
    const now = this.now();
    const due = this.state.deliveries.filter((delivery) => delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now);
    // Claimed before sending, so a concurrent run does not send them again.
    for (const delivery of due) delivery.nextAttemptAt = null;
    const report = [];
    for (const delivery of due) {
      const made: SimDelivery["attempts"] = [];
      const received = (status: number | string) => status === 200 || status === 204;
      if (delivery.options.probeFirst && delivery.attempts.length === 0) {
        const probe = await this.send(delivery, "probe_signature");
        made.push({ at: now, status: probe.status, probe: true, serial: probe.serial });
        if (received(probe.status)) delivery.probeAccepted = true;
      } else {
        const first = !delivery.attempts.some((attempt) => !attempt.probe);
        const { skewFirstSeconds, unknownSerialFirst, duplicate } = delivery.options;
        const fault: FaultKind | undefined = first && unknownSerialFirst ? "unknown_serial" : first && skewFirstSeconds !== undefined ? "skew" : undefined;
        const copies = duplicate && first ? 2 : 1;
        const results = await Promise.all(Array.from({ length: copies }, () => this.send(delivery, fault, skewFirstSeconds)));
        results.forEach((result, index) => made.push({ at: now, status: result.status, probe: false, serial: result.serial, ...(index > 0 ? { duplicate: true } : {}) }));
        if (results.some((result) => received(result.status))) delivery.delivered = true;
      }
      delivery.attempts.push(...made);
      if (!delivery.delivered && !delivery.probeAccepted) {
        delivery.failures += 1;
        const wait = retryScheduleSeconds[delivery.failures - 1];
        if (wait === undefined) delivery.gaveUp = true;
        else delivery.nextAttemptAt = now + wait * 1000;
      }
      report.push({ id: delivery.id, eventType: delivery.eventType, outTradeNo: delivery.outTradeNo, attempts: made });
    }
    return report;
  }

  private sleep(ms: number): Promise<void> {
    return this.options.sleep ? this.options.sleep(ms) : new Promise((resolve) => setTimeout(resolve, ms));
  }

  // ——— Control endpoints ——————————————————————————————————————————————————

  private async control(request: Request, url: URL): Promise<Response> {
    const path = url.pathname.slice("/__simulator".length);
    const method = request.method.toUpperCase();
    const input = method === "POST" ? await request.json().catch(() => ({})) : {};
    const mchid = url.searchParams.get("mchid") ?? testMerchant.mchid;
    const json = (body: unknown, status = 200) => Response.json(body, { status });
    const bad = (issue: z.ZodError) => json({ error: "BAD_REQUEST", message: z.prettifyError(issue) }, 400);

    if (path === "/health" && method === "GET") return json({ ok: true, now: cst(this.now()) });
    if (path === "/state" && method === "GET") return json(this.state);
    if (path === "/reset" && method === "POST") {
      this.state = initialState();
      return json({ ok: true });
    }
    if (path === "/merchant-config" && method === "GET") {
      // What local emulation configures the origin with (TEST-ONLY keys).
      return json({
        mchid: testMerchant.mchid,
        appid: testMerchant.appid,
        merchantSerial: testMerchant.serial,
        merchantPrivateKeyPem: testMerchant.privateKeyPem,
        apiV3Key: testMerchant.apiV3Key,
        wechatPublicKey: { id: testWechatPublicKey.id, pem: testWechatPublicKey.publicKeyPem },
        platformCertificates: [testPlatformCertificates.A.certificatePem],
        mode: this.state.mode,
      });
    }
    if (path === "/clock" && method === "POST") {
      const parsed = z.strictObject({ advanceSeconds: z.number().optional(), offsetSeconds: z.number().optional() }).safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      if (parsed.data.offsetSeconds !== undefined) this.state.clockOffsetMs = parsed.data.offsetSeconds * 1000;
      if (parsed.data.advanceSeconds !== undefined) this.state.clockOffsetMs += parsed.data.advanceSeconds * 1000;
      this.tick();
      return json({ now: cst(this.now()), offsetSeconds: this.state.clockOffsetMs / 1000 });
    }
    if (path === "/mode" && method === "POST") {
      const parsed = z.strictObject({ mode: z.enum(["public_key", "certificate", "both"]) }).safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      this.state.mode = parsed.data.mode;
      return json({ mode: this.state.mode });
    }
    if (path === "/certificates/rotate" && method === "POST") {
      this.state.rotated = true;
      this.state.currentCertificate = "B";
      return json({ current: testPlatformCertificates.B.serial, issued: [testPlatformCertificates.A.serial, testPlatformCertificates.B.serial] });
    }
    if (path === "/faults" && method === "GET") return json({ faults: this.state.faults });
    if (path === "/faults" && method === "DELETE") {
      this.state.faults = [];
      return json({ faults: [] });
    }
    if (path === "/faults" && method === "POST") {
      const fault = z.strictObject({
        kind: z.enum(["status", "timeout", "probe_signature", "unsigned", "tamper_body", "skew", "unknown_serial", "wrong_key"]),
        method: z.enum(["GET", "POST"]).optional(),
        path: z.string().startsWith("/v3/").optional(),
        status: z.int().min(400).max(599).optional(),
        code: z.string().optional(),
        message: z.string().optional(),
        delayMs: z.int().min(0).max(120_000).optional(),
        skewSeconds: z.int().optional(),
        afterCommit: z.boolean().optional(),
        times: z.int().min(1).max(1000).default(1),
      });
      const parsed = z.union([z.strictObject({ faults: z.array(fault) }), fault]).safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      const added = ("faults" in parsed.data ? parsed.data.faults : [parsed.data]).map(({ times, ...rest }) => ({ id: crypto.randomUUID(), ...rest, remaining: times }));
      this.state.faults.push(...added);
      return json({ faults: this.state.faults });
    }
    if (path === "/notifications" && method === "GET") return json({ deliveries: this.state.deliveries });
    if (path === "/notifications/options" && method === "POST") {
      const parsed = notifyOptionsSchema.safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      this.state.notifyDefaults = parsed.data;
      return json({ notifyDefaults: this.state.notifyDefaults });
    }
    if (path === "/notifications/deliver" && method === "POST") return json({ delivered: await this.deliverDue() });

    const pay = /^\/orders\/([^/]+)\/pay$/.exec(path);
    if (pay && method === "POST") {
      const parsed = z.strictObject({ openid: z.string().min(1).optional(), notify: notifyOptionsSchema.optional() }).safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      const paid = this.pay(mchid, decodeURIComponent(pay[1]!), parsed.data);
      await this.settled();
      return paid.ok ? json({ transaction: paid.transaction }) : json({ error: paid.error }, paid.status);
    }
    const order = /^\/orders\/([^/]+)$/.exec(path);
    if (order && method === "GET") {
      const found = this.state.orders[`${mchid}:${decodeURIComponent(order[1]!)}`];
      return found ? json({ order: found, transaction: this.transactionOf(found) }) : json({ error: "ORDER_NOT_EXIST" }, 404);
    }
    const finish = /^\/refunds\/([^/]+)\/complete$/.exec(path);
    if (finish && method === "POST") {
      const parsed = z.strictObject({ status: z.enum(["SUCCESS", "ABNORMAL", "CLOSED"]).default("SUCCESS") }).safeParse(input);
      if (!parsed.success) return bad(parsed.error);
      const refund = this.state.refunds[`${mchid}:${decodeURIComponent(finish[1]!)}`];
      if (!refund) return json({ error: "RESOURCE_NOT_EXISTS" }, 404);
      if (refund.status !== "PROCESSING") return json({ error: `REFUND_${refund.status}` }, 409);
      this.finishRefund(refund, parsed.data.status);
      await this.settled();
      return json({ refund: this.refundOf(refund) });
    }
    if (path === "/jsapi/verify" && method === "POST") return json(await this.verifyPaySign(input, mchid));
    if (path === "/checkmweb" && method === "GET") return this.cashierPage(url, mchid);
    return json({ error: "NOT_FOUND" }, 404);
  }

  /**
   * What WeixinJSBridge checks before showing the cashier: the merchant's paySign over
   * appId, timeStamp, nonceStr and package, and a live prepay id (§10.13). With `pay`, the
   * payer also pays, as confirming in WeChat would.
   */
  async verifyPaySign(input: unknown, mchid: string): Promise<{ valid: boolean; reason?: string; outTradeNo?: string; transaction?: Record<string, unknown> }> {
    const parsed = z
      .object({
        appId: z.string(),
        timeStamp: z.string(),
        nonceStr: z.string(),
        package: z.string(),
        signType: z.string(),
        paySign: z.string(),
        pay: z.boolean().optional(),
        openid: z.string().optional(),
      })
      .safeParse(input);
    if (!parsed.success) return { valid: false, reason: "MISSING_PARAMETERS" };
    const params = parsed.data;
    if (params.signType !== "RSA") return { valid: false, reason: "SIGN_TYPE" };
    if (!/^\d{10}$/.test(params.timeStamp)) return { valid: false, reason: "TIMESTAMP" };
    const prepayId = /^prepay_id=(wx\w+)$/.exec(params.package)?.[1];
    const order = Object.values(this.state.orders).find((candidate) => candidate.mchid === mchid && candidate.prepayId === prepayId && candidate.tradeType === "JSAPI");
    if (!order) return { valid: false, reason: "PREPAY_ID" };
    if (order.appid !== params.appId) return { valid: false, reason: "APPID" };
    if (this.now() > order.linkExpiresAt) return { valid: false, reason: "PREPAY_ID_EXPIRED" };
    const keys = await this.loadKeys();
    const message = `${params.appId}\n${params.timeStamp}\n${params.nonceStr}\n${params.package}\n`;
    let valid = false;
    for (const serial of Object.keys(merchants[mchid]?.serials ?? {})) {
      const key = keys.merchants.get(`${mchid}:${serial}`);
      if (key && (await verify(key, message, params.paySign))) valid = true;
    }
    if (!valid) return { valid: false, reason: "PAY_SIGN" };
    if (!params.pay) return { valid: true, outTradeNo: order.outTradeNo };
    const paid = this.pay(mchid, order.outTradeNo, params.openid === undefined ? {} : { openid: params.openid });
    await this.settled();
    return paid.ok ? { valid: true, outTradeNo: order.outTradeNo, transaction: paid.transaction } : { valid: true, outTradeNo: order.outTradeNo, reason: paid.error };
  }

  /** A stand-in for WeChat Pay's H5 cashier in local emulation (`h5UrlBase` pointing here). */
  private cashierPage(url: URL, mchid: string): Response {
    const prepayId = url.searchParams.get("prepay_id") ?? "";
    const order = Object.values(this.state.orders).find((candidate) => candidate.mchid === mchid && candidate.prepayId === prepayId);
    const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
    const body = order
      ? `<h1>WeChat Pay simulator</h1><p>${escape(order.description)}</p><p>¥${(order.total / 100).toFixed(2)} — ${order.tradeState}</p>
<p>Use the control endpoint <code>POST /__simulator/orders/${escape(encodeURIComponent(order.outTradeNo))}/pay</code> to pay.</p>`
      : "<h1>WeChat Pay simulator</h1><p>This payment link is unknown.</p>";
    return new Response(`<!doctype html><meta charset="utf-8"><title>WeChat Pay simulator</title>${body}`, {
      status: order ? 200 : 404,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  }
}

const notifyOptionsSchema = z.strictObject({
  probeFirst: z.boolean().optional(),
  duplicate: z.boolean().optional(),
  signWith: z.enum(["public_key", "certificate"]).optional(),
  skewFirstSeconds: z.int().optional(),
  unknownSerialFirst: z.boolean().optional(),
});
