import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { personalListPageSize } from "#contract/value-lists";
import { z } from "zod";
import {
  claimIdParamSchema,
  claimListQuerySchema,
  claimSchema,
  rejectBodySchema,
  submitProofBodySchema,
  taskIdParamSchema,
} from "#contract/tasks";
import { hoursMs } from "#contract/time-limits";
import { accountLocked, isLockRefusal, signedInUser } from "../auth/signed-in-user";
import { textLimitsOf, textPastDeployLimit, timeLimitsOf } from "../deploy-limits/deploy-limits";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, jsonContent, optionalIdempotencyKeyHeader, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotentWhenKeyed } from "../idempotency/idempotency";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { captureStatements } from "./claim-capture";
import { claimFromRow, claimSelect, findClaim, type ClaimRow } from "./claims";

const oneClaim = jsonContent(successEnvelope(claimSchema), "The claim");

const claimTask = createRoute({
  method: "post",
  path: "/tasks/{id}/claims",
  summary: "Claim a slot of an open task (one claim per user per task; never one's own)",
  security: bearerAuth,
  request: { params: taskIdParamSchema, headers: optionalIdempotencyKeyHeader },
  responses: {
    201: oneClaim,
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent(
      "TASK_NOT_CLAIMABLE (full, closed, past its deadline, the caller's own, or its poster's account is locked) or ALREADY_CLAIMED (claimed already: a retry with the first request's Idempotency-Key gets the first answer)",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const listClaims = createRoute({
  method: "get",
  path: "/claims",
  summary:
    "My claims (mine), newest first, 100 at a time (`before` pages back); or submissions waiting for my check (to_check), oldest first, at most 100",
  security: bearerAuth,
  request: { query: claimListQuerySchema },
  responses: { 200: jsonContent(successEnvelope(z.array(claimSchema)), "Claims"), 401: errorContent("UNAUTHENTICATED") },
});

const submit = createRoute({
  method: "post",
  path: "/claims/{id}/submit",
  summary: "Submit proof for my claim before it expires",
  security: bearerAuth,
  request: {
    params: claimIdParamSchema,
    headers: optionalIdempotencyKeyHeader,
    body: { content: { "application/json": { schema: submitProofBodySchema } }, required: true },
  },
  responses: {
    200: oneClaim,
    400: errorContent("A field is not valid, or the proof is longer than this deploy allows (GET /api/text-limits)"),
    404: errorContent("NOT_FOUND"),
    409: errorContent(
      "CLAIM_EXPIRED; CLAIM_WITHDRAWN: given up by its worker; or CLAIM_NOT_SUBMITTED (submitted already: a retry with the first request's Idempotency-Key gets the first answer)",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const withdraw = createRoute({
  method: "post",
  path: "/claims/{id}/withdraw",
  summary:
    "Give up my claim before submitting proof: its slot reopens for others, and the task cannot be claimed by me again (one claim per user per task)",
  security: bearerAuth,
  request: { params: claimIdParamSchema, headers: optionalIdempotencyKeyHeader },
  responses: {
    200: oneClaim,
    404: errorContent("NOT_FOUND"),
    409: errorContent(
      "CLAIM_EXPIRED: its time to submit has run out (it has lapsed); CLAIM_NOT_WITHDRAWABLE: submitted, decided or given up already (a retry with the first request's Idempotency-Key gets the first answer)",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
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
// Claiming and every decision on a claim take an optional key, in the caller's own scope.
const keyedByCaller = idempotentWhenKeyed((c) => c.var.user.id);
claimRoutes.use("/tasks/:id/claims", signedInUser, keyedByCaller, doorLimit("claims"));
for (const decision of ["submit", "withdraw", "approve", "reject"]) claimRoutes.use(`/claims/:id/${decision}`, keyedByCaller);

claimRoutes.openapi(claimTask, async (c) => {
  const { id: taskId } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const worker = c.var.user;
  const task = await db
    .prepare("SELECT deadline, title, reward, poster_id FROM task WHERE id = ?1")
    .bind(taskId)
    .first<{ deadline: number; title: string; reward: number; poster_id: string }>();
  if (!task) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such task."));
  // A retry without a key meets the one-claim-per-task key; with one, it hears this answer.
  const claim: ClaimRow = {
    id: `clm_${crypto.randomUUID()}`,
    task_id: taskId,
    worker_id: worker.id,
    worker_handle: worker.handle,
    worker_display_name: worker.displayName,
    poster_id: task.poster_id,
    title: task.title,
    reward: task.reward,
    status: "claimed",
    expires_at: Math.min(now + hoursMs(timeLimitsOf(c.env).claim.submitHours), task.deadline),
    proof_text: null,
    proof_url: null,
    reject_reason: null,
    created_at: now,
    submitted_at: null,
    auto_approve_at: null,
    decided_at: null,
    withdrawn_at: null,
  };
  try {
    return await c.var.idempotency.commit(
      [
        db
          .prepare("INSERT INTO claim (id, task_id, worker_id, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
          .bind(claim.id, taskId, worker.id, claim.expires_at, now),
      ],
      201,
      { code: "SUCCESS" as const, data: claimFromRow(claim) },
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : "";
    if (message.includes("claim.task_id, claim.worker_id")) {
      return c.var.idempotency.refuse(new ApiError("ALREADY_CLAIMED", "You have already claimed this task."));
    }
    if (isLockRefusal(error)) {
      // Its poster's escrow stays while they are locked (migration 0035); an unlock reopens it.
      return c.var.idempotency.refuse(new ApiError("TASK_NOT_CLAIMABLE", "This task is not taking claims right now."), { lasting: false });
    }
    if (message.includes("cannot be claimed") || message.includes("task_slots_full")) {
      // A slot may reopen (a claim lapses or is rejected): a retry may succeed.
      return c.var.idempotency.refuse(
        new ApiError("TASK_NOT_CLAIMABLE", "This task cannot be claimed: it is full, closed, past its deadline or your own."),
        { lasting: false },
      );
    }
    throw error;
  }
});

claimRoutes.openapi(listClaims, async (c) => {
  const { view, before } = c.req.valid("query");
  const rows =
    view === "mine"
      ? await (before
          ? // Index claim_worker; a claim not mine has no row to compare with, so nothing comes back.
            c.env.DB.prepare(
              `${claimSelect} WHERE claim.worker_id = ?1
                 AND (claim.created_at, claim.id) < (SELECT created_at, id FROM claim WHERE id = ?2 AND worker_id = ?1)
               ORDER BY claim.created_at DESC, claim.id DESC LIMIT ?3`,
            ).bind(c.var.user.id, before, personalListPageSize)
          : c.env.DB.prepare(`${claimSelect} WHERE claim.worker_id = ?1 ORDER BY claim.created_at DESC, claim.id DESC LIMIT ?2`).bind(
              c.var.user.id,
              personalListPageSize,
            )
        ).all<ClaimRow>()
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
  const tooLong = textPastDeployLimit(text, textLimitsOf(c.env).proof.text, "text", "Proof");
  if (tooLong) return c.var.idempotency.refuse(tooLong, { lasting: false });
  const db = c.env.DB;
  const now = c.var.clock.now();
  const worker = c.var.user.id;
  const current = await findClaim(db, id, { worker });
  if (!current) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such claim."));
  // The poster's time to check is the deploy's now, kept with the submission (migration 0037).
  const autoApproveAt = now + hoursMs(timeLimitsOf(c.env).claim.autoApproveHours);
  const submitted: ClaimRow = {
    ...current,
    status: "submitted",
    proof_text: text,
    proof_url: url ?? null,
    submitted_at: now,
    auto_approve_at: autoApproveAt,
  };
  try {
    return await c.var.idempotency.commit(
      [
        // Still the worker's, unsubmitted and in time when the batch runs: a twin (a double
        // click) that submitted first, or the claim lapsing meanwhile, rolls this back.
        assertInBatch(
          db,
          "claim open to submit",
          "EXISTS (SELECT 1 FROM claim WHERE id = ? AND worker_id = ? AND status = 'claimed' AND expires_at > ?)",
          id,
          worker,
          now,
        ),
        db
          .prepare(
            "UPDATE claim SET status = 'submitted', proof_text = ?1, proof_url = ?2, submitted_at = ?3, auto_approve_at = ?4 WHERE id = ?5",
          )
          .bind(text, url ?? null, now, autoApproveAt, id),
      ],
      200,
      { code: "SUCCESS" as const, data: claimFromRow(submitted) },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    // Told by the claim as it is now: a twin that submitted first leaves it submitted, not expired.
    const after = (await findClaim(db, id, { worker })) ?? current;
    return c.var.idempotency.refuse(
      after.withdrawn_at !== null
        ? new ApiError("CLAIM_WITHDRAWN", "You gave up this claim: it can no longer be submitted.")
        : after.status === "claimed" || after.status === "lapsed"
          ? claimExpired()
          : new ApiError("CLAIM_NOT_SUBMITTED", "This claim was already submitted."),
    );
  }
});

const claimExpired = () => new ApiError("CLAIM_EXPIRED", "The time to submit this claim has run out.");

claimRoutes.openapi(withdraw, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const now = c.var.clock.now();
  const worker = c.var.user.id;
  const current = await findClaim(db, id, { worker });
  if (!current) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such claim."));
  const refusal = (claim: ClaimRow) =>
    // A claim whose time ran out has lapsed, whether or not the cron has marked it yet.
    (claim.status === "claimed" && claim.expires_at <= now) || (claim.status === "lapsed" && claim.withdrawn_at === null)
      ? claimExpired()
      : new ApiError("CLAIM_NOT_WITHDRAWABLE", "Only a claim not yet submitted can be given up.");
  if (current.status !== "claimed" || current.expires_at <= now) return c.var.idempotency.refuse(refusal(current));
  try {
    return await c.var.idempotency.commit(
      [
        // Still claimed and in time when the batch runs: a submit, or the cron's lapse, that
        // landed meanwhile rolls this back (trigger `claim_withdrawn_once` holds the first too).
        assertInBatch(
          db,
          "claim open to give up",
          "EXISTS (SELECT 1 FROM claim WHERE id = ? AND status = 'claimed' AND expires_at > ?)",
          id,
          now,
        ),
        // Stored as a lapse at this moment, which frees the slot (trigger `claim_frees_slot`).
        db.prepare("UPDATE claim SET status = 'lapsed', withdrawn_at = ?1, decided_at = ?1 WHERE id = ?2").bind(now, id),
      ],
      200,
      { code: "SUCCESS" as const, data: claimFromRow({ ...current, status: "lapsed", withdrawn_at: now, decided_at: now }) },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    return c.var.idempotency.refuse(refusal((await findClaim(db, id, { worker })) ?? current));
  }
});

/** Whether a submission's time to be checked ran out, whether or not the cron got to it yet. */
const approvedUnchecked = (claim: ClaimRow, now: number) =>
  claim.status === "submitted" && claim.auto_approve_at !== null && claim.auto_approve_at <= now;

/** Why a claim is not waiting for a check, and whether that can still change (only a claim not yet submitted can). */
function notWaitingForCheck(claim: ClaimRow, now: number): { error: ApiError; lasting: boolean } {
  if (approvedUnchecked(claim, now)) {
    const hours = Math.round(((claim.auto_approve_at ?? 0) - (claim.submitted_at ?? 0)) / 3_600_000);
    return {
      error: new ApiError("CLAIM_NOT_SUBMITTED", `This submission was approved automatically: ${hours} hours passed without a check.`),
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
    // Locked between the door's check and this batch: the lock wins (migration 0035).
    if (isLockRefusal(error)) return c.var.idempotency.refuse(accountLocked(), { lasting: false });
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
  if (claim.status !== "submitted" || approvedUnchecked(claim, now)) {
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
