/**
 * WeChat Pay's notifications to `notify_url`: a signed JSON envelope whose `resource` is
 * AEAD_AES_256_GCM-sealed with the APIv3 key (wechatpay-go `core/notify/notify.go`,
 * wechatpay-java `core/notification/NotificationParser.java`). Verify the signature over
 * the raw body first, then open the resource; answer 200/204 only once the effect is stored.
 */
import { aeadAesGcmDecrypt } from "./crypto";
import { verifyWechatSignature, type HeaderSource, type VerificationFailure } from "./verify";
import type { KeyRing } from "./key-ring";
import {
  notificationSchema,
  refundNoticeSchema,
  transactionSchema,
  type EncryptedResource,
  type Notification,
  type RefundNotice,
  type Transaction,
} from "./wire";

const aeadAlgorithm = "AEAD_AES_256_GCM";

export type NotificationVerification =
  | { ok: true; notification: Notification; serial: string }
  | { ok: false; reason: VerificationFailure | "malformed_body" };

export async function verifyNotification(
  headers: HeaderSource,
  rawBody: string,
  deps: { keys: Pick<KeyRing, "keyFor">; now: () => number },
): Promise<NotificationVerification> {
  const verified = await verifyWechatSignature(headers, rawBody, deps);
  if (!verified.ok) return verified;
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return { ok: false, reason: "malformed_body" };
  }
  const parsed = notificationSchema.safeParse(json);
  return parsed.success ? { ok: true, notification: parsed.data, serial: verified.serial } : { ok: false, reason: "malformed_body" };
}

export type DecryptedResource =
  | { ok: true; kind: "transaction"; plaintext: string; transaction: Transaction }
  | { ok: true; kind: "refund"; plaintext: string; refund: RefundNotice }
  | { ok: true; kind: "other"; plaintext: string; data: unknown }
  | { ok: false; reason: "unsupported_algorithm" | "decrypt_failed" | "malformed_plaintext" };

export async function decryptResource(resource: EncryptedResource, apiV3Key: string): Promise<DecryptedResource> {
  if (resource.algorithm !== aeadAlgorithm) return { ok: false, reason: "unsupported_algorithm" };
  const plaintext = await aeadAesGcmDecrypt({
    key: apiV3Key,
    nonce: resource.nonce,
    associatedData: resource.associated_data ?? "",
    ciphertext: resource.ciphertext,
  });
  if (plaintext === null) return { ok: false, reason: "decrypt_failed" };
  let data: unknown;
  try {
    data = JSON.parse(plaintext);
  } catch {
    return { ok: false, reason: "malformed_plaintext" };
  }
  if (resource.original_type === "transaction") {
    const parsed = transactionSchema.safeParse(data);
    return parsed.success
      ? { ok: true, kind: "transaction", plaintext, transaction: parsed.data }
      : { ok: false, reason: "malformed_plaintext" };
  }
  if (resource.original_type === "refund") {
    const parsed = refundNoticeSchema.safeParse(data);
    return parsed.success ? { ok: true, kind: "refund", plaintext, refund: parsed.data } : { ok: false, reason: "malformed_plaintext" };
  }
  return { ok: true, kind: "other", plaintext, data };
}
