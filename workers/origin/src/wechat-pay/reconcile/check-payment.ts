/**
 * Late and lost WeChat Pay events (issue #5): the cron asks WeChat Pay about every pending
 * payment from a minute after its creation (then 2, 4 … 10 minutes apart) and settles,
 * closes or gives it up; closes at WeChat Pay what closed here (cancel, expiry, paid another
 * way); and pushes refunds on until WeChat Pay confirms them.
 */
import * as Sentry from "@sentry/cloudflare";
import type { WechatPay } from "./wechat-config";
import {
  applyRefundResult,
  checkLater,
  duePendingPayments,
  dueRefunds,
  markPaymentFailed,
  requestRefund,
  settleWechatSuccess,
  wechatCall,
  type Settlement,
  type WechatPaymentRow,
} from "./wechat-payments";

export type WechatRun = { checked: number; settled: number; closed: number; refundsDue: number; refundsAdvanced: number };

/** What became of one pending payment. */
export type PaymentCheck = "settled" | "refund_due" | "closed" | "later" | "mismatch";

/** After a settlement that made a refund due, ask for it now (the cron retries it otherwise). */
export async function afterSettlement(db: D1Database, wechat: WechatPay, settlement: Settlement, now: number): Promise<void> {
  if (settlement.outcome === "refund_due") await requestRefund(db, wechat.client, settlement.refund, now);
  if (settlement.outcome === "amount_mismatch") {
    Sentry.captureMessage(`WeChat Pay reports another amount for ${settlement.payment.out_trade_no}: not settled, an operator must look`, "error");
  }
}

async function settleFromQuery(db: D1Database, wechat: WechatPay, payment: WechatPaymentRow, now: number): Promise<PaymentCheck> {
  const query = await wechatCall(() => wechat.client.queryOrder(payment.out_trade_no));
  if (query.outcome === "ok") {
    const transaction = query.data;
    if (transaction.out_trade_no !== payment.out_trade_no || transaction.mchid !== wechat.client.config.mchid) {
      await checkLater(db, payment, now);
      return "later";
    }
    switch (transaction.trade_state) {
      case "SUCCESS": {
        const settlement = await settleWechatSuccess(db, transaction, now);
        await afterSettlement(db, wechat, settlement, now);
        if (settlement.outcome === "amount_mismatch") return "mismatch";
        return settlement.outcome === "refund_due" || settlement.outcome === "refund_already_due" ? "refund_due" : "settled";
      }
      case "CLOSED":
      case "REVOKED":
        await markPaymentFailed(db, payment.id, "closed", now);
        return "closed";
      case "REFUND":
        // Paid and refunded at WeChat Pay by someone else (the merchant platform): not ours to book.
        await db.prepare("UPDATE payment SET remote_state = 'mismatch', next_check_at = NULL WHERE id = ?1 AND status = 'pending'").bind(payment.id).run();
        Sentry.captureMessage(`WeChat Pay order ${payment.out_trade_no} was refunded outside Paydesk before it settled`, "error");
        return "mismatch";
      default:
        // NOTPAY, USERPAYING, ACCEPT, PAYERROR: not (yet) paid.
        await checkLater(db, payment, now, "open");
        return "later";
    }
  }
  if (query.outcome === "failed" && query.code === "ORDER_NOT_EXIST" && payment.order_status !== "pending") {
    // Never created at WeChat Pay, and our order is over: nothing can be paid any more.
    await markPaymentFailed(db, payment.id, "absent", now);
    return "closed";
  }
  await checkLater(db, payment, now);
  return "later";
}

/**
 * One pending payment: if its order is over here, close it at WeChat Pay (only an ok close
 * marks it closed; a paid one is settled, which refunds it); otherwise query it.
 */
export async function checkPayment(db: D1Database, wechat: WechatPay, payment: WechatPaymentRow, now: number): Promise<PaymentCheck> {
  if (payment.order_status !== "pending") {
    const close = await wechatCall(() => wechat.client.closeOrder(payment.out_trade_no));
    if (close.outcome === "ok") {
      await markPaymentFailed(db, payment.id, "closed", now);
      return "closed";
    }
    if (close.outcome === "failed" && close.code === "ORDER_NOT_EXIST") {
      await markPaymentFailed(db, payment.id, "absent", now);
      return "closed";
    }
    if (!(close.outcome === "failed" && close.code === "ORDER_PAID")) {
      // Unknown, rate-limited or refused: try again later; WeChat Pay closes it at time_expire anyway.
      await checkLater(db, payment, now);
      return "later";
    }
  }
  return settleFromQuery(db, wechat, payment, now);
}

/** The pending payments of one order (after a cancel), or every one that is due (the cron). */
export async function reconcileWechatPayments(
  db: D1Database,
  wechat: WechatPay,
  now: number,
  { limit = 25, orderId }: { limit?: number; orderId?: string } = {},
): Promise<Pick<WechatRun, "checked" | "settled" | "closed" | "refundsDue">> {
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

/** Refunds due (requested again with the same out_refund_no) and processing (queried). */
export async function advanceWechatRefunds(db: D1Database, wechat: WechatPay, now: number, limit = 25): Promise<number> {
  let advanced = 0;
  for (const refund of await dueRefunds(db, now, limit)) {
    try {
      if (refund.status === "due") {
        await requestRefund(db, wechat.client, refund, now);
      } else {
        const query = await wechatCall(() => wechat.client.queryRefund(refund.out_refund_no));
        if (query.outcome === "ok") await applyRefundResult(db, refund.out_refund_no, query.data, now);
        else await applyRefundResult(db, refund.out_refund_no, { status: "PROCESSING", out_refund_no: refund.out_refund_no }, now);
      }
      advanced += 1;
    } catch (error) {
      console.error(`Advancing WeChat Pay refund ${refund.out_refund_no} failed`, error);
      Sentry.captureException(error, { tags: { outRefundNo: refund.out_refund_no } });
    }
  }
  return advanced;
}

export async function runWechatRules(db: D1Database, wechat: WechatPay, now: number): Promise<WechatRun> {
  const payments = await reconcileWechatPayments(db, wechat, now);
  const refundsAdvanced = await advanceWechatRefunds(db, wechat, now);
  return { ...payments, refundsAdvanced };
}
