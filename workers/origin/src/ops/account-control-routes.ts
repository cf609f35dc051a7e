/**
 * What an admin does to a person's account (docs/decisions/013-account-locks.md): lock it,
 * unlock it, and sign it out everywhere. Each is one batch with its audit row.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { accountActionBodySchema, accountControlSchema, personIdParamSchema } from "#contract/ops";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { endSessionsStatements } from "../account/end-sessions";
import { sessionTime } from "../auth/sessions";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { anUnlockedAdminRemains } from "./admin-remains";
import { idempotentPosts } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { operatorWith } from "./operator-access";
import { operatorActor, requestIdOf } from "./operator-actor";

const accountAction = (path: string, summary: string, conflicts: string) =>
  createRoute({
    method: "post",
    path,
    summary,
    security: operatorSession,
    request: {
      headers: idempotencyKeyHeader,
      params: personIdParamSchema,
      body: { content: { "application/json": { schema: accountActionBodySchema } }, required: true },
    },
    responses: {
      200: jsonContent(successEnvelope(accountControlSchema), "The account as it now is"),
      403: errorContent("FORBIDDEN: only an admin"),
      404: errorContent("NOT_FOUND: no such person, or not signed in as an operator"),
      ...(conflicts ? { 409: errorContent(conflicts) } : {}),
    },
  });

const lock = accountAction(
  "/{id}/lock",
  "Lock a person's account: it signs in to read and to contact support, and no money moves (admin; audited)",
  "ALREADY_LOCKED, or LAST_ADMIN: locking them would leave no admin able to act",
);
const unlock = accountAction("/{id}/unlock", "Unlock a person's account (admin; audited)", "NOT_LOCKED");
const signOutEverywhere = accountAction(
  "/{id}/sign-out-everywhere",
  "End every session of a person's, their unused sign-in links, any recovery link and their unused recovery codes (admin; audited)",
  "",
);

type PersonRow = { id: string; handle: string; locked_at: number | null };

const controlOf = (person: PersonRow, lockedAt: number | null, sessionsEnded = 0) => ({
  code: "SUCCESS" as const,
  data: {
    id: person.id,
    handle: person.handle,
    locked: lockedAt !== null,
    lockedAt: lockedAt === null ? null : new Date(lockedAt).toISOString(),
    sessionsEnded,
  },
});

export const accountControlRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
accountControlRoutes.use("/:id/*", operatorWith("lockAccounts"));
accountControlRoutes.use(
  "/:id/*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

async function personOf(db: D1Database, id: string): Promise<PersonRow> {
  const person = await db.prepare("SELECT id, handle, locked_at FROM user WHERE id = ?1").bind(id).first<PersonRow>();
  if (!person) throw new ApiError("NOT_FOUND", "There is no such person.", "id");
  return person;
}

accountControlRoutes.openapi(lock, async (c) => {
  const db = c.env.DB;
  const person = await personOf(db, c.req.valid("param").id);
  const now = c.var.clock.now();
  const audit = auditStatement(db, {
    actor: operatorActor(c),
    action: "person.lock",
    object: { type: "user", id: person.id },
    before: { locked: false },
    after: { locked: true },
    reason: c.req.valid("json").reason,
    requestId: requestIdOf(c),
    at: now,
  });
  try {
    return await c.var.idempotency.commit(
      [
        // First, while the admin acting is unlocked (migration 0036): they may be locking themselves.
        audit,
        // Stated in the batch: of two admins locking at once, one locks and the other hears 409.
        assertInBatch(db, "the account is unlocked", "(SELECT locked_at IS NULL FROM user WHERE id = ?)", person.id),
        db.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(now, person.id),
        // A locked admin cannot act: some admin who can must remain (decision 012's rule).
        anUnlockedAdminRemains(db),
      ],
      200,
      controlOf(person, now),
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    const lockedAt = await db.prepare("SELECT locked_at FROM user WHERE id = ?1").bind(person.id).first<number | null>("locked_at");
    return c.var.idempotency.refuse(
      lockedAt !== null
        ? new ApiError("ALREADY_LOCKED", "This account is locked already.")
        : new ApiError("LAST_ADMIN", "Paydesk needs an admin who can act: this would lock the last one."),
      { lasting: false },
    );
  }
});

accountControlRoutes.openapi(unlock, async (c) => {
  const db = c.env.DB;
  const person = await personOf(db, c.req.valid("param").id);
  const now = c.var.clock.now();
  try {
    return await c.var.idempotency.commit(
      [
        assertInBatch(db, "the account is locked", "(SELECT locked_at IS NOT NULL FROM user WHERE id = ?)", person.id),
        db.prepare("UPDATE user SET locked_at = NULL WHERE id = ?1").bind(person.id),
        auditStatement(db, {
          actor: operatorActor(c),
          action: "person.unlock",
          object: { type: "user", id: person.id },
          before: { locked: true },
          after: { locked: false },
          reason: c.req.valid("json").reason,
          requestId: requestIdOf(c),
          at: now,
        }),
      ],
      200,
      controlOf(person, null),
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    return c.var.idempotency.refuse(new ApiError("NOT_LOCKED", "This account is not locked."), { lasting: false });
  }
});

accountControlRoutes.openapi(signOutEverywhere, async (c) => {
  const db = c.env.DB;
  const person = await personOf(db, c.req.valid("param").id);
  const now = c.var.clock.now();
  const session = sessionTime(c.env, now);
  // The sessions that still sign the person in; those idle past the deploy's limit end too, uncounted.
  const live = await db
    .prepare("SELECT count(*) AS live FROM session WHERE user_id = ?1 AND ended_at IS NULL AND last_used_at > ?2")
    .bind(person.id, session.liveAfter)
    .first<number>("live");
  return c.var.idempotency.commit(
    [
      // With the sessions go the links that could open a new one (sign-in and recovery links).
      ...endSessionsStatements(db, person.id, session, { voidRecoveryCodes: true }),
      auditStatement(db, {
        actor: operatorActor(c),
        action: "person.sign_out_everywhere",
        object: { type: "user", id: person.id },
        before: { liveSessions: live ?? 0 },
        after: { liveSessions: 0 },
        reason: c.req.valid("json").reason,
        requestId: requestIdOf(c),
        at: now,
      }),
    ],
    200,
    controlOf(person, person.locked_at, live ?? 0),
  );
});
