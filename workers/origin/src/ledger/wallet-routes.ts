import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { walletEntriesQuerySchema, walletEntryPageSchema, walletSummarySchema } from "#contract/wallet";
import { signedInUser } from "../auth/signed-in-user";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import type { OriginEnv } from "../origin-env";
import { walletAccountOf } from "./journal";
import { taskCounts, walletEntryPage } from "./wallet-entries";

const entries = createRoute({
  method: "get",
  path: "/entries",
  summary: "My wallet's history, newest first: one line per movement, signed in fen",
  security: bearerAuth,
  request: { query: walletEntriesQuerySchema },
  responses: {
    200: jsonContent(successEnvelope(walletEntryPageSchema), "A page of wallet lines"),
    400: errorContent("A field is not valid"),
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

/** Only the signed-in user's own wallet: no route takes a wallet or user id. */
export const walletRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
walletRoutes.use("*", signedInUser);

walletRoutes.openapi(entries, async (c) => {
  const { limit, cursor } = c.req.valid("query");
  const user = c.var.user;
  const page = await walletEntryPage(c.env.DB, { userId: user.id, account: walletAccountOf(user.id), limit, cursor });
  return c.json({ code: "SUCCESS" as const, data: page }, 200);
});

walletRoutes.openapi(summary, async (c) => {
  const user = c.var.user;
  // The balances were read with the session, in this request.
  const counts = await taskCounts(c.env.DB, user.id, c.var.clock.now());
  return c.json({ code: "SUCCESS" as const, data: { balances: user.balances, ...counts } }, 200);
});
