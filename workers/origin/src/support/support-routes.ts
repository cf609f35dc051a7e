import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { z } from "zod";
import {
  contactBodySchema,
  openTicketBodySchema,
  replyBodySchema,
  ticketIdParamSchema,
  ticketSchema,
  ticketThreadSchema,
} from "#contract/support";
import { signedInUser } from "../auth/signed-in-user";
import { textLimitsOf, textPastDeployLimit } from "../deploy-limits/deploy-limits";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { isFailedAssertion } from "../idempotency/batch-assertion";
import { idempotent, idempotentPosts, ReplayAnswer } from "../idempotency/idempotency";
import { doorLimit, doorLimitOnPost } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { clientAddress, contactAttemptStatements, contactRetryAfterMs, emailForLimit } from "./contact-limits";
import { replyAsRead } from "./reply-as-read";
import { findThread, openTicketStatements, ticketColumns, ticketFromRow } from "./tickets";

const thread = jsonContent(successEnvelope(ticketThreadSchema), "The ticket and its messages");

const openTicket = createRoute({
  method: "post",
  path: "/tickets",
  summary: "Open a support ticket",
  security: bearerAuth,
  request: { headers: idempotencyKeyHeader, body: { content: { "application/json": { schema: openTicketBodySchema } }, required: true } },
  responses: {
    201: thread,
    400: errorContent("A field is not valid, or the message is longer than this deploy allows (GET /api/text-limits)"),
    401: errorContent("UNAUTHENTICATED"),
    404: errorContent("NOT_FOUND (the order)"),
  },
});

const contact = createRoute({
  method: "post",
  path: "/contact",
  summary: "The contact form: opens a ticket answered by email (no sign-in needed)",
  request: { headers: idempotencyKeyHeader, body: { content: { "application/json": { schema: contactBodySchema } }, required: true } },
  responses: {
    201: jsonContent(successEnvelope(z.strictObject({ id: z.string(), status: z.literal("open") })), "Received"),
    400: errorContent("A field is not valid, or the message is longer than this deploy allows (GET /api/text-limits)"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
    429: errorContent("RATE_LIMITED: 5 messages an hour per client address, 3 per email address (Retry-After says when)"),
  },
});

const myTickets = createRoute({
  method: "get",
  path: "/tickets",
  summary: "My tickets, most recently active first: the 100 most recent (a reply makes a ticket recent again)",
  security: bearerAuth,
  responses: { 200: jsonContent(successEnvelope(z.array(ticketSchema)), "My tickets"), 401: errorContent("UNAUTHENTICATED") },
});

const readTicket = createRoute({
  method: "get",
  path: "/tickets/{id}",
  summary: "One of my tickets with its thread",
  security: bearerAuth,
  request: { params: ticketIdParamSchema },
  responses: { 200: thread, 401: errorContent("UNAUTHENTICATED"), 404: errorContent("NOT_FOUND") },
});

const reply = createRoute({
  method: "post",
  path: "/tickets/{id}/messages",
  summary: "Reply on my ticket (reopens an answered one)",
  security: bearerAuth,
  request: {
    params: ticketIdParamSchema,
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: replyBodySchema } }, required: true },
  },
  responses: {
    201: thread,
    400: errorContent("A field is not valid, or the message is longer than this deploy allows (GET /api/text-limits)"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("TICKET_CLOSED; or TICKET_CHANGED: the ticket kept changing while the reply was written, so nothing was sent"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const close = createRoute({
  method: "post",
  path: "/tickets/{id}/close",
  summary: "Close my ticket",
  security: bearerAuth,
  request: { params: ticketIdParamSchema },
  responses: { 200: thread, 404: errorContent("NOT_FOUND") },
});

export const supportRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
supportRoutes.use("/tickets", signedInUser);
supportRoutes.use("/tickets/*", signedInUser);
supportRoutes.use(
  "/tickets",
  idempotentPosts((c) => c.var.user.id),
  doorLimitOnPost("tickets"),
);
supportRoutes.use(
  "/tickets/:id/messages",
  idempotent((c) => c.var.user.id),
  doorLimit("messages"),
);
supportRoutes.use(
  "/contact",
  idempotent(() => "anonymous:contact"),
);

/** A message past the deploy's length (docs/decisions/059-deploy-text-limits.md): the schema's 400, naming it. */
const messageTooLong = (c: Context<OriginEnv>, message: string) =>
  textPastDeployLimit(message, textLimitsOf(c.env).support.message, "message", "A message");

supportRoutes.openapi(openTicket, async (c) => {
  const body = c.req.valid("json");
  const tooLong = messageTooLong(c, body.message);
  if (tooLong) return c.var.idempotency.refuse(tooLong, { lasting: false });
  const user = c.var.user;
  const db = c.env.DB;
  if (body.orderId) {
    const order = await db.prepare("SELECT 1 FROM orders WHERE id = ?1 AND user_id = ?2").bind(body.orderId, user.id).first();
    if (!order) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such order among yours.", "orderId"));
  }
  const id = `tkt_${crypto.randomUUID()}`;
  const at = c.var.clock.now();
  const created = new Date(at).toISOString();
  return c.var.idempotency.commit(
    openTicketStatements(db, {
      id,
      userId: user.id,
      email: null,
      category: body.category,
      subject: body.subject,
      orderId: body.orderId ?? null,
      message: body.message,
      at,
    }),
    201,
    {
      code: "SUCCESS" as const,
      data: {
        id,
        category: body.category,
        subject: body.subject,
        orderId: body.orderId ?? null,
        status: "open" as const,
        createdAt: created,
        updatedAt: created,
        messages: [{ author: "user" as const, body: body.message, createdAt: created }],
      },
    },
  );
});

supportRoutes.openapi(contact, async (c) => {
  const body = c.req.valid("json");
  const tooLong = messageTooLong(c, body.message);
  if (tooLong) return c.var.idempotency.refuse(tooLong, { lasting: false });
  const db = c.env.DB;
  const at = c.var.clock.now();
  const sender = { address: clientAddress(c.var.clientIp), email: emailForLimit(body.email), at };
  const id = `tkt_${crypto.randomUUID()}`;
  try {
    return await c.var.idempotency.commit(
      [
        ...contactAttemptStatements(db, sender),
        ...openTicketStatements(db, {
          id,
          userId: null,
          email: body.email,
          category: body.category,
          subject: body.subject,
          orderId: null,
          message: body.message,
          at,
        }),
      ],
      201,
      { code: "SUCCESS" as const, data: { id, status: "open" as const } },
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    // A twin with this key may have used the last place: its answer is this request's.
    const twin = await c.var.idempotency.twinAnswer();
    if (twin) throw new ReplayAnswer(twin);
    const waitMs = await contactRetryAfterMs(db, sender);
    const minutes = Math.ceil(waitMs / 60_000);
    // Not recorded for the key: once the hour has passed, the same message may be sent.
    throw new ApiError(
      "RATE_LIMITED",
      `Too many messages were sent from here or for this email address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      undefined,
      { "Retry-After": String(Math.ceil(waitMs / 1000)) },
    );
  }
});

supportRoutes.openapi(myTickets, async (c) => {
  const rows = await c.env.DB.prepare(`SELECT ${ticketColumns} FROM ticket WHERE user_id = ?1 ORDER BY updated_at DESC, id DESC LIMIT 100`)
    .bind(c.var.user.id)
    .all<Parameters<typeof ticketFromRow>[0]>();
  return c.json({ code: "SUCCESS" as const, data: rows.results.map(ticketFromRow) }, 200);
});

async function ownThread(c: { env: Env; var: OriginEnv["Variables"] }, id: string) {
  const found = await findThread(c.env.DB, id, c.var.user.id);
  if (!found) throw new ApiError("NOT_FOUND", "There is no such ticket.");
  return found;
}

supportRoutes.openapi(readTicket, async (c) =>
  c.json({ code: "SUCCESS" as const, data: await ownThread(c, c.req.valid("param").id) }, 200),
);

supportRoutes.openapi(reply, async (c) => {
  const { id } = c.req.valid("param");
  const { message } = c.req.valid("json");
  const tooLong = messageTooLong(c, message);
  if (tooLong) return c.var.idempotency.refuse(tooLong, { lasting: false });
  return replyAsRead(c, { id, message, author: "user", owner: c.var.user.id, closed: ticketClosed() });
});

const ticketClosed = () => new ApiError("TICKET_CLOSED", "This ticket is closed. Open a new one if you still need help.");

supportRoutes.openapi(close, async (c) => {
  const { id } = c.req.valid("param");
  await c.env.DB.prepare("UPDATE ticket SET status = 'closed', updated_at = ?1 WHERE id = ?2 AND user_id = ?3 AND status <> 'closed'")
    .bind(c.var.clock.now(), id, c.var.user.id)
    .run();
  return c.json({ code: "SUCCESS" as const, data: await ownThread(c, id) }, 200);
});
