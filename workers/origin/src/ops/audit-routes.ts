import * as Sentry from "../error-reporting";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import {
  type AuditFilters,
  type AuditRow,
  auditCsvQuerySchema,
  auditPageSchema,
  auditPageSize,
  auditQuerySchema,
} from "#contract/ops-audit";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { auditCsvCells, auditCsvHeader, auditPage } from "./audit-trail";
import { csvStream } from "./csv";
import { operatorWith } from "./operator-access";
import { cursorOf, positionOf } from "./page-cursor";
import { forbiddenUnless } from "./route-answers";

/** Reading the audit trail (docs/decisions/014-back-office-desks.md): finance and admins (right readAudit). */
const list = createRoute({
  method: "get",
  path: "/audit",
  summary: "The audit trail, newest first, filtered by actor, action, object and time (finance and admin)",
  security: operatorSession,
  request: { query: auditQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(auditPageSchema), "A page of the trail, newest first"),
    400: errorContent("BAD_REQUEST: a query field is not valid (field names it)"),
    403: forbiddenUnless("readAudit: finance and admin"),
    404: errorContent("NOT_FOUND: no person has the handle in actor (field actor), or not signed in as an operator"),
  },
});

const exportCsv = createRoute({
  method: "get",
  path: "/audit.csv",
  // Named here: the generated name would keep the path's dot.
  operationId: "getOpsAuditCsv",
  summary: "The whole filtered audit trail as a CSV file, newest first (finance and admin)",
  security: operatorSession,
  request: { query: auditCsvQuerySchema },
  responses: {
    200: {
      description:
        "UTF-8 with a byte order mark, CRLF line ends, a header line, then one line per row of the trail; text cells that " +
        "begin with =, +, -, @, a tab or a CR are prefixed with ' so that spreadsheets show them as text",
      headers: {
        "Content-Disposition": { description: "attachment, with a file name", schema: { type: "string" } },
      },
      content: { "text/csv": { schema: z.string() } },
    },
    400: errorContent("BAD_REQUEST: a query field is not valid (field names it)"),
    403: forbiddenUnless("readAudit: finance and admin"),
    404: errorContent("NOT_FOUND: no person has the handle in actor (field actor), or not signed in as an operator"),
  },
});

const auditList = "audit";
/** Rows read per D1 query while the CSV streams: what sits in memory at once. */
const csvPageRows = 500;

/** The filtered trail page by page from the first one, read as the CSV's reader asks for more. */
async function* auditPages(db: D1Database, filters: AuditFilters, first: AuditRow[]): AsyncGenerator<AuditRow[]> {
  let page = first;
  for (;;) {
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (page.length < csvPageRows || !last) return;
    page = await auditPage(db, filters, { before: last.id, limit: csvPageRows });
  }
}

export const auditRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
auditRoutes.use("/audit", operatorWith("readAudit"));
auditRoutes.use("/audit.csv", operatorWith("readAudit"));

auditRoutes.openapi(list, async (c) => {
  const { cursor, ...filters } = c.req.valid("query");
  const before = cursor === undefined ? null : positionOf(cursor, auditList, ["number"])[0];
  const rows = await auditPage(c.env.DB, filters, { before, limit: auditPageSize + 1 });
  const page = rows.slice(0, auditPageSize);
  const last = page.at(-1);
  const nextCursor = rows.length > auditPageSize && last ? cursorOf(auditList, [last.id]) : null;
  return c.json({ code: "SUCCESS" as const, data: { rows: page, nextCursor } }, 200);
});

auditRoutes.openapi(exportCsv, async (c) => {
  const filters = c.req.valid("query");
  const db = c.env.DB;
  // The first page is read before the answer starts, so that an unknown actor or a failing
  // database is still an answer of its own (404, 500) rather than a cut-off download.
  const first = await auditPage(db, filters, { before: null, limit: csvPageRows });
  const stamp = new Date(c.var.clock.now()).toISOString().replace(/[-:]|\.\d+/g, "");
  const body = csvStream({
    header: auditCsvHeader,
    pages: auditPages(db, filters, first),
    cellsOf: auditCsvCells,
    onError: (error) => {
      console.error("The audit trail's CSV stopped part way", error);
      Sentry.captureException(error);
    },
  });
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="paydesk-audit-${stamp}.csv"`,
    // Names and reasons of operators: not for any cache on the way.
    "Cache-Control": "no-store",
  });
});
