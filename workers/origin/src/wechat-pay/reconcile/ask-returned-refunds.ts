/**
 * Refunds returned to a wallet, asked about again (docs/decisions/071-returned-refunds-asked-again.md).
 * A failed refund's money went back to its owner's wallet (decision 048), but WeChat Pay can
 * still pay it out when someone at the merchant platform handles the abnormal refund. Its
 * notification says so, and if every delivery were lost, the person would be paid twice with
 * nobody knowing. So the cron asks WeChat Pay about each returned refund: an hour after the
 * return (migration 0047 sets it), then daily for 30 days, then weekly until a year has
 * passed. A payout it reports is recorded as its notification would have been
 * (`applyRefundResult`), for finance to settle (decision 060).
 */
import * as Sentry from "../../error-reporting";
import type { WechatPay } from "../config";
import { applyRefundResult } from "../payments/refunds";
import { wechatCall } from "../payments/wechat-call";

const dayMs = 86_400_000;

/** When a returned refund is asked about, counted from its return. */
export const returnedRefundAsks = {
  /** Asked daily this long after the return, weekly after it. */
  dailyForMs: 30 * dayMs,
  /** Not asked any more this long after the return. */
  askedForMs: 365 * dayMs,
  /** After an ask WeChat Pay did not answer clearly: again this soon. */
  unclearAgainMs: 3_600_000,
} as const;

/** The next ask after one at `now` (`unclear`: not answered clearly), or null once the year is over. */
export function nextReturnedRefundAsk(returnedAt: number, now: number, { unclear = false } = {}): number | null {
  const end = returnedAt + returnedRefundAsks.askedForMs;
  if (now >= end) return null;
  const step = unclear ? returnedRefundAsks.unclearAgainMs : now - returnedAt < returnedRefundAsks.dailyForMs ? dayMs : 7 * dayMs;
  return Math.min(now + step, end);
}

/** A return whose ask is due, with its payment's whole amount (`total`), which no payout exceeds. */
type DueReturn = { out_refund_no: string; returned_at: number; total: number };

/** Asks WeChat Pay about at most `limit` returned refunds whose ask is due; how many it asked about. */
export async function askReturnedRefunds(db: D1Database, wechat: WechatPay, now: number, limit = 10): Promise<number> {
  const due = await db
    .prepare(
      `SELECT returned.out_refund_no, returned.returned_at, payment.amount AS total
       FROM wechat_refund_return AS returned
       JOIN wechat_refund USING (out_refund_no)
       JOIN payment ON payment.id = wechat_refund.payment_id
       WHERE returned.next_ask_at <= ?1 AND returned.late_success_at IS NULL ORDER BY returned.next_ask_at LIMIT ?2`,
    )
    .bind(now, limit)
    .all<DueReturn>();
  let asked = 0;
  for (const returned of due.results) {
    try {
      await askReturnedRefund(db, wechat, returned, now);
      asked += 1;
    } catch (error) {
      console.error(`Asking WeChat Pay about returned refund ${returned.out_refund_no} failed`, error);
      Sentry.captureException(error, { tags: { outRefundNo: returned.out_refund_no } });
      // Its turn moves on as after an unclear answer: a refund whose ask keeps failing must not
      // stay the most overdue and take the place of every other in each run.
      await scheduleNextAsk(db, returned, nextReturnedRefundAsk(returned.returned_at, now, { unclear: true })).catch((unscheduled) =>
        console.error(`Its next ask could not be set either`, unscheduled),
      );
    }
  }
  return asked;
}

async function askReturnedRefund(db: D1Database, wechat: WechatPay, returned: DueReturn, now: number): Promise<void> {
  const query = await wechatCall(() => wechat.client.queryRefund(returned.out_refund_no));
  // A payout is recorded on the return (late_success_at), which ends its asks below.
  if (query.outcome === "ok") await applyRefundResult(db, returned.out_refund_no, query.data, now);
  // A refusal that will not change (no such refund, say) waits its turn like an answer.
  const unclear = query.outcome === "unknown" || (query.outcome === "failed" && query.retryable);
  // WeChat Pay's SUCCESS is final: a payout it reports is not asked about again, recorded or
  // not (one for another amount than asked is only reported, decision 060). One that does not
  // add up for the payment is no answer to stop by.
  const paidOut = query.outcome === "ok" && query.data.status === "SUCCESS" && addsUp(query.data.amount?.refund ?? null, returned.total);
  await scheduleNextAsk(db, returned, paidOut ? null : nextReturnedRefundAsk(returned.returned_at, now, { unclear }));
}

/** Whether a reported payout (null: the amount asked) is one some refund of a payment of `total` could make. */
const addsUp = (refunded: number | null, total: number) => refunded === null || (refunded >= 1 && refunded <= total);

/** The next ask (none once its payout is recorded, or `next` is null). */
async function scheduleNextAsk(db: D1Database, returned: DueReturn, next: number | null): Promise<void> {
  await db
    .prepare(
      `UPDATE wechat_refund_return SET next_ask_at = CASE WHEN late_success_at IS NULL THEN ?1 END
       WHERE out_refund_no = ?2`,
    )
    .bind(next, returned.out_refund_no)
    .run();
}
