/**
 * Late and lost WeChat Pay events (issue #5): the cron asks WeChat Pay about every pending
 * payment from a minute after its creation (then 2, 4 … 10 minutes apart) and settles,
 * closes or gives it up; closes at WeChat Pay what closed here (cancel, expiry, paid another
 * way); pushes refunds on until WeChat Pay confirms them; and asks again about refunds
 * returned to a wallet, which WeChat Pay may still pay out (ask-returned-refunds.ts).
 */
import type { WechatPay } from "../config";
import { advanceWechatRefunds } from "./advance-refunds";
import { askReturnedRefunds } from "./ask-returned-refunds";
import { reconcileWechatPayments, type PaymentsRun } from "./reconcile-payments";

export type WechatRun = PaymentsRun & { refundsAdvanced: number; returnedRefundsAsked: number };

/** The cron's WeChat Pay run: pending payments first, then refunds, then returned refunds. */
export async function runWechatRules(db: D1Database, wechat: WechatPay, now: number): Promise<WechatRun> {
  const payments = await reconcileWechatPayments(db, wechat, now);
  const refundsAdvanced = await advanceWechatRefunds(db, wechat, now);
  const returnedRefundsAsked = await askReturnedRefunds(db, wechat, now);
  return { ...payments, refundsAdvanced, returnedRefundsAsked };
}
