/** What a WeChat Pay client is made with: the merchant's configuration, and what tests replace. */
import { z } from "zod";
import { utf8 } from "./crypto";
import { notifyUrlSchema } from "./wire";

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
  .refine(
    (config) => config.wechatPublicKey || config.platformCertificates.length > 0,
    "Configure the WeChat Pay public key or platform certificates",
  );

export type WechatPayConfig = z.input<typeof wechatPayConfigSchema>;

export type WechatPayDeps = {
  fetch?: (request: Request) => Promise<Response>;
  now?: () => number;
  /** The whole exchange, answer body included; default 10 s. */
  timeoutMs?: number;
  nonce?: () => string;
};
