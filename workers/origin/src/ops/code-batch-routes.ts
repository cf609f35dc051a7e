/**
 * Code batches in the back office (docs/decisions/016-ticket-desk-and-code-batches.md):
 * finance operators and up issue prepaid codes with a note, list the batches with where
 * their codes are, and void what is left of one. Audited in the batch of each effect
 * (decision 012); the codes themselves never reach the audit trail nor the database.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Context } from "hono";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import {
  codeBatchIdParamSchema,
  codeBatchListQuerySchema,
  codeBatchPageSchema,
  codeBatchSchema,
  issueCodeBatchBodySchema,
  type CodeBatchRequest,
  issuedCodeBatchSchema,
  voidCodeBatchBodySchema,
  waitingCodeBatchSchema,
} from "#contract/ops-codes";
import { newCodeBatch } from "../codes/code-batches";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { idempotentPosts } from "../idempotency/idempotency";
import { ChangedMeanwhile, readingAgainIfChanged } from "../idempotency/read-again";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { commitIssue } from "./code-batch-issue";
import { codeBatchFromRow, codeBatchPage, findCodeBatch, unredeemedCodesSql } from "./code-batch-list";
import { codeApprovalThresholdOf, issuedAlone, issuedAloneSql } from "./code-batch-requests";
import { operatorActor, operatorName, requestIdOf } from "./operator-actor";
import { operatorWith } from "./operator-access";

const forbidden = errorContent("FORBIDDEN: only finance operators and admins handle codes");
const notAnOperator = errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)");
const badRequest = errorContent("BAD_REQUEST: a path parameter, query, header or body field is not valid; `field` names it");
const keyReused = errorContent("IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was already used for a different request");

const issue = createRoute({
  method: "post",
  path: "/",
  summary:
    "Issue a batch of prepaid codes with a note: the codes are in this answer only (finance and up; audited). Past what one operator may issue alone in 24 hours, it waits for a second operator instead",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: issueCodeBatchBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(
      successEnvelope(z.union([issuedCodeBatchSchema, waitingCodeBatchSchema])),
      "Either the batch, its codes and the same as CSV, shown this once; or, past what this operator may issue alone in 24 hours (CODE_BATCH_APPROVAL_THRESHOLD, value × count), the request that now waits for a second operator (with `request`), nothing issued",
    ),
    400: errorContent("BAD_REQUEST: a field is not valid (an expiry must be in the future); `field` names it"),
    403: forbidden,
    404: notAnOperator,
    409: errorContent("CODES_ALREADY_SHOWN: a retry of a request whose answer carried the codes; they are never shown again"),
    422: keyReused,
  },
});

const list = createRoute({
  method: "get",
  path: "/",
  summary: "Code batches, newest first, 50 a page, with where their codes are (finance and up)",
  security: operatorSession,
  request: { query: codeBatchListQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(codeBatchPageSchema), "A page of batches"),
    400: badRequest,
    403: forbidden,
    404: notAnOperator,
  },
});

const voidBatch = createRoute({
  method: "post",
  path: "/{id}/void",
  summary: "Void a batch: its codes not yet redeemed can never be (finance and up; a reason; audited)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: codeBatchIdParamSchema,
    body: { content: { "application/json": { schema: voidCodeBatchBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(codeBatchSchema), "The batch, voided"),
    400: badRequest,
    403: forbidden,
    404: errorContent("NOT_FOUND: no such batch, or not signed in as an operator"),
    409: errorContent("CODE_BATCH_VOIDED: voided already; or CODE_BATCH_SPENT: every code was redeemed, there is nothing to void"),
    422: keyReused,
  },
});

export const codeBatchRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
codeBatchRoutes.use("*", operatorWith("codes"));
codeBatchRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

codeBatchRoutes.openapi(issue, async (c) => {
  const asked = c.req.valid("json");
  // Read again when another of this operator's batches took them past the threshold while
  // this one ran: it then waits for a second operator, as it would have had it come second.
  // Should that keep happening, it waits for one anyway: the safe side, and never a 500.
  return await readingAgainIfChanged(
    () => issueAsRead(c, asked),
    () => issueAsRead(c, asked, { waits: true }),
  );
});

/**
 * Issues the batch at once while what the operator issued alone in 24 hours, this batch
 * included, stays within the threshold (the batch states that sum again); past it, records a
 * request for a second operator to approve (docs/decisions/049-code-batches-need-a-second-operator.md).
 */
async function issueAsRead(c: Context<OriginEnv>, { value, count, expiresAt, note }: IssueBody, { waits = false } = {}) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const expires = Date.parse(expiresAt);
  if (expires <= now) throw new ApiError("BAD_REQUEST", "The expiry must be in the future.", "expiresAt");
  const operator = c.var.operator;
  const threshold = codeApprovalThresholdOf(c.env);
  const alone = await issuedAlone(db, operator.userId, now);
  if (waits || alone.total + value * count > threshold)
    return requestApproval(c, { value, count, expires, note, now }, threshold, alone.total);
  const batch = newCodeBatch({ value, count, expiresAt: expires, issuedAt: now, note, issuedBy: operator.userId });
  try {
    return await commitIssue(c, batch, [
      assertInBatch(
        db,
        "what one operator issued alone within the threshold",
        `${issuedAloneSql} <= ?`,
        operator.userId,
        alone.since,
        threshold,
      ),
    ]);
  } catch (error) {
    if (isFailedAssertion(error)) throw new ChangedMeanwhile();
    throw error;
  }
}

type IssueBody = { value: number; count: number; expiresAt: string; note: string };

async function requestApproval(
  c: Context<OriginEnv>,
  { value, count, expires, note, now }: { value: number; count: number; expires: number; note: string; now: number },
  threshold: number,
  alone: number,
) {
  const db = c.env.DB;
  const operator = c.var.operator;
  const id = `cbr_${crypto.randomUUID()}`;
  const request: CodeBatchRequest = {
    id,
    value,
    count,
    expiresAt: new Date(expires).toISOString(),
    note,
    status: "awaiting_approval",
    requestedBy: operatorName(c),
    requestedAt: new Date(now).toISOString(),
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    batch: null,
    yoursToDecide: false,
  };
  return c.var.idempotency.commit(
    [
      db
        .prepare(
          `INSERT INTO code_batch_request (id, value, count, expires_at, note, status, requested_by, requested_at)
           VALUES (?1, ?2, ?3, ?4, ?5, 'awaiting_approval', ?6, ?7)`,
        )
        .bind(id, value, count, expires, note, operator.userId, now),
      auditStatement(db, {
        actor: operatorActor(c),
        action: "codes.request",
        object: { type: "code_batch_request", id },
        after: { value, count, expiresAt: request.expiresAt, note, issuedAlone: alone, threshold },
        requestId: requestIdOf(c),
        at: now,
      }),
    ],
    // A request was created, as a refund awaiting approval is (201 for every success: docs/api-contract.md).
    201,
    { code: "SUCCESS" as const, data: { request, approvalThreshold: threshold, issuedAlone: alone } },
  );
}

codeBatchRoutes.openapi(list, async (c) => {
  const page = await codeBatchPage(c.env.DB, { cursor: c.req.valid("query").cursor, now: c.var.clock.now() });
  return c.json({ code: "SUCCESS" as const, data: page }, 200);
});

codeBatchRoutes.openapi(voidBatch, async (c) => {
  const { id } = c.req.valid("param");
  const { reason } = c.req.valid("json");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const operator = c.var.operator;
  // The batch states the count it read, so the audit row and the answer say exactly what
  // the void took out of use. A redemption landing between the read and the batch fails
  // that statement and the batch rolls back: read again. Each round that fails leaves one
  // code fewer to redeem (or finds the batch voided), so this ends.
  let lastRead: number | null = null;
  for (;;) {
    const row = await findCodeBatch(db, id);
    // Not lasting: a missing batch is not a state a retry must keep hearing.
    if (!row) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such code batch."), { lasting: false });
    if (row.voided_at !== null) return c.var.idempotency.refuse(new ApiError("CODE_BATCH_VOIDED", "This batch has already been voided."));
    const unredeemed = row.not_redeemed;
    if (unredeemed === 0) {
      return c.var.idempotency.refuse(
        new ApiError("CODE_BATCH_SPENT", "Every code of this batch has been redeemed: there is nothing to void."),
      );
    }
    if (lastRead !== null && unredeemed >= lastRead)
      throw new Error("code batch void: the batch failed its statement, yet nothing changed");
    lastRead = unredeemed;
    const voided = codeBatchFromRow(
      { ...row, voided_at: now, voided_count: unredeemed, voider_handle: operator.handle, voider_display_name: operator.displayName },
      now,
    );
    try {
      return await c.var.idempotency.commit(
        [
          assertInBatch(
            db,
            "the batch is not voided and its unredeemed codes are as read",
            `coalesce((SELECT voided_at IS NULL FROM code_batch WHERE id = ?), 0) AND ${unredeemedCodesSql} = ?`,
            id,
            id,
            unredeemed,
          ),
          // From here on the redemption trigger (migration 0018) refuses every code of the batch.
          db
            .prepare(`UPDATE code_batch SET voided_at = ?, voided_by = ?, voided_count = ${unredeemedCodesSql} WHERE id = ?`)
            .bind(now, operator.userId, id, id),
          auditStatement(db, {
            actor: operatorActor(c),
            action: "codes.void",
            object: { type: "code_batch", id },
            before: { unredeemed },
            after: { unredeemed: 0, voided: unredeemed },
            reason,
            requestId: requestIdOf(c),
            at: now,
          }),
        ],
        200,
        { code: "SUCCESS" as const, data: voided },
      );
    } catch (error) {
      if (!isFailedAssertion(error)) throw error;
    }
  }
});
