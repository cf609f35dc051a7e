/**
 * Code batches that wait for a second operator (docs/decisions/049-code-batches-need-a-second-operator.md):
 * finance operators and admins list the requests, approve or reject another operator's, and
 * issue their own once approved, when its codes are shown to them, once. Each step is one
 * batch with its audit row; the table's triggers hold what the routes check.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { type CodeBatchRequest, codeBatchRequestIdParamSchema, codeBatchRequestSchema, issuedCodeBatchSchema } from "#contract/ops-codes";
import { codesAlreadyShown, newCodeBatch } from "../codes/code-batches";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { commitIssue } from "./code-batch-issue";
import { type CodeBatchRequestRow, codeBatchRequestOf, findCodeBatchRequest, listedCodeBatchRequests } from "./code-batch-requests";
import { decisionRoutes, isSecondOperator } from "./maker-checker";
import { operatorWith } from "./operator-access";
import { operatorActor, operatorName, requestIdOf } from "./operator-actor";

const forbidden = "FORBIDDEN: only finance operators and admins handle codes";
const notFound = errorContent("NOT_FOUND: no such request, or not signed in as an operator (the same answer as an unknown path)");

const list = createRoute({
  method: "get",
  path: "/",
  summary:
    "Code batch requests still to decide or issue (until a week after their expiry), and those decided or issued in the last 7 days: newest first, at most 100 (finance and up)",
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(z.array(codeBatchRequestSchema)), "The requests"),
    403: errorContent(forbidden),
    404: errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)"),
  },
});

const { approve, reject } = decisionRoutes({
  base: "/{id}",
  params: codeBatchRequestIdParamSchema,
  answer: codeBatchRequestSchema,
  errors: {
    403: errorContent(
      `${forbidden}; SECOND_OPERATOR_REQUIRED: the operator who asked, one linked to them by a chain of grants (either way), or one holding the role only since the request`,
    ),
    404: notFound,
    409: errorContent(
      "CODE_REQUEST_DECIDED: approved or rejected already; CODE_REQUEST_EXPIRED (approving): the expiry it asked for has passed",
    ),
  },
  approve: {
    summary: "Approve a code batch another operator asked for: they may then issue it, once (finance and up; audited)",
    outcome: "Approved: whoever asked may issue it",
  },
  reject: {
    summary: "Reject a code batch another operator asked for, with a reason: it is never issued (finance and up; audited)",
    outcome: "Rejected",
  },
});

const issue = createRoute({
  method: "post",
  path: "/{id}/issue",
  summary: "Issue an approved code batch you asked for: its codes are in this answer only (finance and up; audited)",
  security: operatorSession,
  request: { headers: idempotencyKeyHeader, params: codeBatchRequestIdParamSchema },
  responses: {
    201: jsonContent(successEnvelope(issuedCodeBatchSchema), "The batch, its codes and the same as CSV: shown this once"),
    403: errorContent(`${forbidden}; REQUESTER_REQUIRED: only the operator who asked issues it`),
    404: notFound,
    409: errorContent(
      "CODE_REQUEST_NOT_APPROVED: it waits for a second operator, or was rejected; CODE_REQUEST_EXPIRED: the expiry it asked for has passed; CODES_ALREADY_SHOWN: issued already, its codes shown then",
    ),
  },
});

export const codeBatchRequestRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
codeBatchRequestRoutes.use("*", operatorWith("codes"));
codeBatchRequestRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

type OpsContext = Context<OriginEnv>;

const notSecondOperator = () =>
  new ApiError(
    "SECOND_OPERATOR_REQUIRED",
    "Another finance operator must decide on this batch: one who held their role before it was asked for, and whom no grant links to the operator who asked, either way.",
  );
const requestDecided = () => new ApiError("CODE_REQUEST_DECIDED", "This batch request has been approved or rejected already.");

codeBatchRequestRoutes.openapi(list, async (c) => {
  return c.json({ code: "SUCCESS" as const, data: await listedCodeBatchRequests(c.env.DB, c.var.operator.userId, c.var.clock.now()) }, 200);
});

/** A request awaiting a decision, which the deciding operator did not ask for. */
async function awaitingDecision(c: OpsContext, id: string): Promise<CodeBatchRequestRow> {
  const row = await findCodeBatchRequest(c.env.DB, id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such batch request.", "id");
  if (row.status !== "awaiting_approval") throw requestDecided();
  if (!(await isSecondOperator(c.env.DB, c.var.operator.userId, row, "finance"))) throw notSecondOperator();
  return row;
}

const requestExpired = () =>
  new ApiError("CODE_REQUEST_EXPIRED", "The expiry this batch asked for has passed while it waited. Ask for a new batch.");

/** The decision's batch: the trigger `code_batch_request_forward` rolls it back when another operator decided first. */
async function decide(c: OpsContext, row: CodeBatchRequestRow, decided: Pick<CodeBatchRequest, "status" | "decisionNote">) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const answer: CodeBatchRequest = {
    ...codeBatchRequestOf(row),
    ...decided,
    decidedBy: operatorName(c),
    decidedAt: new Date(now).toISOString(),
  };
  try {
    return await c.var.idempotency.commit(
      [
        db
          .prepare("UPDATE code_batch_request SET status = ?1, decided_by = ?2, decided_at = ?3, decision_note = ?4 WHERE id = ?5")
          .bind(decided.status, c.var.operator.userId, now, decided.decisionNote, row.id),
        auditStatement(db, {
          actor: operatorActor(c),
          action: decided.status === "approved" ? "codes.approve" : "codes.reject",
          object: { type: "code_batch_request", id: row.id },
          before: { status: "awaiting_approval" },
          after: { status: decided.status, value: row.value, count: row.count },
          reason: decided.decisionNote ?? undefined,
          requestId: requestIdOf(c),
          at: now,
        }),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    if (isDecidedMeanwhile(error)) return c.var.idempotency.refuse(requestDecided());
    // The trigger `code_batch_request_second_operator`: this operator's role changed meanwhile.
    if (error instanceof Error && error.message.includes("code request: decided by a second operator")) {
      return c.var.idempotency.refuse(notSecondOperator(), { lasting: false });
    }
    throw error;
  }
}

function isDecidedMeanwhile(error: unknown): boolean {
  return error instanceof Error && error.message.includes("code request: a decided request does not change");
}

codeBatchRequestRoutes.openapi(approve, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  // Codes born expired would be worth nothing: such a request is never approved.
  if (row.expires_at <= c.var.clock.now()) throw requestExpired();
  return decide(c, row, { status: "approved", decisionNote: c.req.valid("json").note || null });
});

codeBatchRequestRoutes.openapi(reject, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  return decide(c, row, { status: "rejected", decisionNote: c.req.valid("json").reason });
});

codeBatchRequestRoutes.openapi(issue, async (c) => {
  const { id } = c.req.valid("param");
  const row = await findCodeBatchRequest(c.env.DB, id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such batch request.", "id");
  if (row.requested_by !== c.var.operator.userId) {
    throw new ApiError("REQUESTER_REQUIRED", "Only the operator who asked for this batch can issue it.");
  }
  if (row.status === "issued" && row.batch_id) throw codesAlreadyShown(row.batch_id);
  if (row.status !== "approved") {
    throw new ApiError("CODE_REQUEST_NOT_APPROVED", "This batch is not approved: it waits for a second operator, or was rejected.");
  }
  const now = c.var.clock.now();
  if (row.expires_at <= now) throw requestExpired();
  const batch = newCodeBatch({
    value: row.value,
    count: row.count,
    expiresAt: row.expires_at,
    issuedAt: now,
    note: row.note,
    issuedBy: row.requested_by,
    requestId: row.id,
  });
  try {
    // The trigger `code_batch_as_approved` refuses a request issued meanwhile (by a twin request
    // with another key), and `code_batch_request_issued` marks this one issued.
    return await commitIssue(c, batch);
  } catch (error) {
    if (!isIssuedMeanwhile(error)) throw error;
    const issued = await findCodeBatchRequest(c.env.DB, id);
    if (issued?.batch_id) throw codesAlreadyShown(issued.batch_id);
    throw error;
  }
});

function isIssuedMeanwhile(error: unknown): boolean {
  return error instanceof Error && error.message.includes("code request: only an approved request is issued");
}
