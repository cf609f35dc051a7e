import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import {
  claimIdParamSchema,
  claimListQuerySchema,
  claimSchema,
  claimWindowMs,
  rejectBodySchema,
  submitProofBodySchema,
  taskIdParamSchema,
} from "#contract/tasks";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, jsonContent, optionalIdempotencyKeyHeader, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotentWhenKeyed } from "../idempotency/idempotency";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { autoApproveAfterMs, captureStatements } from "./claim-capture";
import { claimFromRow, claimSelect, findClaim, type ClaimRow } from "./claims";

const oneClaim = jsonContent(successEnvelope(claimSchema), "The claim");

const claimTask = createRoute({
  method: "post",
  path: "/tasks/{id}/claims",
  summary: "Claim a slot of an open task (one claim per user per task; never one's own)",
  security: bearerAuth,
  request: { params: taskIdParamSchema },
  responses: {
    201: oneClaim,
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("TASK_NOT_CLAIMABLE or ALREADY_CLAIMED"),
  },
});

const listClaims = createRoute({
  method: "get",
  path: "/claims",
  summary: "My claims (mine), or submissions waiting for my check (to_check)",
  security: bearerAuth,
  request: { query: claimListQuerySchema },
  responses: { 200: jsonContent(successEnvelope(z.array(claimSchema)), "Claims"), 401: errorContent("UNAUTHENTICATED") },
});

const submit = createRoute({
  method: "post",
  path: "/claims/{id}/submit",
  summary: "Submit proof for my claim before it expires",
  security: bearerAuth,
  request: { params: claimIdParamSchema, body: { content: { "application/json": { schema: submitProofBodySchema } }, required: true } },
  responses: {
    200: oneClaim,
    400: errorContent("A field is not valid"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("CLAIM_EXPIRED"),
  },
});

const approve = createRoute({
  method: "post",
  path: "/claims/{id}/approve",
  summary: "Approve a submission of my task: its reward moves from the task's escrow to the worker",
  security: bearerAuth,
  request: { params: claimIdParamSchema, headers: optionalIdempotencyKeyHeader },
  responses: {
    200: oneClaim,
    404: errorContent("NOT_FOUND"),
    409: errorContent("CLAIM_NOT_SUBMITTED (already decided: a retry with the first request's Idempotency-Key gets the first answer)"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const reject = createRoute({
  method: "post",
  path: "/claims/{id}/reject",
  summary: "Reject a submission of my task with a reason; the slot reopens",
  security: bearerAuth,
  request: {
    params: claimIdParamSchema,
    headers: optionalIdempotencyKeyHeader,
    body: { content: { "application/json": { schema: rejectBodySchema } }, required: true },
  },
  responses: {
    200: oneClaim,
    400: errorContent("A field is not valid"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("CLAIM_NOT_SUBMITTED (already decided: a retry with the first request's Idempotency-Key gets the first answer)"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

export const claimRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
claimRoutes.use("/claims", signedInUser);
claimRoutes.use("/claims/*", signedInUser);
claimRoutes.use("/tasks/:id/claims", signedInUser, doorLimit("claims"));
claimRoutes.use(
  "/claims/:id/approve",
  idempotentWhenKeyed((c) => c.var.user.id),
);
claimRoutes.use(
  "/claims/:id/reject",
  idempotentWhenKeyed((c) => c.var.user.id),
);

async function answerClaim(db: D1Database, claimId: string, who: { worker?: string; poster?: string }) {
  const row = await findClaim(db, claimId, who);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such claim.");
  return claimFromRow(row);
}

claimRoutes.openapi(claimTask, async (c) => {
  const { id: taskId } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const task = await db.prepare("SELECT deadline FROM task WHERE id = ?1").bind(taskId).first<{ deadline: number }>();
  if (!task) throw new ApiError("NOT_FOUND", "There is no such task.");
  const claimId = `clm_${crypto.randomUUID()}`;
  try {
    // Claiming needs no Idempotency-Key: a repeated claim meets the one-claim-per-task key.
    await db
      .prepare("INSERT INTO claim (id, task_id, worker_id, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(claimId, taskId, c.var.user.id, Math.min(now + claimWindowMs, task.deadline), now)
      .run();
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (message.includes("claim.task_id, claim.worker_id")) throw new ApiError("ALREADY_CLAIMED", "You have already claimed this task.");
    if (message.includes("cannot be claimed") || message.includes("task_slots_full")) {
      throw new ApiError("TASK_NOT_CLAIMABLE", "This task cannot be claimed: it is full, closed, past its deadline or your own.");
    }
    throw error;
  }
  return c.json({ code: "SUCCESS" as const, data: await answerClaim(db, claimId, { worker: c.var.user.id }) }, 201);
});

claimRoutes.openapi(listClaims, async (c) => {
  const { view } = c.req.valid("query");
  const rows =
    view === "mine"
      ? await c.env.DB.prepare(`${claimSelect} WHERE claim.worker_id = ?1 ORDER BY claim.created_at DESC LIMIT 100`)
          .bind(c.var.user.id)
          .all<ClaimRow>()
      : await c.env.DB.prepare(
          `${claimSelect} WHERE task.poster_id = ?1 AND claim.status = 'submitted' ORDER BY claim.submitted_at LIMIT 100`,
        )
          .bind(c.var.user.id)
          .all<ClaimRow>();
  return c.json({ code: "SUCCESS" as const, data: rows.results.map(claimFromRow) }, 200);
});

claimRoutes.openapi(submit, async (c) => {
  const { id } = c.req.valid("param");
  const { text, url } = c.req.valid("json");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const worker = c.var.user.id;
  const current = await findClaim(db, id, { worker });
  if (!current) throw new ApiError("NOT_FOUND", "There is no such claim.");
  const updated = await db
    .prepare(
      `UPDATE claim SET status = 'submitted', proof_text = ?1, proof_url = ?2, submitted_at = ?3
       WHERE id = ?4 AND worker_id = ?5 AND status = 'claimed' AND expires_at > ?3 RETURNING id`,
    )
    .bind(text, url ?? null, now, id, worker)
    .first();
  if (!updated) {
    // Told by the claim as it is now: a twin of this request (a double click) that submitted
    // first leaves it submitted, not expired.
    const after = (await findClaim(db, id, { worker })) ?? current;
    if (after.status === "claimed" || after.status === "lapsed")
      throw new ApiError("CLAIM_EXPIRED", "The time to submit this claim has run out.");
    throw new ApiError("CLAIM_NOT_SUBMITTED", "This claim was already submitted.");
  }
  return c.json({ code: "SUCCESS" as const, data: await answerClaim(db, id, { worker }) }, 200);
});

/** Why a claim is not waiting for a check, and whether that can still change (only a claim not yet submitted can). */
function notWaitingForCheck(claim: ClaimRow, now: number): { error: ApiError; lasting: boolean } {
  if (claim.status === "submitted" && claim.submitted_at !== null && claim.submitted_at <= now - autoApproveAfterMs) {
    return {
      error: new ApiError("CLAIM_NOT_SUBMITTED", "This submission was approved automatically: 72 hours passed without a check."),
      lasting: true,
    };
  }
  const why: Record<ClaimRow["status"], string> = {
    claimed: "This claim has not been submitted yet.",
    submitted: "This claim is not waiting for a check.",
    approved: "This claim was already approved.",
    rejected: "This claim was already rejected.",
    lapsed: "This claim lapsed without a submission.",
  };
  return { error: new ApiError("CLAIM_NOT_SUBMITTED", why[claim.status]), lasting: claim.status !== "claimed" };
}

claimRoutes.openapi(approve, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const poster = c.var.user.id;
  const now = c.var.clock.now();
  const claim = await findClaim(db, id, { poster });
  if (!claim) throw new ApiError("NOT_FOUND", "There is no such claim among your tasks.");
  if (claim.status !== "submitted") {
    const { error, lasting } = notWaitingForCheck(claim, now);
    return c.var.idempotency.refuse(error, { lasting });
  }
  // The capture's key and trigger pay a claim once, and only while it is submitted.
  const approved: ClaimRow = { ...claim, status: "approved", decided_at: now };
  try {
    return await c.var.idempotency.commit(
      captureStatements(db, { claimId: id, posterId: poster, workerId: claim.worker_id, reward: claim.reward, at: now }),
      200,
      { code: "SUCCESS" as const, data: claimFromRow(approved) },
    );
  } catch (error) {
    if (!(error instanceof Error && /only a submitted claim|claim_capture\.claim_id/.test(error.message))) throw error;
    const decided = await findClaim(db, id, { poster });
    return c.var.idempotency.refuse(
      decided ? notWaitingForCheck(decided, now).error : new ApiError("CLAIM_NOT_SUBMITTED", "This claim is not waiting for a check."),
    );
  }
});

claimRoutes.openapi(reject, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const poster = c.var.user.id;
  const now = c.var.clock.now();
  const claim = await findClaim(db, id, { poster });
  if (!claim) throw new ApiError("NOT_FOUND", "There is no such claim among your tasks.");
  // Past 72 hours the submission is approved, whether or not the cron got to it yet.
  if (claim.status !== "submitted" || (claim.submitted_at !== null && claim.submitted_at <= now - autoApproveAfterMs)) {
    const { error, lasting } = notWaitingForCheck(claim, now);
    return c.var.idempotency.refuse(error, { lasting });
  }
  const reason = c.req.valid("json").reason;
  const rejected: ClaimRow = { ...claim, status: "rejected", reject_reason: reason, decided_at: now };
  try {
    // Unconditional on purpose: trigger `claim_moves_forward` refuses anything but submitted → rejected,
    // so the batch (and the answer recorded with it) rolls back if the claim was decided meanwhile.
    return await c.var.idempotency.commit(
      [db.prepare("UPDATE claim SET status = 'rejected', reject_reason = ?1, decided_at = ?2 WHERE id = ?3").bind(reason, now, id)],
      200,
      { code: "SUCCESS" as const, data: claimFromRow(rejected) },
    );
  } catch (error) {
    if (!(error instanceof Error && error.message.includes("that change of status is not allowed"))) throw error;
    const decided = await findClaim(db, id, { poster });
    return c.var.idempotency.refuse(
      decided ? notWaitingForCheck(decided, now).error : new ApiError("CLAIM_NOT_SUBMITTED", "This claim is not waiting for a check."),
    );
  }
});
