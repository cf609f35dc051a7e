import * as Sentry from "../../error-reporting";
import type { WechatPay } from "../config";
import { duePendingPayments } from "../payments/payment-rows";
import { checkPayment } from "./check-payment";

export type PaymentsRun = { checked: number; settled: number; closed: number; refundsDue: number };

/** The pending payments of one order (after a cancel), or every one that is due (the cron). */
export async function reconcileWechatPayments(
  db: D1Database,
  wechat: WechatPay,
  now: number,
  { limit = 25, orderId }: { limit?: number; orderId?: string } = {},
): Promise<PaymentsRun> {
  const run = { checked: 0, settled: 0, closed: 0, refundsDue: 0 };
  for (const payment of await duePendingPayments(db, now, orderId === undefined ? { limit } : { limit, orderId })) {
    run.checked += 1;
    try {
      const result = await checkPayment(db, wechat, payment, now);
      if (result === "settled") run.settled += 1;
      if (result === "closed") run.closed += 1;
      if (result === "refund_due") run.refundsDue += 1;
    } catch (error) {
      // One payment must not hold up the others; it is asked about again next time.
      console.error(`Checking WeChat Pay payment ${payment.out_trade_no} failed`, error);
      Sentry.captureException(error, { tags: { outTradeNo: payment.out_trade_no } });
    }
  }
  return run;
}
