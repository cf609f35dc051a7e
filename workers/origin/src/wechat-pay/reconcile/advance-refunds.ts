import * as Sentry from "../../error-reporting";
import type { WechatPay } from "../config";
import { applyRefundResult, dueRefunds, type RefundRow, requestRefund } from "../payments/refunds";
import { wechatCall } from "../payments/wechat-call";

/**
 * One refund: requested again with the same out_refund_no when due, queried when processing.
 * `outOfTurn` for an operator's ask: a refusal then counts towards no give-up (refunds.ts).
 */
export async function advanceWechatRefund(
  db: D1Database,
  wechat: WechatPay,
  refund: RefundRow,
  now: number,
  turn: { outOfTurn?: boolean } = {},
): Promise<void> {
  if (refund.status === "due") {
    await requestRefund(db, wechat.client, refund, now, turn);
    return;
  }
  const query = await wechatCall(() => wechat.client.queryRefund(refund.out_refund_no));
  if (query.outcome === "ok") await applyRefundResult(db, refund.out_refund_no, query.data, now);
  else await applyRefundResult(db, refund.out_refund_no, { status: "PROCESSING", out_refund_no: refund.out_refund_no }, now);
}

/** Refunds due (requested again with the same out_refund_no) and processing (queried). */
export async function advanceWechatRefunds(db: D1Database, wechat: WechatPay, now: number, limit = 25): Promise<number> {
  let advanced = 0;
  for (const refund of await dueRefunds(db, now, limit)) {
    try {
      await advanceWechatRefund(db, wechat, refund, now);
      advanced += 1;
    } catch (error) {
      console.error(`Advancing WeChat Pay refund ${refund.out_refund_no} failed`, error);
      Sentry.captureException(error, { tags: { outRefundNo: refund.out_refund_no } });
    }
  }
  return advanced;
}
