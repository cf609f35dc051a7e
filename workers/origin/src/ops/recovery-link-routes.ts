/**
 * The last way back into an account (docs/decisions/024-account-safety.md): for someone with
 * neither password, passkey nor recovery code, an admin who has checked who they are issues
 * a single-use link to set a new password. The reason says how identity was checked and goes
 * into the audit trail with the issue, in one batch.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { recoveryLinkLifetimeMs, recoveryLinkSchema } from "#contract/account-safety";
import { recoveryLinkBodySchema } from "#contract/ops";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { hashToken } from "../auth/bearer-token";
import { randomToken } from "../auth/session-tokens";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { operatorWith } from "./operator-access";
import { operatorActor, requestIdOf } from "./operator-actor";
import { forbiddenUnless, notAnOperator } from "./route-answers";

const issueLink = createRoute({
  method: "post",
  path: "/",
  summary: "Issue a single-use link that lets a person set a new password, valid for an hour (admin; audited; shown once)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: recoveryLinkBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(recoveryLinkSchema), "The link's path, with its token, this once"),
    403: forbiddenUnless("recoveryLink: admin; NOT_FOR_YOURSELF for the operator's own account"),
    404: notAnOperator,
    409: errorContent("ALREADY_SHOWN: a retry of a request whose link was shown"),
  },
});

export const recoveryLinkRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
recoveryLinkRoutes.use("*", operatorWith("recoveryLink"));
recoveryLinkRoutes.use(
  "*",
  idempotent((c) => `ops:${c.var.operator.userId}`),
);

recoveryLinkRoutes.openapi(issueLink, async (c) => {
  const { personId, reason } = c.req.valid("json");
  const db = c.env.DB;
  // An admin locked out of their own account asks another: nobody vouches for themselves.
  if (personId === c.var.operator.userId) {
    return c.var.idempotency.refuse(new ApiError("NOT_FOR_YOURSELF", "Another admin must issue a recovery link for your own account."));
  }
  const person = await db.prepare("SELECT id, handle FROM user WHERE id = ?1").bind(personId).first<{ id: string; handle: string }>();
  if (!person) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such person.", "personId"), { lasting: false });
  const now = c.var.clock.now();
  const token = randomToken();
  const expiresAt = now + recoveryLinkLifetimeMs;
  return c.var.idempotency.commit(
    [
      // One outstanding link a person: a new one replaces any not yet used.
      db.prepare("UPDATE recovery_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, person.id),
      db
        .prepare("INSERT INTO recovery_link (token_hash, user_id, issued_by, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(await hashToken(token), person.id, c.var.operator.userId, now, expiresAt),
      auditStatement(db, {
        actor: operatorActor(c),
        action: "person.recovery_link",
        object: { type: "user", id: person.id },
        after: { handle: person.handle, expiresAt: new Date(expiresAt).toISOString() },
        reason,
        requestId: requestIdOf(c),
        at: now,
      }),
    ],
    201,
    { code: "SUCCESS" as const, data: { path: `/recover?link=${token}`, expiresAt: new Date(expiresAt).toISOString() } },
    // Shown once: the link never sits in clear in the idempotency table; a retry hears this.
    {
      replayAs: new ApiError(
        "ALREADY_SHOWN",
        "This recovery link was shown once, in the first answer to this request. If it was lost, issue a new one (it replaces this one).",
      ),
    },
  );
});
