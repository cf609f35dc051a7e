/**
 * A parked WeChat Pay refund (WeChat Pay reported another amount than asked) settled by what
 * WeChat Pay, asked again, says it did (docs/decisions/070-parked-refunds-settled.md): failed,
 * its money goes back to the wallet of the order's owner; paid out for another amount, that
 * payout is booked as money out and the rest goes to the wallet (a payout above the asked
 * amount is borne by Paydesk). One batch each, with its audit row. The route is served by the
 * refunds desk's router (failed-refund-routes.ts), behind its operator door and idempotency.
 */
import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { noSuchOrNotAnOperator } from "../ops/route-answers";
import { type OpsWechatRefund, opsWechatRefundSchema, outRefundNoParamSchema, parkedRefundSettleBodySchema } from "#contract/ops-refunds";
import { ApiError } from "../http/answer";
import { journalParts, paydeskCoveredAccount, type Posting, walletAccountOf, worldAccount } from "../ledger/journal";
import { auditStatement } from "../ops/audit";
import { operatorActor, operatorName, requestIdOf } from "../ops/operator-actor";
import { iso } from "../ops/ops-rows";
import type { OriginEnv } from "../origin-env";
import { applyRefundResult, wechatClearingAccount } from "../wechat-pay/payments/refunds";
import { wechatCall } from "../wechat-pay/payments/wechat-call";
import { isOwnOrderRefusal, notForYourself } from "./not-for-yourself";
import { refundReturnBatch, returnRefusal } from "./refund-return-batch";
import { listed, readRefund, returnedNow, type WechatRefundRow } from "./wechat-refund-rows";

export const settleParked = createRoute({
  method: "post",
  path: "/wechat-refunds/{outRefundNo}/settle-parked",
  summary:
    "Settle a parked WeChat Pay refund (WeChat Pay reported another amount than asked) as WeChat Pay, asked again first, says it ended: failed (ABNORMAL, CLOSED), its money goes back to the wallet of the order's owner; paid out (SUCCESS) for another amount, that payout is booked as money out, the rest of the asked amount goes to that wallet, and a payout above it is borne by Paydesk; once (finance; audited)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: outRefundNoParamSchema,
    body: { content: { "application/json": { schema: parkedRefundSettleBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(
      successEnvelope(opsWechatRefundSchema),
      "Settled: returned to the wallet (`returned`), or booked for WeChat Pay's amount (`otherAmount`)",
    ),
    400: errorContent(
      "BAD_REQUEST: not a refund number (field outRefundNo), no reason (field reason), or no Idempotency-Key (field Idempotency-Key)",
    ),
    403: errorContent("FORBIDDEN: only finance and admin operators; NOT_FOR_YOURSELF: the order is the operator's own"),
    404: noSuchOrNotAnOperator("refund"),
    409: errorContent(
      "REFUND_NOT_PARKED: not parked, or settled, returned or done meanwhile (WeChat Pay, asked again, may report it done for the amount asked: then it is booked as done); REFUND_STILL_PROCESSING: WeChat Pay reports it still under way, nothing moved",
    ),
    422: errorContent(
      "WECHAT_PAY_NOT_CONFIGURED: WeChat Pay cannot be asked how the refund ended; IDEMPOTENCY_KEY_REUSED: the key was used with another body",
    ),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: WeChat Pay did not answer clearly how the refund ended; nothing moved, ask again"),
  },
});

const isParked = (refund: WechatRefundRow) =>
  refund.parked_at !== null && refund.status !== "succeeded" && refund.returned_at === null && refund.other_refunded === null;

const notParked = () =>
  new ApiError(
    "REFUND_NOT_PARKED",
    "This refund is not parked: it was settled, returned or done meanwhile, or WeChat Pay now reports it done for the amount asked.",
  );

export const settleParkedRefund: RouteHandler<typeof settleParked, OriginEnv> = async (c) => {
  const db = c.env.DB;
  const { outRefundNo } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const refund = await readRefund(db, outRefundNo);
  if (!refund) throw new ApiError("NOT_FOUND", "There is no such refund.", "outRefundNo");
  if (refund.person_id === c.var.operator.userId) return c.var.idempotency.refuse(notForYourself());
  // Not lasting: what is read here moves on (WeChat Pay's answer, another operator first).
  if (!isParked(refund)) return c.var.idempotency.refuse(notParked(), { lasting: false });
  const wechat = await c.var.wechatPay();
  if (!wechat) throw new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here: it cannot be asked about the refund.");
  const now = c.var.clock.now();
  const query = await wechatCall(() => wechat.client.queryRefund(outRefundNo));
  if (query.outcome !== "ok") {
    // A refund WeChat Pay reported itself cannot be unknown to it: any refusal is unclear too.
    return c.var.idempotency.refuse(
      new ApiError("WECHAT_PAY_UNAVAILABLE", "WeChat Pay did not answer clearly how the refund ended. Nothing moved; try again."),
      { lasting: false },
    );
  }
  const reported = query.data;
  if (reported.status === "PROCESSING") {
    if (reported.amount.refund === refund.amount) {
      // Under way for the asked amount after all: no longer parked, and the cron follows it again.
      await db
        .prepare(
          `UPDATE wechat_refund SET parked_at = NULL, next_attempt_at = ?1, updated_at = ?1
           WHERE out_refund_no = ?2 AND parked_at IS NOT NULL AND status IN ('due', 'processing')`,
        )
        .bind(now, outRefundNo)
        .run();
    }
    return c.var.idempotency.refuse(
      new ApiError(
        "REFUND_STILL_PROCESSING",
        "WeChat Pay reports this refund still under way. Nothing moved; settle it once it has ended.",
      ),
      { lasting: false },
    );
  }
  const paidOut = reported.amount.refund;
  if (reported.status === "SUCCESS" && (paidOut < 1 || paidOut > refund.payment_amount)) {
    // No refund of this payment pays out that: not an answer to book by.
    return c.var.idempotency.refuse(
      new ApiError(
        "WECHAT_PAY_UNAVAILABLE",
        "WeChat Pay's answer does not add up for this payment. Nothing moved; look at the merchant platform.",
      ),
      { lasting: false },
    );
  }
  if (reported.status === "SUCCESS" && paidOut === refund.amount) {
    // Done as asked after all: booked as the cron books any refund done.
    await applyRefundResult(db, outRefundNo, reported, now);
    return c.var.idempotency.refuse(notParked(), { lasting: false });
  }
  const item = listed(refund);
  try {
    if (reported.status === "SUCCESS") {
      const answer: OpsWechatRefund = {
        ...item,
        status: "succeeded",
        parked: false,
        refundId: reported.refund_id ?? item.refundId,
        otherAmount: { refunded: paidOut, by: operatorName(c), at: iso(now), reason },
      };
      return await c.var.idempotency.commit(
        otherAmountBatch(c, refund, { refunded: paidOut, refundId: reported.refund_id, reason, now }),
        200,
        {
          code: "SUCCESS" as const,
          data: answer,
        },
      );
    }
    // ABNORMAL or CLOSED, for whatever amount: nothing reached the payer. Recorded as WeChat
    // Pay says (still parked), then returned as any failed refund is, in one batch.
    const failed = reported.status === "ABNORMAL" ? "abnormal" : "closed";
    const answer: OpsWechatRefund = { ...item, status: failed, parked: false, returned: returnedNow(item, operatorName(c), now, reason) };
    return await c.var.idempotency.commit(
      [
        db
          .prepare(
            `UPDATE wechat_refund SET status = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
             WHERE out_refund_no = ?4 AND parked_at IS NOT NULL AND status <> 'succeeded'`,
          )
          .bind(failed, reported.refund_id ?? null, now, outRefundNo),
        ...refundReturnBatch(c, refund, { reason, now, parked: true, before: { parked: true, reported: reported.amount.refund } }),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    // Another operator, the cron or a notification got there first.
    if (returnRefusal(error) !== null || isSettledMeanwhile(error)) return c.var.idempotency.refuse(notParked(), { lasting: false });
    if (isOwnOrderRefusal(error)) return c.var.idempotency.refuse(notForYourself());
    throw error;
  }
};

/** Migration 0045's triggers and keys, and 0013's, refusing a refund no longer parked. */
const isSettledMeanwhile = (error: unknown) =>
  error instanceof Error &&
  (error.message.includes("refund_other_amount: the refund is not parked") ||
    /UNIQUE constraint failed: wechat_refund_other_amount/.test(error.message) ||
    error.message.includes("refund: a refund that succeeded does not change") ||
    error.message.includes("refund: a refund returned to a wallet does not change"));

/**
 * WeChat Pay paid out `refunded` fen, not the refund's amount: the clearing account gives up
 * the asked amount, the payout goes to the world, the rest to the wallet of the order's owner
 * or, for a payout above it, the excess comes from Paydesk's covered account.
 */
function otherAmountBatch(
  c: Context<OriginEnv>,
  refund: WechatRefundRow,
  { refunded, refundId, reason, now }: { refunded: number; refundId: string | undefined; reason: string; now: number },
): D1PreparedStatement[] {
  const db = c.env.DB;
  const txId = `tx_${crypto.randomUUID()}`;
  const rest = refund.amount - refunded;
  const postings: Posting[] = [
    { account: wechatClearingAccount, amount: -refund.amount },
    { account: worldAccount, amount: refunded },
    rest > 0
      ? { account: walletAccountOf(refund.person_id), bucket: "available", amount: rest }
      : { account: paydeskCoveredAccount, amount: rest },
  ];
  const { opening, entries } = journalParts(db, { id: txId, kind: "refund", at: now, postings });
  return [
    // The row first: an operator demoted or locked meanwhile hears 403 (migration 0036).
    auditStatement(db, {
      actor: operatorActor(c),
      action: "refund.settle_other_amount",
      object: { type: "order", id: refund.order_id },
      before: { refund: refund.out_refund_no, status: refund.status, asked: refund.amount },
      after: { refund: refund.out_refund_no, refunded, toWallet: Math.max(rest, 0), borne: Math.max(-rest, 0), wallet: refund.person_id },
      reason,
      requestId: requestIdOf(c),
      at: now,
    }),
    opening,
    // Before the entries: of two settlements at once, the second is refused here (the primary
    // key); its trigger refuses a refund no longer parked (done, returned meanwhile).
    db
      .prepare(
        `INSERT INTO wechat_refund_other_amount (out_refund_no, refunded, tx_id, user_id, reason, settled_by, settled_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
      )
      .bind(refund.out_refund_no, refunded, txId, refund.person_id, reason, c.var.operator.userId, now),
    db
      .prepare(
        `UPDATE wechat_refund SET status = 'succeeded', out_tx_id = ?1, refund_id = coalesce(?2, refund_id), next_attempt_at = NULL, updated_at = ?3
         WHERE out_refund_no = ?4`,
      )
      .bind(txId, refundId ?? null, now, refund.out_refund_no),
    ...entries,
  ];
}
