/**
 * A second operator's decision on the settlement of a refund paid twice that another finance
 * operator asked for (docs/decisions/072-large-settlements-need-a-second-operator.md): approved,
 * the refund is settled as asked, in the same batch; rejected, nothing moves and the refund may
 * be settled again, as when whoever asked withdraws it first. Each is one batch with its audit row; the tables' triggers hold what the
 * routes check (migration 0048).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { type SettlementRequest, settlementRequestIdParamSchema } from "#contract/ops-orders";
import { type OpsWechatRefund, opsWechatRefundSchema } from "#contract/ops-refunds";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts } from "../idempotency/idempotency";
import { auditStatement } from "../ops/audit";
import { decisionRoutes, isSecondOperator } from "../ops/maker-checker";
import { operatorWith } from "../ops/operator-access";
import { operatorActor, operatorName, requestIdOf } from "../ops/operator-actor";
import { iso } from "../ops/ops-rows";
import type { OriginEnv } from "../origin-env";
import { notForYourself } from "./not-for-yourself";
import { settlementRefusal, settlementStatements } from "./paid-twice-settlement";
import { findSettlementRequest, type SettlementRequestRow, settlementRequestOf } from "./settlement-requests";
import { listed, readRefund, type WechatRefundRow } from "./wechat-refund-rows";

const forbidden = "FORBIDDEN: only finance and admin operators";

const { approve, reject } = decisionRoutes({
  base: "/{id}",
  params: settlementRequestIdParamSchema,
  answer: opsWechatRefundSchema,
  errors: {
    403: errorContent(
      `${forbidden}; NOT_FOR_YOURSELF: the refund's money is the operator's own; SECOND_OPERATOR_REQUIRED: the operator who asked, one linked to them by a chain of grants (either way), or one holding the role only since the request`,
    ),
    404: errorContent("NOT_FOUND: no such settlement request, or not signed in as an operator (the same answer as an unknown path)"),
    409: errorContent("SETTLEMENT_REQUEST_DECIDED: approved, rejected or withdrawn already"),
  },
  approve: {
    summary:
      "Approve the settlement of a refund paid twice that another finance operator asked for: the refund is settled as asked, WeChat Pay's payout booked as borne by Paydesk, or recorded as paid to Paydesk's own account (finance and up; audited)",
    outcome: "Approved and settled: the refund with its settlement",
  },
  reject: {
    summary:
      "Reject the settlement of a refund paid twice that another finance operator asked for, with a reason: nothing moves, and the refund may be settled again (finance and up; audited)",
    outcome: "Rejected: the refund, still to settle",
  },
});

const withdraw = createRoute({
  method: "post",
  path: "/{id}/withdraw",
  summary:
    "Withdraw the settlement of a refund paid twice you asked for, before anyone decided on it: nothing moves, and the refund may be settled again (finance and up; audited)",
  security: operatorSession,
  request: { headers: idempotencyKeyHeader, params: settlementRequestIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(opsWechatRefundSchema), "Withdrawn: the refund, still to settle"),
    403: errorContent(`${forbidden}; REQUESTER_REQUIRED: only the operator who asked withdraws it`),
    404: errorContent("NOT_FOUND: no such settlement request, or not signed in as an operator (the same answer as an unknown path)"),
    409: errorContent("SETTLEMENT_REQUEST_DECIDED: approved, rejected or withdrawn already"),
  },
});

export const settlementRequestRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
settlementRequestRoutes.use("*", operatorWith("refund"));
settlementRequestRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

type OpsContext = Context<OriginEnv>;

const notSecondOperator = () =>
  new ApiError(
    "SECOND_OPERATOR_REQUIRED",
    "Another finance operator must decide on this settlement: one who held their role before it was asked for, and whom no grant links to the operator who asked, either way.",
  );
const requestDecided = () =>
  new ApiError("SETTLEMENT_REQUEST_DECIDED", "This settlement has been approved, rejected or withdrawn already.");

type Decidable = { row: SettlementRequestRow; refund: WechatRefundRow };

/**
 * A request awaiting a decision that the deciding operator may make, with its refund as read
 * now. Decided already is not a lasting refusal: a twin request under the same key that
 * decided it first is replayed instead.
 */
async function awaitingDecision(c: OpsContext, id: string): Promise<Decidable> {
  const db = c.env.DB;
  const row = await findSettlementRequest(db, id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such settlement request.", "id");
  if (row.status !== "awaiting_approval") return c.var.idempotency.refuse(requestDecided(), { lasting: false });
  // Whose money it is never decides on it, whatever their role (docs/decisions/065-no-refund-of-ones-own-order.md).
  if (row.person_id === c.var.operator.userId) return c.var.idempotency.refuse(notForYourself());
  if (!(await isSecondOperator(db, c.var.operator.userId, row, "finance"))) throw notSecondOperator();
  const refund = await readRefund(db, row.out_refund_no);
  // The request's foreign key and trigger keep its refund and return: never missing.
  if (!refund) throw new Error(`settlement request ${row.id}: its refund ${row.out_refund_no} is missing`);
  return { row, refund };
}

/**
 * The decision's batch: the audit row first (an operator demoted meanwhile hears 403), then the
 * request decided, then for an approval the settlement it asked for. The trigger
 * `wechat_refund_settlement_request_forward` rolls it back when another operator decided first.
 */
async function decide(
  c: OpsContext,
  { row, refund }: Decidable,
  decided: { status: "approved" | "rejected" | "withdrawn"; note: string | null },
) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const request: SettlementRequest = {
    ...settlementRequestOf(row),
    status: decided.status,
    decidedBy: operatorName(c),
    decidedAt: iso(now),
    decisionNote: decided.note,
  };
  const item = listed(refund);
  const requester = { handle: row.requester_handle, displayName: row.requester_name };
  const answer: OpsWechatRefund = {
    ...item,
    returned: item.returned && {
      ...item.returned,
      settlementRequest: request,
      settled:
        decided.status === "approved"
          ? { how: row.how, by: requester, approvedBy: operatorName(c), at: iso(now), reason: row.reason }
          : item.returned.settled,
    },
  };
  try {
    return await c.var.idempotency.commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: `refund.${{ approved: "approve", rejected: "reject", withdrawn: "withdraw" }[decided.status]}_settlement`,
          object: { type: "order", id: refund.order_id },
          before: { refund: row.out_refund_no, request: row.id, status: "awaiting_approval" },
          after: { refund: row.out_refund_no, request: row.id, status: decided.status, how: row.how, amount: row.amount },
          reason: decided.note ?? undefined,
          requestId: requestIdOf(c),
          at: now,
        }),
        db
          .prepare(
            "UPDATE wechat_refund_settlement_request SET status = ?1, decided_by = ?2, decided_at = ?3, decision_note = ?4 WHERE id = ?5",
          )
          .bind(decided.status, c.var.operator.userId, now, decided.note, row.id),
        ...(decided.status === "approved"
          ? settlementStatements(db, refund, {
              how: row.how,
              reason: row.reason,
              settledBy: row.requested_by,
              request: { id: row.id, amount: row.amount },
              now,
            })
          : []),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    if (error instanceof Error && error.message.includes("settlement request: a decided request does not change")) {
      // Decided or withdrawn meanwhile.
      return c.var.idempotency.refuse(requestDecided(), { lasting: false });
    }
    // The trigger `wechat_refund_settlement_request_second_operator`: this operator's role changed meanwhile.
    if (error instanceof Error && error.message.includes("settlement request: decided by a second operator")) {
      return c.var.idempotency.refuse(notSecondOperator(), { lasting: false });
    }
    const refusal = settlementRefusal(error);
    if (refusal) return c.var.idempotency.refuse(refusal, { lasting: false });
    throw error;
  }
}

settlementRequestRoutes.openapi(approve, async (c) => {
  const found = await awaitingDecision(c, c.req.valid("param").id);
  return decide(c, found, { status: "approved", note: c.req.valid("json").note || null });
});

settlementRequestRoutes.openapi(reject, async (c) => {
  const found = await awaitingDecision(c, c.req.valid("param").id);
  return decide(c, found, { status: "rejected", note: c.req.valid("json").reason });
});

settlementRequestRoutes.openapi(withdraw, async (c) => {
  const db = c.env.DB;
  const row = await findSettlementRequest(db, c.req.valid("param").id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such settlement request.", "id");
  if (row.requested_by !== c.var.operator.userId) {
    throw new ApiError("REQUESTER_REQUIRED", "Only the operator who asked for this settlement can withdraw it.");
  }
  if (row.status !== "awaiting_approval") return c.var.idempotency.refuse(requestDecided(), { lasting: false });
  const refund = await readRefund(db, row.out_refund_no);
  if (!refund) throw new Error(`settlement request ${row.id}: its refund ${row.out_refund_no} is missing`);
  return decide(c, { row, refund }, { status: "withdrawn", note: null });
});
