/**
 * A role that raises someone's rights needs a second admin
 * (docs/decisions/063-role-raises-need-a-second-admin.md). One admin asks through
 * `POST /api/ops/operators` (ops-routes.ts); here admins list the requests, and another
 * admin approves one, which grants the role in the same batch, or rejects it. Each step is
 * one batch with its audit row, first; the tables' triggers hold what the routes check.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { type RoleRequest, roleRequestIdParamSchema, roleRequestSchema } from "#contract/ops-role-requests";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { decisionRoutes } from "./maker-checker";
import { operatorWith } from "./operator-access";
import { operatorActor, operatorName, requestIdOf } from "./operator-actor";
import {
  type ClosedReason,
  closedReasonOf,
  findRoleRequest,
  listedRoleRequests,
  type RoleRequestRow,
  roleRequestOf,
} from "./role-requests";

const forbidden = "FORBIDDEN: the operator's role lacks the right (grantRoles: admin)";

const list = createRoute({
  method: "get",
  path: "/",
  summary: "Role requests still waiting for a decision, and those asked for in the last 7 days: newest first, at most 100 (admin)",
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(z.array(roleRequestSchema)), "The requests"),
    403: errorContent(forbidden),
    404: errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)"),
  },
});

const { approve, reject } = decisionRoutes({
  base: "/{id}",
  params: roleRequestIdParamSchema,
  answer: roleRequestSchema,
  errors: {
    403: errorContent(
      `${forbidden}; SECOND_OPERATOR_REQUIRED: the admin who asked, an admin linked to the asker by a chain of grants (either way), or one made since the request`,
    ),
    404: errorContent("NOT_FOUND: no such request, or not signed in as an operator (the same answer as an unknown path)"),
    409: errorContent(
      "ROLE_REQUEST_DECIDED: approved or rejected already; ROLE_REQUEST_CLOSED (approving): its day has passed, the admin who asked is no longer an unlocked admin, or the person's role has changed since",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED: the key was used with another body"),
  },
  approve: {
    summary: "Approve a role another admin asked for: the person holds it from this answer on (admin; audited)",
    outcome: "Approved: the role is granted",
  },
  reject: {
    summary: "Reject a role another admin asked for, with a reason: it is not granted (admin; audited)",
    outcome: "Rejected",
  },
});

export const roleRequestRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
roleRequestRoutes.use("*", operatorWith("grantRoles"));
roleRequestRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

type OpsContext = Context<OriginEnv>;

const requestDecided = () => new ApiError("ROLE_REQUEST_DECIDED", "This role request has been approved or rejected already.");
const notSecondAdmin = () =>
  new ApiError(
    "SECOND_OPERATOR_REQUIRED",
    "Another admin must decide on this role: one who was an admin before it was asked for, and whom no grant links to the admin who asked, either way.",
  );

const closedMessages: Record<ClosedReason, string> = {
  day_passed: "This request was open for a day and has closed: it can only be rejected. Ask anew if it is still needed.",
  asker_not_admin: "The admin who asked for this role is no longer an admin: it can only be rejected.",
  role_changed: "This person's role has changed since it was asked for: it can only be rejected.",
};

/** Why an approval no longer stands, from the request as read at `now`; null if it would. */
function closedError(row: RoleRequestRow, now: number): ApiError | null {
  const reason = closedReasonOf(row, now);
  return reason ? new ApiError("ROLE_REQUEST_CLOSED", closedMessages[reason]) : null;
}

roleRequestRoutes.openapi(list, async (c) => {
  return c.json({ code: "SUCCESS" as const, data: await listedRoleRequests(c.env.DB, c.var.clock.now(), c.var.operator.userId) }, 200);
});

/** A request awaiting a decision, which the deciding admin did not ask for and may be the second admin of. */
async function awaitingDecision(c: OpsContext, id: string): Promise<RoleRequestRow> {
  const row = await findRoleRequest(c.env.DB, id, c.var.operator.userId);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such role request.", "id");
  if (row.status !== "awaiting_approval") throw requestDecided();
  if (!row.viewer_decides) throw notSecondAdmin();
  return row;
}

/**
 * The decision's batch; an approval grants the role in it, in the asker's name. The trigger
 * `role_request_forward` rolls it back when another admin decided first,
 * `role_request_second_admin` when this admin is no longer a second admin to the asker, and
 * `role_request_approval_stands` when the approval no longer stands.
 */
async function decide(c: OpsContext, row: RoleRequestRow, decided: Pick<RoleRequest, "status" | "decisionNote">) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const answer: RoleRequest = {
    ...roleRequestOf(row, now),
    ...decided,
    decidedBy: operatorName(c),
    decidedAt: new Date(now).toISOString(),
    closed: null,
    yoursToDecide: false,
  };
  const approved = decided.status === "approved";
  const grant =
    row.role_before === null
      ? db
          .prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at, request_id) VALUES (?1, ?2, ?3, ?4, ?5)")
          .bind(row.user_id, row.role, row.requester_handle, now, row.id)
      : db
          .prepare("UPDATE operator_role SET role = ?2, granted_by = ?3, granted_at = ?4, request_id = ?5 WHERE user_id = ?1")
          .bind(row.user_id, row.role, row.requester_handle, now, row.id);
  try {
    return await c.var.idempotency.commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: approved ? "operator.grant_approve" : "operator.grant_reject",
          object: { type: "user", id: row.user_id },
          before: { role: row.role_before, request: row.id },
          after: { role: approved ? row.role : row.role_before, request: row.id },
          reason: decided.decisionNote ?? undefined,
          requestId: requestIdOf(c),
          at: now,
        }),
        db
          .prepare("UPDATE role_request SET status = ?1, decided_by = ?2, decided_at = ?3, decision_note = ?4 WHERE id = ?5")
          .bind(decided.status, c.var.operator.userId, now, decided.decisionNote, row.id),
        ...(approved ? [grant] : []),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    if (error instanceof Error && error.message.includes("role request: a decided request does not change")) {
      return c.var.idempotency.refuse(requestDecided());
    }
    // Something changed between the checks above and the batch: read again to say what.
    // This admin's role changed meanwhile: not lasting, as for refunds and code batches.
    if (error instanceof Error && error.message.includes("role request: decided by a second admin")) {
      return c.var.idempotency.refuse(notSecondAdmin(), { lasting: false });
    }
    if (error instanceof Error && error.message.includes("role request: approved within the day")) {
      const again = await findRoleRequest(db, row.id, c.var.operator.userId);
      const closed = again && closedError(again, c.var.clock.now());
      return c.var.idempotency.refuse(
        closed ?? new ApiError("ROLE_REQUEST_CLOSED", "This request can no longer be approved. Read it again."),
      );
    }
    throw error;
  }
}

roleRequestRoutes.openapi(approve, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  const closed = closedError(row, c.var.clock.now());
  if (closed) throw closed;
  return decide(c, row, { status: "approved", decisionNote: c.req.valid("json").note || null });
});

roleRequestRoutes.openapi(reject, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  return decide(c, row, { status: "rejected", decisionNote: c.req.valid("json").reason });
});
