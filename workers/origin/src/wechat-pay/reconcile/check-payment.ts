/**
 * One pending WeChat Pay payment, asked about: settled from WeChat Pay's answer, closed at
 * WeChat Pay when its order is over here, or asked about again later.
 */
import * as Sentry from "../../error-reporting";
import type { WechatPay } from "../config";
import {
  checkAfterCreate,
  checkLater,
  isBeingCreated,
  markPaymentAbsent,
  markPaymentFailed,
  type WechatPaymentRow,
} from "../payments/payment-rows";
import { requestRefund } from "../payments/refunds";
import { settleWechatSuccess, type Settlement } from "../payments/settle-success";
import { wechatCall } from "../payments/wechat-call";

/** What became of one pending payment. */
export type PaymentCheck = "settled" | "refund_due" | "closed" | "later" | "mismatch";

/** After a settlement that made a refund due, ask for it now (the cron retries it otherwise). */
async function afterSettlement(db: D1Database, wechat: WechatPay, settlement: Settlement, now: number): Promise<void> {
  if (settlement.outcome === "refund_due") await requestRefund(db, wechat.client, settlement.refund, now);
  if (settlement.outcome === "amount_mismatch") {
    Sentry.captureMessage(
      `WeChat Pay reports another amount for ${settlement.payment.out_trade_no}: not settled, an operator must look`,
      "error",
    );
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
        await db
          .prepare("UPDATE payment SET remote_state = 'mismatch', next_check_at = NULL WHERE id = ?1 AND status = 'pending'")
          .bind(payment.id)
          .run();
        Sentry.captureMessage(`WeChat Pay order ${payment.out_trade_no} was refunded outside Paydesk before it settled`, "error");
        return "mismatch";
      default:
        // NOTPAY, USERPAYING, ACCEPT, PAYERROR: not (yet) paid.
        await checkLater(db, payment, now, "open");
        return "later";
    }
  }
  if (query.outcome === "failed" && query.code === "ORDER_NOT_EXIST" && payment.order_status !== "pending") {
    // Never created at WeChat Pay, and our order is over: nothing can be paid any more —
    // unless a create is still on its way, which may land after this answer.
    if (isBeingCreated(payment, now)) return createStillLanding(db, payment, now);
    if (await markPaymentAbsent(db, payment, now)) return "closed";
  }
  await checkLater(db, payment, now);
  return "later";
}

/** A create on its way may still land at WeChat Pay: asked about again once it no longer can (decision 004). */
async function createStillLanding(db: D1Database, payment: WechatPaymentRow, now: number): Promise<PaymentCheck> {
  await checkAfterCreate(db, payment, now);
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
      // Closing before the create lands does not stop the create: the payment waits for it.
      if (isBeingCreated(payment, now)) return createStillLanding(db, payment, now);
      if (await markPaymentAbsent(db, payment, now)) return "closed";
      // A create was asked since the payment was read, and may still land: ask again later.
      await checkLater(db, payment, now);
      return "later";
    }
    if (close.outcome !== "failed" || close.retryable) {
      // Unknown or rate-limited: try again later; WeChat Pay closes it at time_expire anyway.
      await checkLater(db, payment, now);
      return "later";
    }
    // Refused for good (paid, already closed, …): what WeChat Pay holds decides, as for any
    // payment. A refusal that left it open would be asked about forever otherwise.
  }
  return settleFromQuery(db, wechat, payment, now);
}
