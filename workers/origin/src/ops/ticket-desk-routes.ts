/**
 * The tickets desk (docs/decisions/016-ticket-desk-and-code-batches.md): support operators
 * and up work the queue, take tickets, answer and close them. Every change is idempotent
 * (an Idempotency-Key) and audited in the batch of its effect (decision 012).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { errorContent, idempotencyKeyHeader, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import {
  assignTicketBodySchema,
  closeTicketBodySchema,
  deskQueuePageSchema,
  deskQueueQuerySchema,
  deskThreadSchema,
} from "#contract/ops-desk";
import { replyBodySchema, ticketIdParamSchema } from "#contract/support";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { idempotentPosts } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { isTicketClosedError } from "../support/tickets";
import { auditStatement } from "./audit";
import { operatorActor, requestIdOf } from "./operator-actor";
import { operatorWith } from "./operator-access";
import { type DeskTicketRow, deskQueue, deskThreadOf, findDeskTicket } from "./ticket-desk";

const forbidden = errorContent("FORBIDDEN: the operator's role does not work tickets");
const notFound = errorContent("NOT_FOUND: no such ticket, or not signed in as an operator (the same answer as an unknown path)");
const badRequest = errorContent("BAD_REQUEST: a path parameter, query, header or body field is not valid; `field` names it");
const keyReused = errorContent("IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was already used for a different request");
const thread = (description: string) => jsonContent(successEnvelope(deskThreadSchema), description);
const changeRequest = <T>(schema: T) => ({
  headers: idempotencyKeyHeader,
  params: ticketIdParamSchema,
  body: { content: { "application/json": { schema } }, required: true },
});

const queue = createRoute({
  method: "get",
  path: "/",
  summary: "The tickets queue: one status, oldest activity first, 50 a page (support and up)",
  security: operatorSession,
  request: { query: deskQueueQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(deskQueuePageSchema), "A page of the queue"),
    400: badRequest,
    403: forbidden,
    404: errorContent("NOT_FOUND: not signed in as an operator (the same answer as an unknown path)"),
  },
});

const read = createRoute({
  method: "get",
  path: "/{id}",
  summary: "A ticket's thread, who asked and who works it (support and up)",
  security: operatorSession,
  request: { params: ticketIdParamSchema },
  responses: { 200: thread("The ticket and its messages"), 400: badRequest, 403: forbidden, 404: notFound },
});

const assign = createRoute({
  method: "post",
  path: "/{id}/assign",
  summary: "Assign a ticket: to the calling operator, or to another operator by handle (support and up; audited)",
  security: operatorSession,
  request: changeRequest(assignTicketBodySchema),
  responses: {
    200: thread("The ticket, assigned"),
    400: badRequest,
    403: forbidden,
    404: notFound,
    409: errorContent("TICKET_CLOSED: a closed ticket is not worked; or TICKET_CHANGED: someone else changed it meanwhile"),
    422: errorContent(
      "NOT_AN_OPERATOR: the handle holds no role or its account is locked (field to); or IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was already used for a different request",
    ),
  },
});

const reply = createRoute({
  method: "post",
  path: "/{id}/messages",
  summary: "Answer a ticket; it becomes answered (support and up; audited)",
  security: operatorSession,
  request: changeRequest(replyBodySchema),
  responses: {
    201: thread("The ticket, answered"),
    400: badRequest,
    403: forbidden,
    404: notFound,
    409: errorContent(
      "TICKET_CLOSED: a closed ticket takes no more messages; TICKET_CHANGED: the requester wrote since the ticket was read",
    ),
    422: keyReused,
  },
});

const close = createRoute({
  method: "post",
  path: "/{id}/close",
  summary: "Close a ticket, with an optional reason (support and up; audited)",
  security: operatorSession,
  request: changeRequest(closeTicketBodySchema),
  responses: {
    200: thread("The ticket, closed"),
    400: badRequest,
    403: forbidden,
    404: notFound,
    409: errorContent("TICKET_CLOSED: the ticket is closed already; or TICKET_CHANGED: someone wrote or changed it meanwhile"),
    422: keyReused,
  },
});

export const ticketDeskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
ticketDeskRoutes.use("*", operatorWith("workTickets"));
ticketDeskRoutes.use(
  "*",
  idempotentPosts((c) => `ops:${c.var.operator.userId}`),
);

const noSuchTicket = () => new ApiError("NOT_FOUND", "There is no such ticket.");
const ticketClosed = () => new ApiError("TICKET_CLOSED", "This ticket is closed.");

/**
 * A change worked out from what was read (the audit's before, the answer) states that read
 * in its batch. When it no longer holds, the operator hears why rather than overriding a
 * change they have not seen: closed, or changed (someone took it, or wrote meanwhile).
 */
const stillAssignedAsRead = (db: D1Database, row: DeskTicketRow) =>
  assertInBatch(
    db,
    "the ticket's assignee is as read, and it is open",
    "coalesce((SELECT assignee_id IS ? AND status <> 'closed' FROM ticket WHERE id = ?), 0)",
    row.assignee_id,
    row.id,
  );
const unchangedSinceRead = (db: D1Database, row: DeskTicketRow) =>
  assertInBatch(
    db,
    "the ticket is as read",
    "coalesce((SELECT status = ? AND updated_at = ? FROM ticket WHERE id = ?), 0)",
    row.status,
    row.updated_at,
    row.id,
  );

async function changedMeanwhile(db: D1Database, id: string): Promise<ApiError> {
  const now = await findDeskTicket(db, id);
  if (!now) return noSuchTicket();
  if (now.row.status === "closed") return ticketClosed();
  return new ApiError("TICKET_CHANGED", "Someone else changed this ticket just now. Reload it and try again.");
}

ticketDeskRoutes.openapi(queue, async (c) => {
  const { status, assignee, cursor } = c.req.valid("query");
  const page = await deskQueue(c.env.DB, { status, assignee, cursor, operatorId: c.var.operator.userId, now: c.var.clock.now() });
  return c.json({ code: "SUCCESS" as const, data: page }, 200);
});

ticketDeskRoutes.openapi(read, async (c) => {
  const found = await findDeskTicket(c.env.DB, c.req.valid("param").id);
  if (!found) throw noSuchTicket();
  return c.json({ code: "SUCCESS" as const, data: deskThreadOf(found.row, found.messages, c.var.clock.now()) }, 200);
});

/** Who works a ticket: the operator assigning it, or another by handle. */
type Assignee = { userId: string; handle: string; displayName: string };

/** Who may work tickets: an account holding any role, not locked (every role works tickets). */
const liveOperators = "FROM user JOIN operator_role ON operator_role.user_id = user.id WHERE user.locked_at IS NULL";

/** The operator a handle names, or null. */
function operatorByHandle(db: D1Database, handle: string): Promise<Assignee | null> {
  return db
    .prepare(`SELECT user.id AS userId, user.handle, user.display_name AS displayName ${liveOperators} AND user.handle = ?1`)
    .bind(handle)
    .first<Assignee>();
}

const notAnOperatorHandle = (handle: string) =>
  new ApiError("NOT_AN_OPERATOR", `@${handle} is not an operator of Paydesk, or their account is locked.`, "to");

ticketDeskRoutes.openapi(assign, async (c) => {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const { to = "me" } = c.req.valid("json");
  // Not lasting: a missing ticket is not a state a retry must keep hearing.
  const found = await findDeskTicket(db, c.req.valid("param").id);
  if (!found) return c.var.idempotency.refuse(noSuchTicket(), { lasting: false });
  const { row, messages } = found;
  if (row.status === "closed") return c.var.idempotency.refuse(ticketClosed());
  const assignee = to === "me" ? c.var.operator : await operatorByHandle(db, to);
  // Not lasting either: a role may be granted, an account unlocked.
  if (!assignee) return c.var.idempotency.refuse(notAnOperatorHandle(to), { lasting: false });
  const assigned = deskThreadOf(
    { ...row, assignee_id: assignee.userId, assignee_handle: assignee.handle, assignee_display_name: assignee.displayName },
    messages,
    now,
  );
  // Already theirs: nothing changes, so nothing is audited.
  if (row.assignee_id === assignee.userId) return c.var.idempotency.commit([], 200, { code: "SUCCESS" as const, data: assigned });
  try {
    return await c.var.idempotency.commit(
      [
        // The row first: an operator who lost their role or was locked meanwhile hears the 403
        // every operator action gives then (migration 0036), before the checks below, which
        // would otherwise call them no operator when they take the ticket themselves.
        auditStatement(db, {
          actor: operatorActor(c),
          action: "ticket.assign",
          object: { type: "ticket", id: row.id },
          before: { assignee: row.assignee_handle },
          after: { assignee: assignee.handle },
          requestId: requestIdOf(c),
          at: now,
        }),
        stillAssignedAsRead(db, row),
        // Still an operator when the batch runs: a role revoked or a lock meanwhile refuses it.
        assertInBatch(db, "the assignee is an operator", `EXISTS (SELECT 1 ${liveOperators} AND user.id = ?)`, assignee.userId),
        // Taking a ticket is not activity on it: it keeps its place in the queue (updated_at).
        db.prepare("UPDATE ticket SET assignee_id = ?1 WHERE id = ?2").bind(assignee.userId, row.id),
      ],
      200,
      { code: "SUCCESS" as const, data: assigned },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    // Which of the two reads changed: the assignee ceased to be an operator, or the ticket moved.
    const stillOperator = await db.prepare(`SELECT 1 AS yes ${liveOperators} AND user.id = ?1`).bind(assignee.userId).first("yes");
    return c.var.idempotency.refuse(stillOperator ? await changedMeanwhile(db, row.id) : notAnOperatorHandle(assignee.handle), {
      lasting: false,
    });
  }
});

ticketDeskRoutes.openapi(reply, async (c) => {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const found = await findDeskTicket(db, c.req.valid("param").id);
  if (!found) return c.var.idempotency.refuse(noSuchTicket(), { lasting: false });
  const { row, messages } = found;
  if (row.status === "closed") return c.var.idempotency.refuse(ticketClosed());
  const { message } = c.req.valid("json");
  // The message's own trigger (migration 0005) makes the ticket answered, and refuses a closed one.
  const answered = deskThreadOf(
    { ...row, status: "answered", updated_at: now },
    [...messages, { author: "operator", body: message, created_at: now }],
    now,
  );
  try {
    return await c.var.idempotency.commit(
      [
        // A message the requester wrote since the operator read the ticket is not answered
        // unseen: the reply would make the ticket answered and take it out of the queue.
        unchangedSinceRead(db, row),
        db
          .prepare("INSERT INTO ticket_message (ticket_id, author, body, created_at) VALUES (?1, 'operator', ?2, ?3)")
          .bind(row.id, message, now),
        auditStatement(db, {
          actor: operatorActor(c),
          action: "ticket.reply",
          object: { type: "ticket", id: row.id },
          // The message is kept in the thread; the trail notes that one was written.
          after: { characters: [...message].length },
          requestId: requestIdOf(c),
          at: now,
        }),
      ],
      201,
      { code: "SUCCESS" as const, data: answered },
    );
  } catch (error) {
    // Closed meanwhile: the trigger refused the message, and the whole batch rolled back.
    if (isTicketClosedError(error)) return c.var.idempotency.refuse(ticketClosed());
    if (!isFailedAssertion(error)) throw error;
    return c.var.idempotency.refuse(await changedMeanwhile(db, row.id), { lasting: false });
  }
});

ticketDeskRoutes.openapi(close, async (c) => {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const found = await findDeskTicket(db, c.req.valid("param").id);
  if (!found) return c.var.idempotency.refuse(noSuchTicket(), { lasting: false });
  const { row, messages } = found;
  if (row.status === "closed") return c.var.idempotency.refuse(ticketClosed());
  const { reason } = c.req.valid("json");
  try {
    return await c.var.idempotency.commit(
      [
        // A message that arrived since the operator read the ticket is not closed unseen.
        unchangedSinceRead(db, row),
        db.prepare("UPDATE ticket SET status = 'closed', updated_at = ?1 WHERE id = ?2").bind(now, row.id),
        auditStatement(db, {
          actor: operatorActor(c),
          action: "ticket.close",
          object: { type: "ticket", id: row.id },
          before: { status: row.status },
          after: { status: "closed" },
          ...(reason === undefined ? {} : { reason }),
          requestId: requestIdOf(c),
          at: now,
        }),
      ],
      200,
      { code: "SUCCESS" as const, data: deskThreadOf({ ...row, status: "closed", updated_at: now }, messages, now) },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    return c.var.idempotency.refuse(await changedMeanwhile(db, row.id), { lasting: false });
  }
});
