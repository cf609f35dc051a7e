import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { personalListPageSize } from "#contract/value-lists";
import { z } from "zod";
import { deadlineOutside, type TaskLimits } from "#contract/task-limits";
import { postedTaskSchema, postTaskBodySchema, taskIdParamSchema, taskListQuerySchema, taskSchema } from "#contract/tasks";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import {
  bearerAuth,
  errorContent,
  idempotencyKeyHeader,
  jsonContent,
  optionalIdempotencyKeyHeader,
  successEnvelope,
} from "#contract/openapi";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { idempotentPosts, idempotentWhenKeyed } from "../idempotency/idempotency";
import {
  limitsOf,
  outsideDeployRange,
  taskLimitsOf,
  textLimitsOf,
  textPastDeployLimit,
  timeLimitsOf,
} from "../deploy-limits/deploy-limits";
import { newPendingOrder, orderFromRow } from "../orders/order-rows";
import { doorLimitOnPost } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { closeWechatPayAfterAnswer } from "../wechat-pay/reconcile/close-after-answer";
import { taskColumns, taskFromRow, type TaskRow } from "./task-rows";
import { escrowReleaseStatements, isEscrowChanged } from "./task-rules";

const post = createRoute({
  method: "post",
  path: "/",
  summary: "Post a task: creates it and the task-budget order to pay (reward × slots)",
  security: bearerAuth,
  request: { headers: idempotencyKeyHeader, body: { content: { "application/json": { schema: postTaskBodySchema } }, required: true } },
  responses: {
    201: jsonContent(successEnvelope(postedTaskSchema), "The task, awaiting payment of its order"),
    400: errorContent(
      "A field is not valid, or the reward, the completions, the title or the description are past this deploy's limits (GET /api/limits, GET /api/task-limits, GET /api/text-limits)",
    ),
    401: errorContent("UNAUTHENTICATED"),
    422: errorContent("DEADLINE_OUT_OF_RANGE (outside this deploy's window, GET /api/task-limits) or IDEMPOTENCY_KEY_REUSED"),
  },
});

const list = createRoute({
  method: "get",
  path: "/",
  summary:
    "Open tasks of others that I can still claim (available: not full, not claimed by me, and not of a locked poster), soonest deadline first, at most 100; or my own (posted), newest first, 100 at a time: `before` pages back",
  security: bearerAuth,
  request: { query: taskListQuerySchema },
  responses: { 200: jsonContent(successEnvelope(z.array(taskSchema)), "Tasks"), 401: errorContent("UNAUTHENTICATED") },
});

const cancel = createRoute({
  method: "post",
  path: "/{id}/cancel",
  summary: "Cancel my task: no new claims; escrow not needed by claims in progress returns to my wallet",
  security: bearerAuth,
  request: { params: taskIdParamSchema, headers: optionalIdempotencyKeyHeader },
  responses: {
    200: jsonContent(successEnvelope(taskSchema), "The cancelled task"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND"),
    409: errorContent(
      "TASK_NOT_CANCELLABLE; or TASK_CHANGED: claims kept changing the task while it was cancelled, three times over (nothing changed; try again)",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

export const taskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
taskRoutes.use("*", signedInUser);
taskRoutes.use(
  "/",
  idempotentPosts((c) => c.var.user.id),
  doorLimitOnPost("tasks"),
);
taskRoutes.use(
  "/:id/cancel",
  idempotentWhenKeyed((c) => c.var.user.id),
);

/** Past the deploy's completions (docs/decisions/058-deploy-task-limits.md): the schema's 400, naming its own figure. */
const tooManySlots = ({ slots }: TaskLimits) =>
  new ApiError("BAD_REQUEST", `At most ${slots.max.toLocaleString("en-US")} completion${slots.max === 1 ? "" : "s"}.`, "slots");

const deadlineOutOfRange = ({ deadline: { minHours, maxDays } }: TaskLimits) =>
  new ApiError(
    "DEADLINE_OUT_OF_RANGE",
    `Choose a deadline between ${minHours} hour${minHours === 1 ? "" : "s"} and ${maxDays} day${maxDays === 1 ? "" : "s"} from now.`,
    "deadline",
  );

taskRoutes.openapi(post, async (c) => {
  const body = c.req.valid("json");
  const outside = outsideDeployRange(body.reward, limitsOf(c.env).taskReward, "reward");
  if (outside) return c.var.idempotency.refuse(outside, { lasting: false });
  const texts = textLimitsOf(c.env).task;
  const tooLong =
    textPastDeployLimit(body.title, texts.title, "title", "A title") ??
    textPastDeployLimit(body.description, texts.description, "description", "A description");
  if (tooLong) return c.var.idempotency.refuse(tooLong, { lasting: false });
  const bounds = taskLimitsOf(c.env);
  if (body.slots > bounds.slots.max) return c.var.idempotency.refuse(tooManySlots(bounds), { lasting: false });
  const now = c.var.clock.now();
  const deadline = Date.parse(body.deadline);
  // Neither refusal is kept under the key: the window moves with the clock and the setting, so
  // a retry meets them as they are then.
  if (deadlineOutside(deadline, now, bounds.deadline)) return c.var.idempotency.refuse(deadlineOutOfRange(bounds), { lasting: false });
  const db = c.env.DB;
  const order = newPendingOrder(db, {
    userId: c.var.user.id,
    kind: "task_budget",
    amount: body.reward * body.slots,
    description: `Budget for the task “${body.title}”: ${body.slots} × ¥${(body.reward / 100).toFixed(2)}`,
    referrer: body.referrer,
    now,
    payMinutes: timeLimitsOf(c.env).order.payMinutes,
  });
  const task: TaskRow = {
    id: `tsk_${crypto.randomUUID()}`,
    title: body.title,
    description: body.description,
    reward: body.reward,
    slots: body.slots,
    deadline,
    status: "awaiting_payment",
    order_id: order.row.id,
    poster_handle: c.var.user.handle,
    poster_display_name: c.var.user.displayName,
    escrow_remaining: 0,
    slots_taken: 0,
    created_at: now,
  };
  return c.var.idempotency.commit(
    [
      order.insert,
      db
        .prepare(
          `INSERT INTO task (id, poster_id, title, description, reward, slots, deadline, order_id, created_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
        )
        .bind(task.id, c.var.user.id, task.title, task.description, task.reward, task.slots, deadline, order.row.id, now),
    ],
    201,
    { code: "SUCCESS" as const, data: { task: taskFromRow(task), order: orderFromRow(order.row) } },
  );
});

taskRoutes.openapi(list, async (c) => {
  const { tab, before } = c.req.valid("query");
  const now = c.var.clock.now();
  const rows =
    tab === "posted"
      ? await (before
          ? // Index task_poster; a task not mine has no row to compare with, so nothing comes back.
            c.env.DB.prepare(
              `SELECT ${taskColumns} FROM task WHERE poster_id = ?1
                 AND (created_at, id) < (SELECT created_at, id FROM task WHERE id = ?2 AND poster_id = ?1)
               ORDER BY created_at DESC, id DESC LIMIT ?3`,
            ).bind(c.var.user.id, before, personalListPageSize)
          : c.env.DB.prepare(`SELECT ${taskColumns} FROM task WHERE poster_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2`).bind(
              c.var.user.id,
              personalListPageSize,
            )
        ).all<TaskRow>()
      : await c.env.DB.prepare(
          `SELECT ${taskColumns} FROM task
           WHERE status = 'open' AND deadline > ?1 AND poster_id <> ?2 AND slots_taken < slots
             AND NOT EXISTS (SELECT 1 FROM claim WHERE claim.task_id = task.id AND claim.worker_id = ?2)
             AND NOT EXISTS (SELECT 1 FROM user WHERE user.id = task.poster_id AND user.locked_at IS NOT NULL)
           ORDER BY deadline LIMIT 100`,
        )
          .bind(now, c.var.user.id)
          .all<TaskRow>();
  return c.json({ code: "SUCCESS" as const, data: rows.results.map(taskFromRow) }, 200);
});

taskRoutes.openapi(cancel, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const poster = c.var.user.id;
  // A claim made or paid between the read and the batch makes the batch roll back: read again.
  for (let attempt = 1; ; attempt += 1) {
    const now = c.var.clock.now();
    const task = await db
      .prepare(
        `SELECT ${taskColumns}, (SELECT count(*) FROM claim WHERE claim.task_id = task.id AND claim.status IN ('claimed', 'submitted')) AS in_progress
         FROM task WHERE id = ?1 AND poster_id = ?2`,
      )
      .bind(id, poster)
      .first<TaskRow & { in_progress: number }>();
    if (!task) throw new ApiError("NOT_FOUND", "There is no such task among yours.");
    if (task.status === "closed") return c.var.idempotency.refuse(new ApiError("TASK_NOT_CANCELLABLE", "This task has already closed."));
    // Escrow that claims in progress may still need stays held; the rest goes back now.
    const excess = Math.max(0, task.escrow_remaining - task.reward * task.in_progress);
    const statements = [
      assertInBatch(
        db,
        "the task is as read",
        `SELECT status = ? AND escrow_remaining = ?
           AND (SELECT count(*) FROM claim WHERE claim.task_id = task.id AND claim.status IN ('claimed', 'submitted')) = ?
         FROM task WHERE id = ?`,
        task.status,
        task.escrow_remaining,
        task.in_progress,
        id,
      ),
      ...(task.status === "cancelled" ? [] : [db.prepare("UPDATE task SET status = 'cancelled' WHERE id = ?1").bind(id)]),
      // An unpaid budget order has nothing left to pay for.
      ...(task.status === "awaiting_payment"
        ? [
            db
              .prepare(
                "UPDATE orders SET status = 'closed', close_reason = 'cancelled', closed_at = ?1 WHERE id = ?2 AND status = 'pending'",
              )
              .bind(now, task.order_id),
          ]
        : []),
      ...(excess > 0
        ? escrowReleaseStatements(db, { taskId: id, posterId: poster, amount: excess, escrowBefore: task.escrow_remaining, at: now })
        : []),
    ];
    const cancelled: TaskRow = { ...task, status: "cancelled", escrow_remaining: task.escrow_remaining - excess };
    try {
      const answer = await c.var.idempotency.commit(statements, 200, { code: "SUCCESS" as const, data: taskFromRow(cancelled) });
      // A WeChat Pay order started for the budget is closed at WeChat Pay, as a cancelled order's is.
      if (task.status === "awaiting_payment") await closeWechatPayAfterAnswer(c, task.order_id, now);
      return answer;
    } catch (error) {
      if (!(isFailedAssertion(error) || isEscrowChanged(error))) throw error;
      if (attempt < 3) continue;
      // Not lasting: the same request may well go through once the claims settle.
      return c.var.idempotency.refuse(
        new ApiError("TASK_CHANGED", "This task kept changing while you cancelled it. Nothing was changed; try again."),
        { lasting: false },
      );
    }
  }
});
