/**
 * Before a failed refund's money goes to a wallet, WeChat Pay is asked about it once more
 * (docs/decisions/048-failed-wechat-refunds.md): a refund that failed can still be paid out
 * at WeChat Pay's merchant platform, and a refused one may exist after all.
 */
import type { WechatPay } from "../wechat-pay/config";
import { applyRefundResult } from "../wechat-pay/payments/refunds";
import { wechatCall } from "../wechat-pay/payments/wechat-call";

/**
 * - `failed`: WeChat Pay reports it ABNORMAL or CLOSED for its amount, or knows no such refund
 *   (RESOURCE_NOT_EXISTS: none was ever made);
 * - `not_failed`: it reports the refund done or under way, or another amount; what it said is
 *   recorded as the cron would record it (a refund under way is followed again);
 * - `unclear`: no definite answer.
 */
export async function askWhetherStillFailed(
  db: D1Database,
  wechat: WechatPay,
  outRefundNo: string,
  amount: number,
  now: number,
): Promise<"failed" | "not_failed" | "unclear"> {
  const query = await wechatCall(() => wechat.client.queryRefund(outRefundNo));
  if (query.outcome === "failed") return query.code === "RESOURCE_NOT_EXISTS" ? "failed" : "unclear";
  if (query.outcome === "unknown") return "unclear";
  const refund = query.data;
  if (refund.amount.refund !== amount) {
    await applyRefundResult(db, outRefundNo, refund, now);
    return "not_failed";
  }
  if (refund.status === "ABNORMAL" || refund.status === "CLOSED") {
    await applyRefundResult(db, outRefundNo, refund, now);
    return "failed";
  }
  if (refund.status === "SUCCESS") {
    await applyRefundResult(db, outRefundNo, refund, now);
    return "not_failed";
  }
  // PROCESSING: under way after all (a refused refund WeChat Pay took later). The cron follows it.
  await db
    .prepare(
      `UPDATE wechat_refund SET status = 'processing', refund_id = coalesce(?1, refund_id), next_attempt_at = ?2, updated_at = ?2
       WHERE out_refund_no = ?3 AND status IN ('abnormal', 'closed', 'refused')`,
    )
    .bind(refund.refund_id, now, outRefundNo)
    .run();
  return "not_failed";
}
