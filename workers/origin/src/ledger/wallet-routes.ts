import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import {
  walletEntriesQuerySchema,
  walletEntryPageSchema,
  walletExportColumns,
  walletExportQuerySchema,
  walletMonthsSchema,
  walletSummarySchema,
} from "#contract/wallet";
import { signedInUser } from "../auth/signed-in-user";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { doorLimit } from "../limits/door-limit";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { chinaDay } from "../transfers/china-day";
import { walletAccountOf } from "./journal";
import { walletExportBody } from "./wallet-export";
import { taskCounts, walletEntryPage, walletMonths } from "./wallet-entries";

const entries = createRoute({
  method: "get",
  path: "/entries",
  summary:
    "My wallet's history, newest first: one line per movement, signed in fen, with the balance after it; filtered by kind, direction and days",
  security: bearerAuth,
  request: { query: walletEntriesQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(walletEntryPageSchema), "A page of wallet lines"),
    400: errorContent("BAD_REQUEST: a field is not valid, or to is before from (field names it)"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const summary = createRoute({
  method: "get",
  path: "/summary",
  summary: "My balances, my claims still to submit and the submissions waiting for my check",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(walletSummarySchema), "The home screen's figures"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const months = createRoute({
  method: "get",
  path: "/months",
  summary: "Money into and out of my available balance per month (China Standard Time), the last 12 months with this one",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(walletMonthsSchema), "Twelve months, oldest first; a month without lines has zeros"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const exportCsv = createRoute({
  method: "get",
  path: "/export",
  summary: "My statement of some days (China Standard Time, both included, at most 366) as a CSV file, oldest line first",
  security: bearerAuth,
  request: { query: walletExportQuerySchema },
  responses: {
    200: {
      description:
        `UTF-8 with a byte order mark, CRLF line ends, a header line (${walletExportColumns.join(", ")}), then one line per ` +
        "wallet line in the range, oldest first: the time in China Standard Time with its offset, the kind, the other person, " +
        "the note or task, the order, the change of the available balance in yuan (two decimals) and in fen, the change of " +
        "held money in fen, the available balance after it in yuan and fen, and the journal transaction's id; text cells " +
        "that begin with =, +, -, @, a tab or a CR are prefixed with ' so that spreadsheets show them as text",
      headers: {
        "Content-Disposition": { description: "attachment, with a file name", schema: { type: "string" } },
      },
      content: { "text/csv": { schema: z.string() } },
    },
    400: errorContent(
      "BAD_REQUEST: from or to is missing or not a date (YYYY-MM-DD), to is before from, or the range is longer than 366 days (field names it)",
    ),
    401: errorContent("UNAUTHENTICATED"),
    429: errorContent("RATE_LIMITED: too many exports; Retry-After says when to try again"),
  },
});

/** The twelve months (YYYY-MM) that end with the month of `now`, in China Standard Time, oldest first. */
function lastTwelveMonths(now: number): string[] {
  const [year, month] = chinaDay(now).split("-").map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, index) => {
    const monthsBack = 11 - index;
    const total = year * 12 + (month - 1) - monthsBack;
    return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
  });
}

/** Only the signed-in user's own wallet: no route takes a wallet or user id. */
export const walletRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
walletRoutes.use("*", signedInUser);
walletRoutes.use("/export", doorLimit("exports"));

walletRoutes.openapi(entries, async (c) => {
  const { limit, cursor, ...filter } = c.req.valid("query");
  const user = c.var.user;
  const page = await walletEntryPage(c.env.DB, { userId: user.id, account: walletAccountOf(user.id), limit, cursor, filter });
  return c.json({ code: "SUCCESS" as const, data: page }, 200);
});

walletRoutes.openapi(months, async (c) => {
  const user = c.var.user;
  const wanted = lastTwelveMonths(c.var.clock.now());
  const since = Date.parse(`${wanted[0]}-01T00:00:00+08:00`);
  const found = new Map((await walletMonths(c.env.DB, walletAccountOf(user.id), since)).map((row) => [row.month, row]));
  const data = { months: wanted.map((month) => ({ month, in: found.get(month)?.in ?? 0, out: found.get(month)?.out ?? 0 })) };
  return c.json({ code: "SUCCESS" as const, data }, 200);
});

walletRoutes.openapi(exportCsv, async (c) => {
  const { from, to } = c.req.valid("query");
  const user = c.var.user;
  const body = await walletExportBody({ db: c.env.DB, userId: user.id, account: walletAccountOf(user.id), from, to });
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="paydesk-statement-${from}-${to}.csv"`,
    // A person's money: not for any cache on the way.
    "Cache-Control": "no-store",
  });
});

walletRoutes.openapi(summary, async (c) => {
  const user = c.var.user;
  // The balances were read with the session, in this request.
  const counts = await taskCounts(c.env.DB, user.id, c.var.clock.now());
  return c.json({ code: "SUCCESS" as const, data: { balances: user.balances, ...counts } }, 200);
});
