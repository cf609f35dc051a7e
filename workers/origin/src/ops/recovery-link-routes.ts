/**
 * The last way back into an account (docs/decisions/024-account-safety.md): for someone with
 * neither password, passkey nor recovery code, a single-use link to set a new password. Whoever
 * holds the link takes the account, so one admin never makes one alone
 * (docs/decisions/062-recovery-links-need-a-second-admin.md): an admin who has checked who
 * the person is asks, saying how; another admin approves or rejects; whoever asked issues the
 * link once approved, and it is shown to them then, once. Each step is one batch with its
 * audit row, first; the table's triggers hold what the routes check.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import { recoveryLinkLifetimeMs, recoveryLinkSchema } from "#contract/account-safety";
import { recoveryLinkBodySchema } from "#contract/ops";
import { personIdParamSchema } from "#contract/ops-people";
import {
  type RecoveryLinkRequest,
  recoveryLinkRequestIdParamSchema,
  recoveryLinkRequestOpenMs,
  recoveryLinkRequestSchema,
} from "#contract/ops-recovery-links";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import { hashToken } from "../auth/bearer-token";
import { randomToken } from "../auth/session-tokens";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { idempotentPosts } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { decisionRoutes, isSecondOperator } from "./maker-checker";
import { operatorWith } from "./operator-access";
import { operatorActor, operatorName, requestIdOf } from "./operator-actor";
import {
  findRecoveryLinkRequest,
  listedRecoveryLinkRequests,
  type RecoveryLinkRequestRow,
  recoveryLinkRequestOf,
} from "./recovery-link-requests";

const forbidden = "FORBIDDEN: the operator's role lacks the right (recoveryLink: admin)";
const notFound = errorContent("NOT_FOUND: no such request, or not signed in as an operator (the same answer as an unknown path)");

const list = createRoute({
  method: "get",
  path: "/",
  summary:
    "Recovery link requests still to decide or issue, and those asked for in the last 7 days: newest first, at most 100; of one person with personId (admin)",
  security: operatorSession,
  request: { query: z.strictObject({ personId: personIdParamSchema.shape.id.optional() }) },
  responses: {
    200: jsonContent(successEnvelope(z.array(recoveryLinkRequestSchema)), "The requests"),
    400: errorContent("BAD_REQUEST: personId is not a person's id"),
    403: errorContent(forbidden),
    404: errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)"),
  },
});

const ask = createRoute({
  method: "post",
  path: "/",
  summary:
    "Ask for a recovery link for a person, saying how their identity was checked: another admin must approve it, open for a day (admin; audited)",
  security: operatorSession,
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: recoveryLinkBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(recoveryLinkRequestSchema), "Asked: it waits for another admin"),
    403: errorContent(`${forbidden}; NOT_FOR_YOURSELF: the operator's own account`),
    404: errorContent("NOT_FOUND: no person has that id (field personId), or not signed in as an operator"),
    409: errorContent("OPERATOR_ACCOUNT: the person holds an operator role, to be revoked first"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED: the key was used with another body"),
  },
});

const { approve, reject } = decisionRoutes({
  base: "/{id}",
  params: recoveryLinkRequestIdParamSchema,
  answer: recoveryLinkRequestSchema,
  errors: {
    403: errorContent(
      `${forbidden}; SECOND_OPERATOR_REQUIRED: the admin who asked, an admin linked to the asker by a chain of grants (either way), or one made since the request; NOT_FOR_YOURSELF: the link would recover the deciding admin's own account`,
    ),
    404: notFound,
    409: errorContent("RECOVERY_REQUEST_DECIDED: approved or rejected already; RECOVERY_REQUEST_CLOSED (approving): its day has passed"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED: the key was used with another body"),
  },
  approve: {
    summary: "Approve a recovery link another admin asked for: they may then issue it, once (admin; audited)",
    outcome: "Approved: whoever asked may issue the link",
  },
  reject: {
    summary: "Reject a recovery link another admin asked for, with a reason: it is never issued (admin; audited)",
    outcome: "Rejected",
  },
});

const issue = createRoute({
  method: "post",
  path: "/{id}/issue",
  summary:
    "Issue the approved recovery link you asked for: a single-use link to set a new password, valid for an hour, in this answer only; it replaces any unused one (admin; audited)",
  security: operatorSession,
  request: { headers: idempotencyKeyHeader, params: recoveryLinkRequestIdParamSchema },
  responses: {
    201: jsonContent(successEnvelope(recoveryLinkSchema), "The link's path, with its token, this once"),
    403: errorContent(`${forbidden}; REQUESTER_REQUIRED: only the admin who asked issues it`),
    404: notFound,
    409: errorContent(
      "RECOVERY_REQUEST_NOT_APPROVED: it waits for another admin, was rejected, or whoever approved it is no longer an unlocked admin; RECOVERY_REQUEST_CLOSED: its day has passed; ALREADY_SHOWN: issued already, the link shown then; OPERATOR_ACCOUNT: the person has become an operator since",
    ),
  },
});

export const recoveryLinkRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
recoveryLinkRoutes.use("*", operatorWith("recoveryLink"));
recoveryLinkRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

type OpsContext = Context<OriginEnv>;

const iso = (at: number) => new Date(at).toISOString();
const notYourOwn = () =>
  new ApiError("NOT_FOR_YOURSELF", "A recovery link for your own account is for other admins to ask for and decide on.");
const requestDecided = () => new ApiError("RECOVERY_REQUEST_DECIDED", "This recovery link request has been approved or rejected already.");
const requestClosed = () =>
  new ApiError("RECOVERY_REQUEST_CLOSED", "This request was open for a day and has closed. Check who the person is again and ask anew.");
const operatorAccount = () =>
  new ApiError(
    "OPERATOR_ACCOUNT",
    "This account holds an operator role: whoever held its recovery link would hold the role. Revoke the role first; grant it again once its owner is back in.",
  );
const notSecondAdmin = () =>
  new ApiError(
    "SECOND_OPERATOR_REQUIRED",
    "Another admin must decide on this recovery link: one who was an admin before it was asked for, and whom no grant links to the admin who asked, either way.",
  );

const alreadyShown = () =>
  new ApiError(
    "ALREADY_SHOWN",
    "This recovery link was shown once, when it was issued. If it was lost, ask for a new one (it replaces this one).",
  );

recoveryLinkRoutes.openapi(list, async (c) => {
  const { personId } = c.req.valid("query");
  return c.json(
    { code: "SUCCESS" as const, data: await listedRecoveryLinkRequests(c.env.DB, c.var.operator.userId, c.var.clock.now(), { personId }) },
    200,
  );
});

recoveryLinkRoutes.openapi(ask, async (c) => {
  const { personId, reason } = c.req.valid("json");
  const db = c.env.DB;
  // An admin locked out of their own account asks another: nobody vouches for themselves.
  if (personId === c.var.operator.userId) return c.var.idempotency.refuse(notYourOwn());
  const person = await db
    .prepare(
      "SELECT id, handle, display_name, EXISTS (SELECT 1 FROM operator_role WHERE user_id = user.id) AS operator FROM user WHERE id = ?1",
    )
    .bind(personId)
    .first<{ id: string; handle: string; display_name: string; operator: number }>();
  if (!person) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such person.", "personId"), { lasting: false });
  if (person.operator) return c.var.idempotency.refuse(operatorAccount(), { lasting: false });
  const now = c.var.clock.now();
  const id = `rlr_${crypto.randomUUID()}`;
  const asked: RecoveryLinkRequest = {
    id,
    person: { id: person.id, handle: person.handle, displayName: person.display_name },
    reason,
    status: "awaiting_approval",
    requestedBy: operatorName(c),
    requestedAt: iso(now),
    openUntil: iso(now + recoveryLinkRequestOpenMs),
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    issuedAt: null,
    yoursToDecide: false,
  };
  return c.var.idempotency
    .commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: "person.recovery_link_request",
          object: { type: "user", id: person.id },
          after: { request: id, handle: person.handle },
          reason,
          requestId: requestIdOf(c),
          at: now,
        }),
        db
          .prepare(
            `INSERT INTO recovery_link_request (id, user_id, reason, status, requested_by, requested_at, open_until)
           VALUES (?1, ?2, ?3, 'awaiting_approval', ?4, ?5, ?6)`,
          )
          .bind(id, person.id, reason, c.var.operator.userId, now, now + recoveryLinkRequestOpenMs),
      ],
      201,
      { code: "SUCCESS" as const, data: asked },
    )
    .catch((error: unknown) => {
      // Made an operator while this was asked: the trigger `recovery_link_request_not_an_operator`.
      if (error instanceof Error && error.message.includes("recovery link request: not for an operator")) {
        return c.var.idempotency.refuse(operatorAccount(), { lasting: false });
      }
      throw error;
    });
});

/** A request awaiting a decision, which the deciding admin neither asked for nor would be recovered by. */
async function awaitingDecision(c: OpsContext, id: string): Promise<RecoveryLinkRequestRow> {
  const row = await findRecoveryLinkRequest(c.env.DB, id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such recovery link request.", "id");
  if (row.status !== "awaiting_approval") throw requestDecided();
  if (row.user_id === c.var.operator.userId) throw notYourOwn();
  if (!(await isSecondOperator(c.env.DB, c.var.operator.userId, row, "admin"))) throw notSecondAdmin();
  return row;
}

/** The decision's batch: the trigger `recovery_link_request_forward` rolls it back when another admin decided first. */
async function decide(c: OpsContext, row: RecoveryLinkRequestRow, decided: Pick<RecoveryLinkRequest, "status" | "decisionNote">) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const answer: RecoveryLinkRequest = { ...recoveryLinkRequestOf(row), ...decided, decidedBy: operatorName(c), decidedAt: iso(now) };
  try {
    return await c.var.idempotency.commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: decided.status === "approved" ? "person.recovery_link_approve" : "person.recovery_link_reject",
          // The person's trail tells every step towards a way into their account.
          object: { type: "user", id: row.user_id },
          before: { request: row.id, status: "awaiting_approval" },
          after: { request: row.id, status: decided.status },
          reason: decided.decisionNote ?? undefined,
          requestId: requestIdOf(c),
          at: now,
        }),
        db
          .prepare("UPDATE recovery_link_request SET status = ?1, decided_by = ?2, decided_at = ?3, decision_note = ?4 WHERE id = ?5")
          .bind(decided.status, c.var.operator.userId, now, decided.decisionNote, row.id),
      ],
      200,
      { code: "SUCCESS" as const, data: answer },
    );
  } catch (error) {
    if (error instanceof Error && error.message.includes("recovery link request: a decided request does not change")) {
      return c.var.idempotency.refuse(requestDecided());
    }
    // The day ended, or this admin's role changed, between the checks above and the batch.
    if (error instanceof Error && error.message.includes("recovery link request: approved by a second admin")) {
      return c.var.idempotency.refuse(c.var.clock.now() >= row.open_until ? requestClosed() : notSecondAdmin());
    }
    throw error;
  }
}

recoveryLinkRoutes.openapi(approve, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  if (row.open_until <= c.var.clock.now()) throw requestClosed();
  return decide(c, row, { status: "approved", decisionNote: c.req.valid("json").note || null });
});

recoveryLinkRoutes.openapi(reject, async (c) => {
  const row = await awaitingDecision(c, c.req.valid("param").id);
  return decide(c, row, { status: "rejected", decisionNote: c.req.valid("json").reason });
});

recoveryLinkRoutes.openapi(issue, async (c) => {
  const db = c.env.DB;
  const row = await findRecoveryLinkRequest(db, c.req.valid("param").id);
  if (!row) throw new ApiError("NOT_FOUND", "There is no such recovery link request.", "id");
  if (row.requested_by !== c.var.operator.userId) {
    throw new ApiError("REQUESTER_REQUIRED", "Only the admin who asked for this recovery link can issue it.");
  }
  if (row.status === "issued") throw alreadyShown();
  const now = c.var.clock.now();
  if (row.status !== "rejected" && row.open_until <= now) throw requestClosed();
  if (row.status !== "approved") {
    throw new ApiError("RECOVERY_REQUEST_NOT_APPROVED", "This recovery link is not approved: it waits for another admin, or was rejected.");
  }
  if (!row.approver_still_admin) {
    throw new ApiError("RECOVERY_REQUEST_NOT_APPROVED", "Whoever approved this recovery link is no longer an admin. Ask for a new one.");
  }
  if (row.person_is_operator) throw operatorAccount();
  const token = randomToken();
  const expiresAt = now + recoveryLinkLifetimeMs;
  try {
    return await c.var.idempotency.commit(
      [
        auditStatement(db, {
          actor: operatorActor(c),
          action: "person.recovery_link",
          object: { type: "user", id: row.user_id },
          after: { request: row.id, handle: row.person_handle, expiresAt: iso(expiresAt) },
          reason: row.reason,
          requestId: requestIdOf(c),
          at: now,
        }),
        // One outstanding link a person: a new one replaces any not yet used.
        db.prepare("UPDATE recovery_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, row.user_id),
        // The trigger `recovery_link_as_approved` refuses it unless the request is approved, open
        // and this admin's; `recovery_link_request_issued` marks the request issued.
        db
          .prepare(
            "INSERT INTO recovery_link (token_hash, user_id, issued_by, created_at, expires_at, request_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
          )
          .bind(await hashToken(token), row.user_id, c.var.operator.userId, now, expiresAt, row.id),
      ],
      201,
      { code: "SUCCESS" as const, data: { path: `/recover?link=${token}`, expiresAt: iso(expiresAt) } },
      // Shown once: the link never sits in clear in the idempotency table; a retry hears this.
      { replayAs: alreadyShown() },
    );
  } catch (error) {
    if (!(error instanceof Error && error.message.includes("recovery link request: only an approved"))) throw error;
    // Issued meanwhile under another key (its link was shown to that answer), or no longer
    // approvable: read again to say which.
    const again = await findRecoveryLinkRequest(db, row.id);
    if (again?.status === "issued") throw alreadyShown();
    if (again?.person_is_operator) throw operatorAccount();
    throw new ApiError("RECOVERY_REQUEST_NOT_APPROVED", "Whoever approved this recovery link is no longer an admin. Ask for a new one.");
  }
});
