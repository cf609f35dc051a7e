/**
 * The simulator's checks of request bodies, as WeChat Pay's documentation states them
 * (docs/decisions/004-wechat-pay.md §3 and §10.4): required fields, lengths, patterns,
 * integer fen ≥ 1 in CNY, RFC 3339 times, https notify URLs without a query, no nulls,
 * no undocumented fields, no 4-byte UTF-8. Written apart from the client's schemas on purpose.
 */
import { z } from "zod";

const noAstral = (text: string) => !/[\u{10000}-\u{10FFFF}]/u.test(text);
const text = (min: number, max: number) => z.string().min(min).max(max).refine(noAstral, "不支持4字节UTF-8字符");

export const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * https, no query string, at most 255. Plain http is let through for loopback hosts only,
 * so local emulation can reach the origin (WeChat Pay itself would refuse it).
 */
const notifyUrl = z
  .string()
  .max(255)
  .refine((value) => {
    try {
      const url = new URL(value);
      const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
      return (url.protocol === "https:" || (url.protocol === "http:" && loopback)) && url.search === "" && url.hash === "";
    } catch {
      return false;
    }
  }, "notify_url须为https地址且不能携带参数");

const outTradeNo = z.string().regex(/^[0-9A-Za-z_\-|*]{6,32}$/, "out_trade_no须为6-32位数字、大小写字母_-|*");

const common = {
  appid: z.string().min(1).max(32),
  mchid: z.string().min(1).max(32),
  description: text(1, 127),
  out_trade_no: outTradeNo,
  time_expire: z.string().regex(rfc3339, "time_expire须为rfc3339格式").optional(),
  attach: text(1, 128).optional(),
  notify_url: notifyUrl,
  goods_tag: z.string().min(1).max(32).optional(),
  support_fapiao: z.boolean().optional(),
  amount: z.strictObject({ total: z.int().min(1).max(100_000_000_00), currency: z.literal("CNY").optional() }),
  detail: z.looseObject({}).optional(),
  settle_info: z.strictObject({ profit_sharing: z.boolean().optional() }).optional(),
};

const sceneInfo = {
  payer_client_ip: z.union([z.ipv4(), z.ipv6()]),
  device_id: z.string().min(1).max(32).optional(),
  store_info: z.looseObject({}).optional(),
};

export const nativeRequest = z.strictObject({ ...common, scene_info: z.strictObject(sceneInfo).optional() });
export const jsapiRequest = z.strictObject({
  ...common,
  payer: z.strictObject({ openid: z.string().min(1).max(128) }),
  scene_info: z.strictObject(sceneInfo).optional(),
});
export const h5Request = z.strictObject({
  ...common,
  scene_info: z.strictObject({
    ...sceneInfo,
    h5_info: z.strictObject({
      type: z.enum(["Wap", "iOS", "Android"]),
      app_name: z.string().min(1).max(64).optional(),
      app_url: z.string().min(1).max(128).optional(),
      bundle_id: z.string().min(1).max(128).optional(),
      package_name: z.string().min(1).max(128).optional(),
    }),
  }),
});

export const closeRequest = z.strictObject({ mchid: z.string().min(1).max(32) });

export const refundRequest = z
  .strictObject({
    transaction_id: z.string().min(1).max(32).optional(),
    out_trade_no: outTradeNo.optional(),
    out_refund_no: z.string().regex(/^[0-9A-Za-z_\-|*@]{1,64}$/, "out_refund_no须为1-64位数字、大小写字母_-|*@"),
    reason: text(1, 80).optional(),
    notify_url: notifyUrl.optional(),
    funds_account: z.literal("AVAILABLE").optional(),
    amount: z.strictObject({
      refund: z.int().min(1),
      total: z.int().min(1),
      currency: z.literal("CNY"),
      from: z.array(z.looseObject({})).optional(),
    }),
    goods_detail: z.array(z.looseObject({})).optional(),
  })
  .refine((body) => (body.transaction_id === undefined) !== (body.out_trade_no === undefined), "transaction_id与out_trade_no须二选一");

/** WeChat Pay's PARAM_ERROR names the first offending field. */
export function paramError(error: z.ZodError): { message: string; detail: { location: string; field: string } } {
  const issue = error.issues[0];
  const field = issue ? `/body/${issue.path.join("/")}` : "/body";
  return { message: `输入源“${field}”校验失败：${issue?.message ?? "参数错误"}`, detail: { location: "body", field } };
}

/** `null` anywhere is refused: WeChat Pay wants an absent field, not a null one. */
export function containsNull(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some(containsNull);
  if (typeof value === "object") return Object.values(value as Record<string, unknown>).some(containsNull);
  return false;
}
