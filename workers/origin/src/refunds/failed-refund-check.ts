/**
 * Before a failed refund's money goes to a wallet, WeChat Pay is asked about it once more
 * (docs/decisions/048-failed-wechat-refunds.md): a refund that failed can still be paid out
 * at WeChat Pay's merchant platform, and a refused one may exist after all.
 */
import type { WechatPay } from "../wechat-pay/config";
import { failedRefundStatusList, type RefundStatus, refundReturnedSql } from "../wechat-pay/payments/refund-states";
import { applyRefundResult } from "../wechat-pay/payments/refunds";
import { wechatCall } from "../wechat-pay/payments/wechat-call";

/**
 * - `failed`: WeChat Pay reports it ABNORMAL or CLOSED for its amount, or, for a refund it
 *   refused every time, knows no such refund (RESOURCE_NOT_EXISTS: none was ever made; for a
 *   refund it reported itself, that answer means a wrong merchant, so it is `unclear`);
 * - `not_failed`: it reports the refund done or under way, or another amount; what it said is
 *   recorded as the cron would record it (a refund under way is followed again);
 * - `unclear`: no definite answer.
 */
export async function askWhetherStillFailed(
  db: D1Database,
  wechat: WechatPay,
  refund: { outRefundNo: string; amount: number; status: RefundStatus },
  now: number,
): Promise<"failed" | "not_failed" | "unclear"> {
  const { outRefundNo, amount } = refund;
  const query = await wechatCall(() => wechat.client.queryRefund(outRefundNo));
  if (query.outcome === "failed") return query.code === "RESOURCE_NOT_EXISTS" && refund.status === "refused" ? "failed" : "unclear";
  if (query.outcome === "unknown") return "unclear";
  const reported = query.data;
  if (reported.status === "PROCESSING" && reported.amount.refund === amount) {
    // Under way after all (a refused refund WeChat Pay took later): the cron follows it again.
    // Not one returned meanwhile by another operator, whose state is final.
    await db
      .prepare(
        `UPDATE wechat_refund SET status = 'processing', refund_id = coalesce(?1, refund_id), next_attempt_at = ?2, updated_at = ?2
         WHERE out_refund_no = ?3 AND status IN ${failedRefundStatusList} AND NOT ${refundReturnedSql("wechat_refund.out_refund_no")}`,
      )
      .bind(reported.refund_id, now, outRefundNo)
      .run();
    return "not_failed";
  }
  // Recorded as the cron would: a success is booked, another amount parks the refund.
  await applyRefundResult(db, outRefundNo, reported, now);
  const failedForItsAmount = reported.amount.refund === amount && (reported.status === "ABNORMAL" || reported.status === "CLOSED");
  return failedForItsAmount ? "failed" : "not_failed";
}
