/**
 * A notification from WeChat Pay, checked, stored and acted on: a payment settled (or its
 * refund requested), or a refund's result recorded.
 */
import * as Sentry from "../../error-reporting";
import type { Context } from "hono";
import { afterAnswer } from "../../http/after-answer";
import type { OriginEnv } from "../../origin-env";
import { applyRefundResult, findRefund, requestRefund } from "../payments/refunds";
import { settleWechatSuccess } from "../payments/settle-success";

/** Not received: WeChat Pay sends it again (15 s, 15 s, 30 s, 3 min … for about a day). */
export function notReceived(status: 400 | 401 | 404 | 422 | 500, message = "失败"): Response {
  return Response.json({ code: "FAIL", message }, { status });
}

type Outcome =
  | "settled"
  | "refund_due"
  | "already_settled"
  | "ignored"
  | "unknown_order"
  | "amount_mismatch"
  | "refund_recorded"
  | "unknown_refund";

async function recordOutcome(db: D1Database, id: string, outcome: Outcome): Promise<void> {
  // The first decision stays; a later delivery may only resolve one that decided nothing.
  await db
    .prepare(
      "UPDATE wechat_notification SET outcome = ?1 WHERE id = ?2 AND outcome IN ('received', 'unknown_order', 'amount_mismatch', 'unknown_refund')",
    )
    .bind(outcome, id)
    .run();
}

/**
 * POST /api/payments/wechat/notify and /refund-notify. The signature (over the raw body,
 * timestamp within 5 minutes; probes `WECHATPAY/SIGNTEST/…` refused) and the resource (AEAD
 * with the APIv3 key, mchid/appid ours) are checked first; a notification that fails is
 * answered 401 and not stored. A verified one is stored (counted per delivery), then acted
 * on — once, whatever the number of deliveries — and answered 204 only after that.
 */
export async function receiveNotification(c: Context<OriginEnv>): Promise<Response> {
  const wechat = await c.var.wechatPay();
  // Nobody here gave WeChat Pay this address: a 4xx, which WeChat Pay would also send again.
  if (!wechat) return notReceived(404, "WeChat Pay is not configured here");
  const raw = await c.req.text();
  const read = await wechat.client
    .readNotification(c.req.raw.headers, raw)
    .catch(() => ({ ok: false as const, reason: "malformed_body" as const }));
  if (!read.ok) {
    console.warn(`Refused a WeChat Pay notification: ${read.reason}`);
    return notReceived(401, "签名验证失败");
  }
  const db = c.env.DB;
  const now = c.var.clock.now();
  const { notification } = read;
  const resource = read.kind === "transaction" ? read.transaction : read.refund;
  await db
    .prepare(
      `INSERT INTO wechat_notification (id, event_type, resource_type, out_trade_no, out_refund_no, resource, first_received_at, last_received_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
       ON CONFLICT (id) DO UPDATE SET deliveries = deliveries + 1, last_received_at = excluded.last_received_at`,
    )
    .bind(
      notification.id.slice(0, 128),
      notification.event_type.slice(0, 64),
      read.kind,
      resource.out_trade_no,
      read.kind === "refund" ? read.refund.out_refund_no : null,
      JSON.stringify(resource).slice(0, 16_384),
      now,
    )
    .run();

  if (read.kind === "transaction") {
    const transaction = read.transaction;
    if (notification.event_type !== "TRANSACTION.SUCCESS" || transaction.trade_state !== "SUCCESS") {
      await recordOutcome(db, notification.id, "ignored");
      return new Response(null, { status: 204 });
    }
    const settlement = await settleWechatSuccess(db, transaction, now);
    switch (settlement.outcome) {
      case "unknown_order":
        await recordOutcome(db, notification.id, "unknown_order");
        Sentry.captureMessage(`WeChat Pay notified a payment of an unknown order ${transaction.out_trade_no}`, "error");
        return notReceived(404, "订单不存在");
      case "amount_mismatch":
        await recordOutcome(db, notification.id, "amount_mismatch");
        Sentry.captureMessage(`WeChat Pay notified another amount for ${transaction.out_trade_no}: not settled`, "error");
        return notReceived(422, "金额不一致");
      case "refund_due":
        await recordOutcome(db, notification.id, "refund_due");
        await afterAnswer(c, "WeChat Pay refund", () => requestRefund(db, wechat.client, settlement.refund, now));
        return new Response(null, { status: 204 });
      case "settled":
        await recordOutcome(db, notification.id, "settled");
        return new Response(null, { status: 204 });
      default:
        await recordOutcome(db, notification.id, "already_settled");
        return new Response(null, { status: 204 });
    }
  }

  const notice = read.refund;
  const refund = await findRefund(db, notice.out_refund_no);
  if (!refund || refund.out_trade_no !== notice.out_trade_no) {
    await recordOutcome(db, notification.id, "unknown_refund");
    Sentry.captureMessage(`WeChat Pay notified an unknown refund ${notice.out_refund_no}`, "error");
    return notReceived(404, "退款单不存在");
  }
  // A parked refund returned to the wallet, paid out later: recorded with WeChat Pay's amount.
  const returnedParked = refund.returned === 1 && refund.parked === 1;
  if (notice.amount.refund !== refund.amount && !returnedParked) {
    // Settled by a finance operator for the amount WeChat Pay paid out
    // (docs/decisions/070-parked-refunds-settled.md): this is that payout, booked.
    if (refund.status === "succeeded" && (await settledForAnotherAmount(db, notice.out_refund_no)) === notice.amount.refund) {
      await recordOutcome(db, notification.id, "already_settled");
      return new Response(null, { status: 204 });
    }
    await recordOutcome(db, notification.id, "amount_mismatch");
    Sentry.captureMessage(`WeChat Pay notified another amount for refund ${notice.out_refund_no}`, "error");
    return notReceived(422, "金额不一致");
  }
  await applyRefundResult(
    db,
    notice.out_refund_no,
    {
      status: notice.refund_status,
      out_refund_no: notice.out_refund_no,
      refund_id: notice.refund_id,
      amount: { refund: notice.amount.refund },
      ...(notice.user_received_account === undefined ? {} : { user_received_account: notice.user_received_account }),
    },
    now,
  );
  await recordOutcome(db, notification.id, "refund_recorded");
  return new Response(null, { status: 204 });
}

/** What a parked refund was settled for, when a finance operator settled it for another amount than asked. */
async function settledForAnotherAmount(db: D1Database, outRefundNo: string): Promise<number | null> {
  return db.prepare("SELECT refunded FROM wechat_refund_other_amount WHERE out_refund_no = ?1").bind(outRefundNo).first<number>("refunded");
}
