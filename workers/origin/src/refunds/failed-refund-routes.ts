/**
 * WeChat Pay refunds that need a hand (docs/decisions/048-failed-wechat-refunds.md): the list
 * of those that failed or were parked, a finance operator's return of a failed refund's
 * money to the wallet of the order's owner, the settlement of one WeChat Pay paid out as
 * well (docs/decisions/060-refunds-paid-twice.md), and of one parked for another amount
 * (parked-refund-routes.ts, decision 070), each in one batch with its audit row.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { noSuchOrNotAnOperator, notAnOperator } from "../ops/route-answers";
import type { SettlementRequest } from "#contract/ops-orders";
import {
  type OpsWechatRefund,
  opsWechatRefundSchema,
  outRefundNoParamSchema,
  paidTwiceSettleBodySchema,
  refundReturnBodySchema,
} from "#contract/ops-refunds";
import { z } from "zod";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts } from "../idempotency/idempotency";
import { auditStatement } from "../ops/audit";
import { operatorWith } from "../ops/operator-access";
import { operatorActor, operatorName, requestIdOf } from "../ops/operator-actor";
import { iso } from "../ops/ops-rows";
import type { OriginEnv } from "../origin-env";
import { failedWechatRefundStatuses } from "#contract/value-lists";
import type { RefundStatus } from "../wechat-pay/payments/refund-states";
import { askWhetherStillFailed } from "./failed-refund-check";
import { refundReturnBatch, returnRefusal } from "./refund-return-batch";
import { listed, needsAHand, readRefund, returnedNow, type WechatRefundRow, wechatRefundSelect } from "./wechat-refund-rows";
import { notForYourself } from "./not-for-yourself";
import { settleParked, settleParkedRefund } from "./parked-refund-routes";
import { approvalThresholdOf } from "./approval-threshold";
import {
  notPaidTwice,
  paidOutOf,
  settledAlready,
  settlementAwaiting,
  settlementRefusal,
  settlementStatements,
} from "./paid-twice-settlement";
import { readWithSettlementRequests, settlementWaits } from "./settlement-requests";

/** At most this many are listed: more than an operator works through in a day. */
const listLimit = 100;

const listNeedingAHand = createRoute({
  method: "get",
  path: "/wechat-refunds",
  summary: `WeChat Pay refunds that need a hand, oldest change first, at most ${listLimit}: failed (abnormal, closed, refused) and not returned to a wallet, parked because WeChat Pay reported another amount, or returned to a wallet, paid out by WeChat Pay as well and not yet settled (finance)`,
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(z.array(opsWechatRefundSchema).max(listLimit)), "The refunds"),
    403: errorContent("FORBIDDEN: only finance and admin operators"),
    404: notAnOperator,
  },
});

const returnToWallet = createRoute({
  method: "post",
  path: "/wechat-refunds/{outRefundNo}/return-to-wallet",
  summary:
    "Return a failed WeChat Pay refund's money from the clearing account to the wallet of the order's owner, once WeChat Pay, asked again first, still reports it failed or never made (finance; audited)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: outRefundNoParamSchema,
    body: { content: { "application/json": { schema: refundReturnBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(opsWechatRefundSchema), "Returned: the money is in the wallet"),
    400: errorContent(
      "BAD_REQUEST: not a refund number (field outRefundNo), no reason (field reason), or no Idempotency-Key (field Idempotency-Key)",
    ),
    403: errorContent("FORBIDDEN: only finance and admin operators; NOT_FOR_YOURSELF: the order is the operator's own"),
    404: noSuchOrNotAnOperator("refund"),
    409: errorContent(
      "REFUND_NOT_FAILED: WeChat Pay has not failed it (due, processing, succeeded), or it is parked (WeChat Pay reported another amount: settle-parked settles it); REFUND_RETURNED: returned already",
    ),
    422: errorContent(
      "WECHAT_PAY_NOT_CONFIGURED: WeChat Pay cannot be asked whether the refund failed; IDEMPOTENCY_KEY_REUSED: the key was used with another body",
    ),
    503: errorContent("WECHAT_PAY_UNAVAILABLE: WeChat Pay did not answer clearly whether the refund failed; nothing moved, ask again"),
  },
});

const settlePaidTwice = createRoute({
  method: "post",
  path: "/wechat-refunds/{outRefundNo}/settle-paid-twice",
  summary:
    "Settle a refund paid twice (its money returned to a wallet, then paid out by WeChat Pay as well): WeChat Pay's payout is booked as money out, taken back from that wallet's available balance (take_back) or borne by Paydesk (bear); or nothing is booked, WeChat Pay having paid it to Paydesk's own account (to_paydesk); once (finance; audited). Bearing it, or finding it paid to Paydesk, for more than REFUND_APPROVAL_THRESHOLD waits for a second operator (201): nothing is booked until one approves it",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: outRefundNoParamSchema,
    body: { content: { "application/json": { schema: paidTwiceSettleBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(opsWechatRefundSchema), "Settled: the payout is booked, or recorded as Paydesk's own"),
    201: jsonContent(
      successEnvelope(opsWechatRefundSchema),
      "Waits for a second operator (returned.settlementRequest): bear or to_paydesk for more than the threshold; nothing is booked yet",
    ),
    400: errorContent(
      "BAD_REQUEST: not a refund number (field outRefundNo), not take_back, bear or to_paydesk (field how), no reason (field reason), or no Idempotency-Key (field Idempotency-Key)",
    ),
    403: errorContent("FORBIDDEN: only finance and admin operators; NOT_FOR_YOURSELF: the order is the operator's own"),
    404: noSuchOrNotAnOperator("refund"),
    409: errorContent(
      "REFUND_NOT_PAID_TWICE: not returned to a wallet, or not paid out by WeChat Pay as well; REFUND_SETTLED: settled already; SETTLEMENT_AWAITING: a settlement of it waits for a second operator, who approves or rejects it first, unless whoever asked withdraws it; WALLET_LOCKED: take_back from a locked account, whose money stays",
    ),
    422: errorContent(
      "TAKE_BACK_EXCEEDS_BALANCE: take_back, and the wallet's available balance is less than the refund; nothing moved; IDEMPOTENCY_KEY_REUSED: the key was used with another body",
    ),
  },
});

export const failedRefundRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
failedRefundRoutes.use("/wechat-refunds", operatorWith("refund"));
failedRefundRoutes.use("/wechat-refunds/*", operatorWith("refund"));
failedRefundRoutes.use(
  "/wechat-refunds/*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

failedRefundRoutes.openapi(listNeedingAHand, async (c) => {
  // Index wechat_refund_needs_a_hand.
  const rows = await c.env.DB.prepare(`${wechatRefundSelect} WHERE ${needsAHand} ORDER BY refund.updated_at, refund.out_refund_no LIMIT ?1`)
    .bind(listLimit)
    .all<WechatRefundRow>();
  const data = await readWithSettlementRequests(c.env.DB, rows.results.map(listed), c.var.operator.userId);
  return c.json({ code: "SUCCESS" as const, data }, 200);
});

const isFailed = (refund: WechatRefundRow) =>
  (failedWechatRefundStatuses as readonly RefundStatus[]).includes(refund.status) && refund.parked_at === null;

failedRefundRoutes.openapi(returnToWallet, async (c) => {
  const db = c.env.DB;
  const { outRefundNo } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const read = await readRefund(db, outRefundNo);
  if (!read) throw new ApiError("NOT_FOUND", "There is no such refund.", "outRefundNo");
  if (read.person_id === c.var.operator.userId) return c.var.idempotency.refuse(notForYourself());
  if (read.returned_at !== null) return c.var.idempotency.refuse(returnedAlready(), { lasting: false });
  if (!isFailed(read)) return c.var.idempotency.refuse(notFailed(), { lasting: false });
  const wechat = await c.var.wechatPay();
  if (!wechat) throw new ApiError("WECHAT_PAY_NOT_CONFIGURED", "WeChat Pay is not configured here: it cannot be asked about the refund.");
  const now = c.var.clock.now();
  // WeChat Pay may have been told to pay it out meanwhile (at its merchant platform): ask first.
  const asked = await askWhetherStillFailed(db, wechat, { outRefundNo, amount: read.amount, status: read.status }, now);
  if (asked === "unclear") {
    return c.var.idempotency.refuse(
      new ApiError("WECHAT_PAY_UNAVAILABLE", "WeChat Pay did not answer clearly whether the refund failed. Nothing moved; try again."),
      { lasting: false },
    );
  }
  if (asked === "not_failed") return c.var.idempotency.refuse(notFailed(), { lasting: false });
  // As WeChat Pay's answer left it (a refused refund may now be abnormal); the batch states it again.
  const refund = (await readRefund(db, outRefundNo)) ?? read;
  const item = listed(refund);
  const answer: OpsWechatRefund = { ...item, returned: returnedNow(item, operatorName(c), now, reason) };
  try {
    return await c.var.idempotency.commit(refundReturnBatch(c, refund, { reason, now }), 200, { code: "SUCCESS" as const, data: answer });
  } catch (error) {
    const refusal = returnRefusal(error);
    if (refusal === "not_failed") return c.var.idempotency.refuse(notFailed(), { lasting: false });
    if (refusal === "returned") return c.var.idempotency.refuse(returnedAlready(), { lasting: false });
    throw error;
  }
});

const notFailed = () =>
  new ApiError(
    "REFUND_NOT_FAILED",
    "WeChat Pay has not failed this refund: it is on its way or done, or reports another amount (then settle it as parked).",
  );
const returnedAlready = () => new ApiError("REFUND_RETURNED", "This refund's money has been returned to the wallet already.");

failedRefundRoutes.openapi(settlePaidTwice, async (c) => {
  const db = c.env.DB;
  const { outRefundNo } = c.req.valid("param");
  const { how, reason } = c.req.valid("json");
  const refund = await readRefund(db, outRefundNo);
  if (!refund) throw new ApiError("NOT_FOUND", "There is no such refund.", "outRefundNo");
  if (refund.person_id === c.var.operator.userId) return c.var.idempotency.refuse(notForYourself());
  // Not lasting: what is read here moves on (a late success recorded, another settling first,
  // a waiting settlement decided).
  if (refund.settled_at !== null) return c.var.idempotency.refuse(settledAlready(), { lasting: false });
  if (refund.late_success_at === null) return c.var.idempotency.refuse(notPaidTwice(), { lasting: false });
  // With the newest settlement asked for, as the order's page shows it: one that waits is always
  // the newest, since no other is asked for while it waits.
  const [item = listed(refund)] = await readWithSettlementRequests(db, [listed(refund)], c.var.operator.userId);
  if (item.returned?.settlementRequest?.status === "awaiting_approval") {
    return c.var.idempotency.refuse(settlementAwaiting(), { lasting: false });
  }
  const now = c.var.clock.now();
  const paidOut = paidOutOf(refund);
  const audited = (action: string, after: Record<string, unknown>) =>
    // The row first: an operator demoted or locked meanwhile hears 403 (migration 0036).
    auditStatement(db, {
      actor: operatorActor(c),
      action,
      object: { type: "order", id: refund.order_id },
      before: {
        refund: refund.out_refund_no,
        returnedTo: refund.person_id,
        lateSuccessAt: refund.late_success_at,
        paidTo: refund.late_success_account,
      },
      after: { refund: refund.out_refund_no, how, amount: paidOut, ...after },
      reason,
      requestId: requestIdOf(c),
      at: now,
    });
  try {
    if (settlementWaits(how, paidOut, approvalThresholdOf(c.env))) {
      // Paydesk's own money, or a payout it says it received, past the threshold: a second
      // operator approves it before anything is booked (decision 072).
      const id = `srq_${crypto.randomUUID()}`;
      const request: SettlementRequest = {
        id,
        how,
        amount: paidOut,
        reason,
        status: "awaiting_approval",
        requestedBy: operatorName(c),
        requestedAt: iso(now),
        decidedBy: null,
        decidedAt: null,
        decisionNote: null,
        yoursToDecide: false,
      };
      const answer: OpsWechatRefund = { ...item, returned: item.returned && { ...item.returned, settlementRequest: request } };
      return await c.var.idempotency.commit(
        [
          audited("refund.request_settlement", { request: id }),
          db
            .prepare(
              `INSERT INTO wechat_refund_settlement_request (id, out_refund_no, how, amount, reason, status, requested_by, requested_at)
               VALUES (?1, ?2, ?3, ?4, ?5, 'awaiting_approval', ?6, ?7)`,
            )
            .bind(id, refund.out_refund_no, how, paidOut, reason, c.var.operator.userId, now),
        ],
        201,
        { code: "SUCCESS" as const, data: answer },
      );
    }
    const answer: OpsWechatRefund = {
      ...item,
      returned: item.returned && {
        ...item.returned,
        settled: { how, by: operatorName(c), approvedBy: null, at: iso(now), reason },
      },
    };
    return await c.var.idempotency.commit(
      [
        audited("refund.settle_paid_twice", {}),
        ...settlementStatements(db, refund, { how, reason, settledBy: c.var.operator.userId, request: null, now }),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    const refusal = settlementRefusal(error);
    if (refusal) return c.var.idempotency.refuse(refusal, { lasting: false });
    throw error;
  }
});

failedRefundRoutes.openapi(settleParked, settleParkedRefund);
