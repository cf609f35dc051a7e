import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import {
  grantRoleBodySchema,
  type Operator,
  operatorHandleParamSchema,
  operatorSchema,
  operatorSelfSchema,
  revokeRoleBodySchema,
} from "#contract/ops";
import { type RoleRequest, roleRequestOpenMs, roleRequestSchema } from "#contract/ops-role-requests";
import type { Context } from "hono";
import { z } from "zod";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { idempotentPosts } from "../idempotency/idempotency";
import { ChangedMeanwhile, readingAgainIfChanged } from "../idempotency/read-again";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { operatorActor, operatorName, requestIdOf } from "./operator-actor";
import { operatorWith } from "./operator-access";
import { notAnOperator } from "./route-answers";
import { anUnlockedAdminRemains } from "./admin-remains";
import { awaitingYou } from "./awaiting-you";
import { noOpenRoleRequest } from "./role-requests";
import { type OperatorRole, raises, rightsOf } from "./roles";

const me = createRoute({
  method: "get",
  path: "/me",
  summary: "The signed-in operator, their role, what it allows, and how many requests wait for their decision",
  security: operatorSession,
  responses: { 200: jsonContent(successEnvelope(operatorSelfSchema), "The operator"), 404: notAnOperator },
});

const listOperators = createRoute({
  method: "get",
  path: "/operators",
  summary: "Everyone holding an operator role (admin)",
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(z.array(operatorSchema)), "The operators, admins first"),
    403: errorContent("FORBIDDEN: only an admin"),
    404: notAnOperator,
  },
});

const grant = createRoute({
  method: "post",
  path: "/operators",
  summary:
    "Grant a person a role, or change theirs (admin; audited): a role that raises their rights waits for a second admin's approval, open for a day; a lower one is set at once",
  security: operatorSession,
  request: { headers: idempotencyKeyHeader, body: { content: { "application/json": { schema: grantRoleBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(operatorSchema), "Lowered: the person's role as it now is"),
    202: jsonContent(successEnvelope(roleRequestSchema), "Asked: the raise waits for another admin"),
    403: errorContent("FORBIDDEN: only an admin"),
    404: errorContent("NOT_FOUND: no such person (field handle), or not signed in as an operator"),
    409: errorContent(
      "ROLE_UNCHANGED: the person holds that role already; ROLE_REQUEST_OPEN: a raise for the person waits for a decision already; LAST_ADMIN: the change would leave no admin; or ROLE_CHANGED: other admins kept changing the role meanwhile",
    ),
    422: errorContent("IDEMPOTENCY_KEY_REUSED: the key was used with another body"),
  },
});

const revoke = createRoute({
  method: "post",
  path: "/operators/{handle}/revoke",
  summary: "Take a person's operator role away (admin; audited)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    params: operatorHandleParamSchema,
    body: { content: { "application/json": { schema: revokeRoleBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(successEnvelope(z.null()), "Revoked"),
    403: errorContent("FORBIDDEN: only an admin"),
    404: errorContent("NOT_FOUND: that person holds no role, or not signed in as an operator"),
    409: errorContent(
      "LAST_ADMIN: the last admin's role cannot be taken away; or ROLE_CHANGED: other admins kept changing the role meanwhile",
    ),
  },
});

type OperatorRow = {
  handle: string;
  display_name: string;
  role: OperatorRole;
  granted_at: number;
  granted_by: string;
  approved_by: string | null;
};

const operatorOf = (row: OperatorRow): Operator => ({
  handle: row.handle,
  displayName: row.display_name,
  role: row.role,
  grantedAt: new Date(row.granted_at).toISOString(),
  grantedBy: row.granted_by,
  approvedBy: row.approved_by,
});

export const opsRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
opsRoutes.use("/me", operatorWith("readPeople"));
opsRoutes.use("/operators", operatorWith("grantRoles"));
opsRoutes.use("/operators/*", operatorWith("grantRoles"));
opsRoutes.use(
  "/operators",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);
opsRoutes.use(
  "/operators/*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

opsRoutes.openapi(me, async (c) => {
  const { handle, displayName, role, userId } = c.var.operator;
  const waiting = await awaitingYou(c.env.DB, userId, c.var.clock.now());
  return c.json({ code: "SUCCESS" as const, data: { handle, displayName, role, rights: rightsOf(role), awaitingYou: waiting } }, 200);
});

opsRoutes.openapi(listOperators, async (c) => {
  const rows = await c.env.DB.prepare(
    `SELECT user.handle, user.display_name, operator_role.role, operator_role.granted_at, operator_role.granted_by,
            approver.handle AS approved_by
     FROM operator_role JOIN user ON user.id = operator_role.user_id
     LEFT JOIN role_request ON role_request.id = operator_role.request_id
     LEFT JOIN user AS approver ON approver.id = role_request.decided_by
     ORDER BY CASE operator_role.role WHEN 'admin' THEN 0 WHEN 'finance' THEN 1 ELSE 2 END, user.handle`,
  ).all<OperatorRow>();
  return c.json({ code: "SUCCESS" as const, data: rows.results.map(operatorOf) }, 200);
});

/**
 * Each role change states the role it read, so its audit row's "before" is what it changed:
 * of two admins changing one person's role at once, the second reads again and acts on what
 * the first left (a revoke of a role already revoked hears 404, as it would have later).
 */
const roleAsRead = (db: D1Database, userId: string, role: OperatorRole | null) =>
  assertInBatch(db, "the role is as read", "(SELECT role FROM operator_role WHERE user_id = ?) IS ?", userId, role);

const roleUnchanged = () => new ApiError("ROLE_UNCHANGED", "This person holds that role already.", "role");

/** Not lasting: once the other admins are done, the same change may be asked again. */
const roleKeptChanging = (c: Context<OriginEnv>) => () =>
  c.var.idempotency.refuse(new ApiError("ROLE_CHANGED", "Other admins kept changing this person's role just now. Reload and try again."), {
    lasting: false,
  });

async function throwIfRoleChanged(db: D1Database, userId: string, read: OperatorRole | null): Promise<void> {
  const now = await db.prepare("SELECT role FROM operator_role WHERE user_id = ?1").bind(userId).first<{ role: OperatorRole }>();
  if ((now?.role ?? null) !== read) throw new ChangedMeanwhile();
}

opsRoutes.openapi(grant, async (c) => {
  const asked = c.req.valid("json");
  return await readingAgainIfChanged(() => grantAsRead(c, asked), roleKeptChanging(c));
});

async function grantAsRead(c: Context<OriginEnv>, { handle, role, reason }: { handle: string; role: OperatorRole; reason: string }) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const target = await db
    .prepare(
      "SELECT id, handle, display_name, (SELECT role FROM operator_role WHERE user_id = user.id) AS role FROM user WHERE handle = ?1",
    )
    .bind(handle)
    .first<{ id: string; handle: string; display_name: string; role: OperatorRole | null }>();
  // Not lasting: the handle may be registered later.
  if (!target)
    return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "No Paydesk account has that handle.", "handle"), { lasting: false });
  // Granting a role again would rewrite who granted it, which the second-admin rules read.
  if (role === target.role) return c.var.idempotency.refuse(roleUnchanged(), { lasting: false });
  return raises(target.role, role) ? askForRaise(c, target, role, reason, now) : lower(c, target, role, reason, now);
}

type GrantTarget = { id: string; handle: string; display_name: string; role: OperatorRole | null };

/** A raise waits for a second admin (docs/decisions/063-role-raises-need-a-second-admin.md). */
async function askForRaise(c: Context<OriginEnv>, target: GrantTarget, role: OperatorRole, reason: string, now: number) {
  const db = c.env.DB;
  // Not lasting: once it is decided or closed, another may be asked for.
  const alreadyOpen = () =>
    c.var.idempotency.refuse(
      new ApiError(
        "ROLE_REQUEST_OPEN",
        "A role for this person was asked for already and waits for another admin to approve or reject it.",
        "handle",
      ),
      { lasting: false },
    );
  const id = `rrq_${crypto.randomUUID()}`;
  const asked: RoleRequest = {
    id,
    person: { handle: target.handle, displayName: target.display_name },
    role,
    roleBefore: target.role,
    reason,
    status: "awaiting_approval",
    requestedBy: operatorName(c),
    requestedAt: new Date(now).toISOString(),
    openUntil: new Date(now + roleRequestOpenMs).toISOString(),
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    closed: null,
    yoursToDecide: false,
  };
  try {
    return await c.var.idempotency.commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: "operator.grant_request",
          object: { type: "user", id: target.id },
          before: { role: target.role },
          after: { role, request: id },
          reason,
          requestId: requestIdOf(c),
          at: now,
        }),
        // One open request a person: two admins asking at once would ask the others twice.
        noOpenRoleRequest(db, target.id, now),
        // The trigger `role_request_awaits` holds that the role read is still the person's.
        db
          .prepare(
            `INSERT INTO role_request (id, user_id, role, role_before, reason, status, requested_by, requested_at, open_until)
             VALUES (?1, ?2, ?3, ?4, ?5, 'awaiting_approval', ?6, ?7, ?8)`,
          )
          .bind(id, target.id, role, target.role, reason, c.var.operator.userId, now, now + roleRequestOpenMs),
      ],
      202,
      { code: "SUCCESS" as const, data: asked },
    );
  } catch (error) {
    if (isFailedAssertion(error)) return alreadyOpen();
    if (!(error instanceof Error && error.message.includes("role request: asked by an admin"))) throw error;
    await throwIfRoleChanged(db, target.id, target.role);
    throw error;
  }
}

/** Lowering a role, as taking it away, is one admin's act: it takes rights, never gives them. */
async function lower(c: Context<OriginEnv>, target: GrantTarget, role: OperatorRole, reason: string, now: number) {
  const db = c.env.DB;
  const granted: OperatorRow = {
    handle: target.handle,
    display_name: target.display_name,
    role,
    granted_at: now,
    granted_by: c.var.operator.handle,
    approved_by: null,
  };
  try {
    return await c.var.idempotency.commit(
      [
        // First, while the role it is done under still stands (migration 0036): the change may be the admin's own.
        auditStatement(db, {
          actor: operatorActor(c),
          action: "operator.grant",
          object: { type: "user", id: target.id },
          before: { role: target.role },
          after: { role },
          reason,
          requestId: requestIdOf(c),
          at: now,
        }),
        roleAsRead(db, target.id, target.role),
        db
          .prepare("UPDATE operator_role SET role = ?2, granted_by = ?3, granted_at = ?4, request_id = NULL WHERE user_id = ?1")
          .bind(target.id, role, granted.granted_by, now),
        anUnlockedAdminRemains(db),
      ],
      200,
      { code: "SUCCESS" as const, data: operatorOf(granted) },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    await throwIfRoleChanged(db, target.id, target.role);
    return c.var.idempotency.refuse(new ApiError("LAST_ADMIN", "Paydesk needs at least one admin: grant the role to someone else first."), {
      lasting: false,
    });
  }
}

opsRoutes.openapi(revoke, async (c) => {
  const asked = { handle: c.req.valid("param").handle, reason: c.req.valid("json").reason };
  return await readingAgainIfChanged(() => revokeAsRead(c, asked), roleKeptChanging(c));
});

async function revokeAsRead(c: Context<OriginEnv>, { handle, reason }: { handle: string; reason: string }) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const target = await db
    .prepare("SELECT user.id, operator_role.role FROM user JOIN operator_role ON operator_role.user_id = user.id WHERE user.handle = ?1")
    .bind(handle)
    .first<{ id: string; role: OperatorRole }>();
  if (!target)
    return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "That person holds no operator role.", "handle"), { lasting: false });
  try {
    return await c.var.idempotency.commit(
      [
        // First, while the role it is done under still stands (migration 0036): the change may be the admin's own.
        auditStatement(db, {
          actor: operatorActor(c),
          action: "operator.revoke",
          object: { type: "user", id: target.id },
          before: { role: target.role },
          after: { role: null },
          reason,
          requestId: requestIdOf(c),
          at: now,
        }),
        roleAsRead(db, target.id, target.role),
        db.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(target.id),
        anUnlockedAdminRemains(db),
      ],
      200,
      { code: "SUCCESS" as const, data: null },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    await throwIfRoleChanged(db, target.id, target.role);
    return c.var.idempotency.refuse(new ApiError("LAST_ADMIN", "The last admin's role cannot be taken away."), { lasting: false });
  }
}
