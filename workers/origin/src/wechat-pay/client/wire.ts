/**
 * WeChat Pay API v3's wire formats, as far as Paydesk uses them (not part of the Paydesk
 * contract). Field names and optionality follow the official SDKs' generated models
 * (wechatpay-go `services/payments/*`, `services/refunddomestic/models.go`; wechatpay-java
 * `service/refund/model/RefundNotification.java`). Requests are strict: WeChat refuses
 * undocumented fields. Answers are loose: WeChat may add fields at any time.
 */
import { z } from "zod";

/** `[0-9A-Za-z_-|*]`, 6–32 characters, unique per merchant. */
export const outTradeNoSchema = z.string().regex(/^[0-9A-Za-z_\-|*]{6,32}$/);
/** Up to 64 of `[0-9A-Za-z_-|*@]` (wechatpay-java RefundNotification's description of out_refund_no). */
export const outRefundNoSchema = z.string().regex(/^[0-9A-Za-z_\-|*@]{1,64}$/);

/** WeChat Pay refuses 4-byte UTF-8 (emoji and other astral characters) in text fields. */
const bmpText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !/[\u{10000}-\u{10FFFF}]/u.test(text), "4-byte UTF-8 characters are refused by WeChat Pay");

/** RFC 3339 with seconds and an explicit offset, as WeChat Pay writes it: `2026-11-21T20:30:00+08:00`. */
const wechatTimeSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/);

/**
 * https, no query string, at most 255 characters. Plain http only for loopback hosts, so local
 * emulation against the simulator can notify the dev server (WeChat Pay itself refuses http).
 */
export const notifyUrlSchema = z
  .string()
  .max(255)
  .refine((text) => {
    try {
      const url = new URL(text);
      const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
      return (url.protocol === "https:" || (url.protocol === "http:" && loopback)) && url.search === "" && url.hash === "";
    } catch {
      return false;
    }
  }, "notify_url must be an https URL without a query string");

const amountRequestSchema = z.strictObject({ total: z.int().min(1), currency: z.literal("CNY").optional() });

const prepayCommon = {
  appid: z.string().min(1).max(32),
  mchid: z.string().min(1).max(32),
  description: bmpText(127),
  out_trade_no: outTradeNoSchema,
  time_expire: wechatTimeSchema.optional(),
  attach: bmpText(128).optional(),
  notify_url: notifyUrlSchema,
  amount: amountRequestSchema,
};

export const nativePrepayRequestSchema = z.strictObject(prepayCommon);
export const jsapiPrepayRequestSchema = z.strictObject({
  ...prepayCommon,
  payer: z.strictObject({ openid: z.string().min(1).max(128) }),
});
/**
 * H5 scene types. wechatpay-go's H5Info.Type is a free string ("场景类型"); these are the
 * documentation's values (its bundle_id / package_name fields belong to iOS / Android).
 */
const h5SceneTypes = ["Wap", "iOS", "Android"] as const;
export const h5PrepayRequestSchema = z.strictObject({
  ...prepayCommon,
  scene_info: z.strictObject({
    payer_client_ip: z.union([z.ipv4(), z.ipv6()]),
    h5_info: z.strictObject({
      type: z.enum(h5SceneTypes),
      app_name: z.string().min(1).max(64).optional(),
      app_url: z.string().min(1).max(128).optional(),
    }),
  }),
});

export const nativePrepayAnswerSchema = z.looseObject({ code_url: z.string().startsWith("weixin://") });
export const h5PrepayAnswerSchema = z.looseObject({ h5_url: z.url() });
export const jsapiPrepayAnswerSchema = z.looseObject({ prepay_id: z.string().min(1).max(64) });

const tradeStates = ["SUCCESS", "REFUND", "NOTPAY", "CLOSED", "REVOKED", "USERPAYING", "PAYERROR", "ACCEPT"] as const;
const tradeTypes = ["JSAPI", "NATIVE", "APP", "MICROPAY", "MWEB", "FACEPAY"] as const;

/** A payment as query answers and TRANSACTION.* notifications carry it; NOTPAY has no transaction_id, payer or success_time. */
export const transactionSchema = z.looseObject({
  appid: z.string(),
  mchid: z.string(),
  out_trade_no: z.string(),
  transaction_id: z.string().optional(),
  trade_type: z.enum(tradeTypes).optional(),
  trade_state: z.enum(tradeStates),
  trade_state_desc: z.string().optional(),
  bank_type: z.string().optional(),
  attach: z.string().optional(),
  success_time: z.string().optional(),
  payer: z.looseObject({ openid: z.string().optional() }).optional(),
  amount: z
    .looseObject({
      total: z.int().optional(),
      payer_total: z.int().optional(),
      currency: z.string().optional(),
      payer_currency: z.string().optional(),
    })
    .optional(),
  promotion_detail: z.array(z.looseObject({})).optional(),
});
export type Transaction = z.infer<typeof transactionSchema>;

const refundStatuses = ["SUCCESS", "CLOSED", "PROCESSING", "ABNORMAL"] as const;

export const refundRequestSchema = z.strictObject({
  transaction_id: z.string().min(1).max(32).optional(),
  out_trade_no: outTradeNoSchema.optional(),
  out_refund_no: outRefundNoSchema,
  reason: bmpText(80).optional(),
  notify_url: notifyUrlSchema.optional(),
  amount: z.strictObject({ refund: z.int().min(1), total: z.int().min(1), currency: z.literal("CNY") }),
});

const refundAmountSchema = z.looseObject({
  total: z.int(),
  refund: z.int(),
  payer_total: z.int().optional(),
  payer_refund: z.int().optional(),
  settlement_refund: z.int().optional(),
  settlement_total: z.int().optional(),
  discount_refund: z.int().optional(),
  currency: z.string().optional(),
});

/** A refund as the refund and refund-query answers carry it. */
export const refundSchema = z.looseObject({
  refund_id: z.string(),
  out_refund_no: z.string(),
  transaction_id: z.string(),
  out_trade_no: z.string(),
  channel: z.string().optional(),
  user_received_account: z.string().optional(),
  success_time: z.string().optional(),
  create_time: z.string(),
  status: z.enum(refundStatuses),
  funds_account: z.string().optional(),
  amount: refundAmountSchema,
});
export type Refund = z.infer<typeof refundSchema>;

/** The plaintext of a REFUND.* notification: `refund_status` where the answers say `status`; mchid present in practice. */
export const refundNoticeSchema = z.looseObject({
  mchid: z.string().optional(),
  refund_id: z.string(),
  out_refund_no: z.string(),
  transaction_id: z.string(),
  out_trade_no: z.string(),
  refund_status: z.enum(refundStatuses),
  success_time: z.string().optional(),
  user_received_account: z.string().optional(),
  amount: refundAmountSchema,
});
export type RefundNotice = z.infer<typeof refundNoticeSchema>;

const encryptedResourceSchema = z.looseObject({
  algorithm: z.string(),
  ciphertext: z.string(),
  nonce: z.string(),
  associated_data: z.string().optional(),
  original_type: z.string().optional(),
});
export type EncryptedResource = z.infer<typeof encryptedResourceSchema>;

export const notificationSchema = z.looseObject({
  id: z.string(),
  create_time: z.string(),
  event_type: z.string(),
  resource_type: z.string(),
  summary: z.string().optional(),
  resource: encryptedResourceSchema,
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /v3/certificates` (wechatpay-go `core/downloader/models.go`). */
export const certificatesAnswerSchema = z.looseObject({
  data: z.array(
    z.looseObject({
      serial_no: z.string(),
      effective_time: z.string().optional(),
      expire_time: z.string().optional(),
      encrypt_certificate: encryptedResourceSchema,
    }),
  ),
});

export const errorAnswerSchema = z.looseObject({ code: z.string(), message: z.string().optional(), detail: z.unknown().optional() });
