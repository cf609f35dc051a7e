import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { formatCode, issueCodesBodySchema, issuedCodesSchema } from "#contract/codes";
import { codesAlreadyShown, issueBatchStatements, newCodeBatch } from "../codes/code-batches";
import { errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { ledgerViolations } from "../ledger/invariants";
import { replyBodySchema, ticketIdParamSchema, ticketSchema, ticketStatuses, ticketThreadSchema } from "#contract/support";
import { replyAsRead } from "../support/reply-as-read";
import { ticketColumns, ticketFromRow } from "../support/tickets";
import { ApiError } from "../http/answer";
import { idempotentWhenKeyed } from "../idempotency/idempotency";
import { type AuditActor, auditStatement } from "../ops/audit";
import type { OriginEnv } from "../origin-env";
import { operatorOnly } from "./operator";

const operatorAuth = [{ operatorAuth: [] }];

/**
 * Automation may send an Idempotency-Key when it issues codes or answers a ticket
 * (docs/decisions/016-ticket-desk-and-code-batches.md): with one, a retry after a lost answer
 * does nothing twice; without one, as before.
 */
const optionalKey = idempotencyKeyHeader.partial();

const issueCodes = createRoute({
  method: "post",
  path: "/codes",
  summary:
    "Issue a batch of prepaid codes (shown once; only hashes are kept). With an Idempotency-Key, a retry hears 409 CODES_ALREADY_SHOWN naming the batch instead of issuing another",
  security: operatorAuth,
  request: { headers: optionalKey, body: { content: { "application/json": { schema: issueCodesBodySchema } }, required: true } },
  responses: {
    201: jsonContent(successEnvelope(issuedCodesSchema), "The new codes"),
    400: errorContent("A field is not valid, or the Idempotency-Key sent is not one (field Idempotency-Key)"),
    403: errorContent("FORBIDDEN"),
    409: errorContent("CODES_ALREADY_SHOWN: a retry, with its Idempotency-Key, of a request whose answer carried the codes"),
  },
});

const checkLedger = createRoute({
  method: "get",
  path: "/ledger/check",
  summary: "Check the ledger's invariants",
  security: operatorAuth,
  responses: {
    200: jsonContent(
      successEnvelope(z.strictObject({ violations: z.array(z.strictObject({ invariant: z.string(), detail: z.unknown() })) })),
      "The violations found (none when all is well)",
    ),
    403: errorContent("FORBIDDEN"),
  },
});

const supportQueue = createRoute({
  method: "get",
  path: "/support/tickets",
  summary: "Tickets by status, oldest activity first (the operator's queue)",
  security: operatorAuth,
  request: { query: z.strictObject({ status: z.enum(ticketStatuses).default("open") }) },
  responses: {
    200: jsonContent(successEnvelope(z.array(ticketSchema.extend({ email: z.string().nullable() }))), "The queue"),
    403: errorContent("FORBIDDEN"),
  },
});

const supportReply = createRoute({
  method: "post",
  path: "/support/tickets/{id}/messages",
  summary:
    "Answer a ticket. With an Idempotency-Key, a retry after a lost answer sends nothing twice and hears the thread the first request made",
  security: operatorAuth,
  request: {
    params: ticketIdParamSchema,
    headers: optionalKey,
    body: { content: { "application/json": { schema: replyBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(ticketThreadSchema), "The ticket, answered"),
    403: errorContent("FORBIDDEN"),
    404: errorContent("NOT_FOUND"),
    409: errorContent("TICKET_CLOSED; or TICKET_CHANGED: the ticket kept changing while the answer was written, so nothing was sent"),
  },
});

/** ADMIN_TOKEN is for automation only: its actions are audited as such (docs/decisions/012-operators-and-audit.md). */
const automation: AuditActor = { kind: "automation" };

export const adminRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
adminRoutes.use("*", operatorOnly);
adminRoutes.use(
  "/codes",
  idempotentWhenKeyed(() => "automation"),
);
adminRoutes.use(
  "/support/tickets/:id/messages",
  idempotentWhenKeyed(() => "automation"),
);

adminRoutes.openapi(issueCodes, async (c) => {
  const { value, count, expiresAt } = c.req.valid("json");
  const now = c.var.clock.now();
  const db = c.env.DB;
  const batch = newCodeBatch({ value, count, expiresAt: Date.parse(expiresAt), issuedAt: now, note: null, issuedBy: null });
  return c.var.idempotency.commit(
    [
      ...(await issueBatchStatements(db, batch)),
      auditStatement(db, {
        actor: automation,
        action: "codes.issue",
        object: { type: "code_batch", id: batch.id },
        after: { value, count, expiresAt },
        requestId: c.req.header("X-Request-Id") ?? null,
        at: now,
      }),
    ],
    201,
    { code: "SUCCESS" as const, data: { batch: batch.id, codes: batch.codes.map(formatCode), value, expiresAt } },
    // Shown once, as in the back office (code-batch-routes.ts): the key keeps a refusal naming the batch, never the codes.
    { replayAs: codesAlreadyShown(batch.id) },
  );
});

adminRoutes.openapi(checkLedger, async (c) => {
  return c.json({ code: "SUCCESS" as const, data: { violations: await ledgerViolations(c.env.DB) } }, 200);
});

adminRoutes.openapi(supportQueue, async (c) => {
  const rows = await c.env.DB.prepare(`SELECT ${ticketColumns}, email FROM ticket WHERE status = ?1 ORDER BY updated_at, id LIMIT 200`)
    .bind(c.req.valid("query").status)
    .all<Parameters<typeof ticketFromRow>[0] & { email: string | null }>();
  return c.json({ code: "SUCCESS" as const, data: rows.results.map((row) => ({ ...ticketFromRow(row), email: row.email })) }, 200);
});

adminRoutes.openapi(supportReply, async (c) => {
  const { id } = c.req.valid("param");
  const { message } = c.req.valid("json");
  const requestId = c.req.header("X-Request-Id") ?? null;
  return replyAsRead(c, {
    id,
    message,
    author: "operator",
    owner: null,
    closed: new ApiError("TICKET_CLOSED", "This ticket is closed."),
    alsoInBatch: (at) => [
      auditStatement(c.env.DB, {
        actor: automation,
        action: "ticket.reply",
        object: { type: "ticket", id },
        after: { characters: [...message].length },
        requestId,
        at,
      }),
    ],
  });
});
