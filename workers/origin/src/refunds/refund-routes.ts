/**
 * Refunds in the back office (docs/decisions/015-operator-refunds.md): a finance operator
 * refunds an order's payment in full or in part; above REFUND_APPROVAL_THRESHOLD a second
 * finance operator approves before any money moves. Each step is one batch with its audit row.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { noSuchOrNotAnOperator, notAnOperator } from "../ops/route-answers";
import {
  orderRefundsSchema,
  type RefundRequest,
  refundBodySchema,
  refundIdParamSchema,
  refundQueueQuerySchema,
  refundRequestSchema,
} from "#contract/ops-refunds";
import { orderIdParamSchema } from "#contract/orders";
import { z } from "zod";
import { afterAnswer } from "../http/after-answer";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { ChangedMeanwhile, readingAgainIfChanged } from "../idempotency/read-again";
import { idempotentPosts, isReplayed } from "../idempotency/idempotency";
import { isOverdraft } from "../ledger/journal";
import { auditStatement } from "../ops/audit";
import { decisionRoutes, isSecondOperator } from "../ops/maker-checker";
import { operatorWith } from "../ops/operator-access";
import { operatorActor, operatorName, requestIdOf } from "../ops/operator-actor";
import type { OriginEnv } from "../origin-env";
import { findRefund, requestRefund } from "../wechat-pay/payments/refunds";
import {
  type RefundablePayment,
  type RefundSource,
  refundablePayment,
  refundedOf,
  refundMoneyStatements,
  refundSourceOf,
  uncheckedRefundsOf,
} from "./refund-money";
import { notForYourself, isOwnOrderRefusal } from "./not-for-yourself";
import { findRefundRequest, refundRequests } from "./refund-rows";
import { approvalThresholdOf } from "./approval-threshold";

const makeRefund = createRoute({
  method: "post",
  path: "/orders/{id}/refunds",
  summary:
    "Refund an order's payment, in full or in part, with a reason (finance; audited; past the threshold, which the payment's refunds made without approval count towards, it waits for approval)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: orderIdParamSchema,
    body: { content: { "application/json": { schema: refundBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(refundRequestSchema), "The refund: approved (the money moved) or awaiting approval"),
    403: errorContent("FORBIDDEN: only finance and admin operators; NOT_FOR_YOURSELF: the order is the operator's own"),
    404: noSuchOrNotAnOperator("order"),
    409: errorContent("NOT_REFUNDABLE: the order was not paid, or a wallet-paid task budget already went back to the wallet"),
    422: errorContent(
      "REFUND_EXCEEDS_PAYMENT: more than is left to refund (the payment, less its refunds not rejected and what WeChat Pay paid out beyond a refund's asked amount); REFUND_NOT_WHOLE_SLOTS: an open task refunds whole unclaimed slots; INSUFFICIENT_FUNDS: the wallet no longer holds it",
    ),
  },
});

const orderRefunds = createRoute({
  method: "get",
  path: "/orders/{id}/refunds",
  summary: "An order's refunds and what is left to refund of each payment (support and up)",
  security: operatorSession,
  request: { params: orderIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(orderRefundsSchema), "The order's refunds"),
    404: noSuchOrNotAnOperator("order"),
  },
});

const refundQueue = createRoute({
  method: "get",
  path: "/refunds",
  summary: "Refunds by status, oldest first: by default those awaiting a second operator (finance)",
  security: operatorSession,
  request: { query: refundQueueQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(z.array(refundRequestSchema)), "The refunds"),
    403: errorContent("FORBIDDEN: only finance and admin operators"),
    404: notAnOperator,
  },
});

const { approve, reject } = decisionRoutes({
  base: "/refunds/{id}",
  params: refundIdParamSchema,
  answer: refundRequestSchema,
  errors: {
    403: errorContent(
      "FORBIDDEN: only finance and admin operators; SECOND_OPERATOR_REQUIRED: the operator who asked, one linked to them by a chain of grants (either way), or one holding the role only since the request; NOT_FOR_YOURSELF: the order is the deciding operator's own",
    ),
    404: noSuchOrNotAnOperator("refund"),
    409: errorContent("REFUND_DECIDED: approved or rejected already; NOT_REFUNDABLE"),
    422: errorContent(
      "REFUND_NOT_WHOLE_SLOTS or INSUFFICIENT_FUNDS: the money is no longer where it was; REFUND_EXCEEDS_PAYMENT (approving): more than is left to refund, since WeChat Pay paid out more than asked on another refund of the payment while this one waited",
    ),
  },
  approve: {
    summary: "Approve a refund another operator asked for: its money moves now (finance; audited)",
    outcome: "Approved: the money moved",
  },
  reject: { summary: "Reject a refund another operator asked for, with a reason (finance; audited)", outcome: "Rejected: nothing moved" },
});

export const refundRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
refundRoutes.on("GET", "/orders/:id/refunds", operatorWith("readPeople"));
refundRoutes.on("POST", "/orders/:id/refunds", operatorWith("refund"));
refundRoutes.use("/refunds", operatorWith("refund"));
refundRoutes.use("/refunds/*", operatorWith("refund"));
for (const path of ["/orders/:id/refunds", "/refunds/*"]) {
  refundRoutes.use(
    path,
    idempotentPosts((c) => `ops:${c.var.operator.userId}`),
  );
}

type OpsContext = Context<OriginEnv>;

/** The WeChat Pay refund an approved refund of a WeChat Pay payment starts, due at once. */
function wechatRefundStatement(
  db: D1Database,
  request: { id: string; payment: RefundablePayment; amount: number; txId: string },
  now: number,
) {
  const outRefundNo = `RO${crypto.randomUUID().replaceAll("-", "")}`;
  return {
    outRefundNo,
    statement: db
      .prepare(
        `INSERT INTO wechat_refund (out_refund_no, payment_id, order_id, amount, reason, status, in_tx_id, attempts, next_attempt_at, created_at, updated_at, request_id)
         VALUES (?1, ?2, ?3, ?4, 'operator', 'due', ?5, 0, ?6, ?6, ?6, ?7)`,
      )
      .bind(outRefundNo, request.payment.payment_id, request.payment.order_id, request.amount, request.txId, now, request.id),
  };
}

/** Asks WeChat Pay after the answer; the cron asks again if this attempt does not get through. */
async function askWechatPay(c: OpsContext, outRefundNo: string, now: number) {
  await afterAnswer(c, "WeChat Pay refund", async () => {
    const wechat = await c.var.wechatPay();
    const refund = await findRefund(c.env.DB, outRefundNo);
    if (wechat && refund) await requestRefund(c.env.DB, wechat.client, refund, now);
  });
}

const notSecondOperator = () =>
  new ApiError(
    "SECOND_OPERATOR_REQUIRED",
    "Another finance operator must decide on this refund: one who held their role before it was asked for, and whom no grant links to the operator who asked, either way.",
  );

/** A refused batch, explained: each cause is a state that can change, so none is recorded for the key. */
function refusalOf(error: unknown): ApiError | null {
  if (error instanceof Error && error.message.includes("refund_exceeds_payment")) {
    return new ApiError("REFUND_EXCEEDS_PAYMENT", "That is more than is left to refund of this payment.", "amount");
  }
  if (isOverdraft(error)) {
    return new ApiError("INSUFFICIENT_FUNDS", "The person's wallet no longer holds that much: they have spent it.", "amount");
  }
  if (isFailedAssertion(error)) {
    return new ApiError("REFUND_NOT_WHOLE_SLOTS", "The task's unclaimed slots changed meanwhile. Look again.", "amount");
  }
  // Migration 0043's triggers: the route refuses it first, as the order's owner never changes.
  if (isOwnOrderRefusal(error)) return notForYourself();
  // The trigger `refund_request_second_operator`: this operator's role changed meanwhile.
  if (error instanceof Error && error.message.includes("refund: decided by a second operator")) return notSecondOperator();
  if (error instanceof Error && error.message.includes("refund: a decided refund does not change")) {
    return new ApiError("REFUND_DECIDED", "This refund has been approved or rejected already.");
  }
  return null;
}

async function movedOrRefused<T>(c: OpsContext, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return c.var.idempotency.refuse(refusal, { lasting: false });
  }
}

async function paymentToRefund(c: OpsContext, orderId: string): Promise<RefundablePayment & { payment_id: string }> {
  const payment = await refundablePayment(c.env.DB, orderId);
  if (!payment) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  if (!payment.payment_id) throw new ApiError("NOT_REFUNDABLE", "The order has no payment that succeeded: there is nothing to refund.");
  return payment as RefundablePayment & { payment_id: string };
}

refundRoutes.openapi(makeRefund, async (c) => {
  const asked = { orderId: c.req.valid("param").id, ...c.req.valid("json") };
  // Read again when another operator's refund took this one over the threshold while it ran:
  // it then waits for a second operator, as it would have had it come second.
  return await readingAgainIfChanged(() => makeRefundAsRead(c, asked));
});

async function makeRefundAsRead(c: OpsContext, { orderId, amount, reason }: { orderId: string; amount: number; reason: string }) {
  const db = c.env.DB;
  const payment = await paymentToRefund(c, orderId);
  if (payment.user_id === c.var.operator.userId) return c.var.idempotency.refuse(notForYourself());
  // Below zero when WeChat Pay paid out more than was asked while other refunds were asked.
  const left = Math.max(payment.paid - payment.refunded, 0);
  if (amount > left) {
    return c.var.idempotency.refuse(
      new ApiError("REFUND_EXCEEDS_PAYMENT", `At most ${(left / 100).toFixed(2)} is left to refund of this payment.`, "amount"),
      { lasting: false },
    );
  }
  const now = c.var.clock.now();
  const id = `rfd_${crypto.randomUUID()}`;
  // Maker-checker counts what one payment gave back without a second operator, so a large
  // refund cannot pass as several small ones (docs/decisions/015-operator-refunds.md).
  const threshold = approvalThresholdOf(c.env);
  const waits = payment.refunded_unchecked + amount > threshold;
  // An open task's slots are checked now too: a request that could never be approved is refused.
  const source: RefundSource = refundSourceOf(payment, amount);
  const txId = waits ? null : `tx_${crypto.randomUUID()}`;
  const wechat = txId && payment.method === "wechat" ? wechatRefundStatement(db, { id, payment, amount, txId }, now) : null;
  const answer: RefundRequest = {
    id,
    orderId: payment.order_id,
    paymentId: payment.payment_id,
    method: payment.method,
    amount,
    reason,
    status: waits ? "awaiting_approval" : "approved",
    source: waits ? null : source,
    requestedBy: operatorName(c),
    requestedAt: new Date(now).toISOString(),
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    wechat: wechat ? { outRefundNo: wechat.outRefundNo, status: "due" } : null,
    yoursToDecide: false,
  };
  const money = txId ? refundMoneyStatements(db, { payment, source, amount, txId, now }) : { opening: [], moving: [] };
  const response = await movedOrRefused(c, () =>
    thresholdStated(c, payment, amount, waits ? null : threshold, () =>
      c.var.idempotency.commit(
        [
          ...money.opening,
          db
            .prepare(
              `INSERT INTO refund_request (id, order_id, payment_id, method, amount, reason, status, source, requested_by, requested_at, tx_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
            )
            .bind(
              id,
              payment.order_id,
              payment.payment_id,
              payment.method,
              amount,
              reason,
              answer.status,
              answer.source,
              c.var.operator.userId,
              now,
              txId,
            ),
          ...money.moving,
          ...(wechat ? [wechat.statement] : []),
          // A refund made at once meanwhile counts too: the sum, this one included, is stated again.
          ...(waits
            ? []
            : [
                assertInBatch(
                  db,
                  "refunds without a second operator within the threshold",
                  `(${uncheckedRefundsOf("?")}) <= ?`,
                  payment.payment_id,
                  threshold,
                ),
              ]),
          auditStatement(db, {
            actor: operatorActor(c),
            action: waits ? "refund.request" : "refund.make",
            object: { type: "order", id: payment.order_id },
            after: {
              refund: id,
              payment: payment.payment_id,
              method: payment.method,
              amount,
              source: answer.source,
              status: answer.status,
            },
            reason,
            requestId: requestIdOf(c),
            at: now,
          }),
        ],
        201,
        { code: "SUCCESS" as const, data: answer },
      ),
    ),
  );
  if (wechat && response.status === 201 && !isReplayed(response)) await askWechatPay(c, wechat.outRefundNo, now);
  return response;
}

/**
 * Runs a refund's batch that states the threshold (`threshold` null: it waits, nothing to
 * state); when a statement of the batch did not hold, tells the threshold's apart from the
 * task's slots by reading the payment again.
 */
async function thresholdStated<T>(
  c: OpsContext,
  payment: RefundablePayment,
  amount: number,
  threshold: number | null,
  commit: () => Promise<T>,
): Promise<T> {
  try {
    return await commit();
  } catch (error) {
    if (threshold === null || !isFailedAssertion(error)) throw error;
    const now = await refundablePayment(c.env.DB, payment.order_id);
    if (now && now.refunded_unchecked + amount > threshold) throw new ChangedMeanwhile();
    throw error;
  }
}

refundRoutes.openapi(orderRefunds, async (c) => {
  const db = c.env.DB;
  const { id } = c.req.valid("param");
  const [order, payments] = await db.batch([
    db.prepare("SELECT id FROM orders WHERE id = ?1").bind(id),
    db
      .prepare(
        `SELECT payment.id, payment.method, payment.amount AS paid,
                max(payment.amount - ${refundedOf("payment.id")}, 0) AS refundable
         FROM payment WHERE payment.order_id = ?1 AND payment.status = 'succeeded'`,
      )
      .bind(id),
  ]);
  if (!order?.results.length) throw new ApiError("NOT_FOUND", "There is no such order.", "id");
  return c.json(
    {
      code: "SUCCESS" as const,
      data: {
        refunds: await refundRequests(db, c.var.operator.userId, "refund_request.order_id = ?2", id),
        payments: (payments?.results ?? []) as { id: string; method: "wallet" | "wechat"; paid: number; refundable: number }[],
        approvalThreshold: approvalThresholdOf(c.env),
      },
    },
    200,
  );
});

refundRoutes.openapi(refundQueue, async (c) => {
  const { status } = c.req.valid("query");
  return c.json(
    { code: "SUCCESS" as const, data: await refundRequests(c.env.DB, c.var.operator.userId, "refund_request.status = ?2", status) },
    200,
  );
});

/** A refund awaiting a decision, which the deciding operator did not ask for, on an order not theirs. */
async function awaitingDecision(c: OpsContext, id: string) {
  const row = await c.env.DB.prepare(
    `SELECT refund_request.order_id, refund_request.amount, refund_request.status, refund_request.requested_by,
            refund_request.requested_at, orders.user_id AS owner_id
     FROM refund_request JOIN orders ON orders.id = refund_request.order_id WHERE refund_request.id = ?1`,
  )
    .bind(id)
    .first<{ order_id: string; amount: number; status: string; requested_by: string; requested_at: number; owner_id: string }>();
  if (!row) throw new ApiError("NOT_FOUND", "There is no such refund.", "id");
  if (row.status !== "awaiting_approval") throw new ApiError("REFUND_DECIDED", "This refund has been approved or rejected already.");
  if (row.owner_id === c.var.operator.userId) throw notForYourself();
  if (!(await isSecondOperator(c.env.DB, c.var.operator.userId, row, "finance"))) throw notSecondOperator();
  return row;
}

refundRoutes.openapi(approve, async (c) => {
  const db = c.env.DB;
  const { id } = c.req.valid("param");
  const { note } = c.req.valid("json");
  const request = await awaitingDecision(c, id);
  const payment = await paymentToRefund(c, request.order_id);
  // Its amount was reserved when asked, but a payout beyond its ask on another refund of the
  // payment, settled while this one waited (decision 070), can leave less than that: the
  // money would reach WeChat Pay only to be refused. The second operator rejects it instead.
  if (payment.refunded > payment.paid) {
    const left = Math.max(payment.paid - (payment.refunded - request.amount), 0);
    return c.var.idempotency.refuse(
      new ApiError(
        "REFUND_EXCEEDS_PAYMENT",
        `Only ${(left / 100).toFixed(2)} is left to refund of this payment: WeChat Pay paid out more than asked on another refund of it. Reject this refund and ask for what is left.`,
        "amount",
      ),
      { lasting: false },
    );
  }
  const source = refundSourceOf(payment, request.amount);
  const now = c.var.clock.now();
  const txId = `tx_${crypto.randomUUID()}`;
  const wechat = payment.method === "wechat" ? wechatRefundStatement(db, { id, payment, amount: request.amount, txId }, now) : null;
  const response = await movedOrRefused(c, async () => {
    const money = refundMoneyStatements(db, { payment, source, amount: request.amount, txId, now });
    const statements = [
      ...money.opening,
      // The trigger refund_request_decided_once fails this if another operator decided first.
      db
        .prepare(
          "UPDATE refund_request SET status = 'approved', source = ?1, tx_id = ?2, decided_by = ?3, decided_at = ?4, decision_note = ?5 WHERE id = ?6",
        )
        .bind(source, txId, c.var.operator.userId, now, note ?? null, id),
      ...money.moving,
      ...(wechat ? [wechat.statement] : []),
      auditStatement(db, {
        actor: operatorActor(c),
        action: "refund.approve",
        object: { type: "order", id: request.order_id },
        before: { refund: id, status: "awaiting_approval" },
        after: { refund: id, status: "approved", amount: request.amount, source },
        reason: note ?? undefined,
        requestId: requestIdOf(c),
        at: now,
      }),
    ];
    const decided = await decidedAnswer(db, c.var.operator.userId, id, {
      status: "approved",
      source,
      decidedBy: operatorName(c),
      decidedAt: new Date(now).toISOString(),
      decisionNote: note ?? null,
      wechat: wechat ? { outRefundNo: wechat.outRefundNo, status: "due" } : null,
    });
    return c.var.idempotency.commit(statements, 200, decided);
  });
  if (wechat && !isReplayed(response)) await askWechatPay(c, wechat.outRefundNo, now);
  return response;
});

refundRoutes.openapi(reject, async (c) => {
  const db = c.env.DB;
  const { id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const request = await awaitingDecision(c, id);
  const now = c.var.clock.now();
  return movedOrRefused(c, async () => {
    const statements = [
      db
        .prepare("UPDATE refund_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = ?3 WHERE id = ?4")
        .bind(c.var.operator.userId, now, reason, id),
      auditStatement(db, {
        actor: operatorActor(c),
        action: "refund.reject",
        object: { type: "order", id: request.order_id },
        before: { refund: id, status: "awaiting_approval" },
        after: { refund: id, status: "rejected" },
        reason,
        requestId: requestIdOf(c),
        at: now,
      }),
    ];
    const decided = await decidedAnswer(db, c.var.operator.userId, id, {
      status: "rejected",
      decidedBy: operatorName(c),
      decidedAt: new Date(now).toISOString(),
      decisionNote: reason,
    });
    return c.var.idempotency.commit(statements, 200, decided);
  });
});

/** The refund as the decision leaves it, decided by `deciderId`: the answer recorded with the decision itself. */
async function decidedAnswer(db: D1Database, deciderId: string, id: string, change: Partial<RefundRequest>) {
  const current = await findRefundRequest(db, deciderId, id);
  if (!current) throw new ApiError("NOT_FOUND", "There is no such refund.", "id");
  return { code: "SUCCESS" as const, data: { ...current, ...change, yoursToDecide: false } };
}
