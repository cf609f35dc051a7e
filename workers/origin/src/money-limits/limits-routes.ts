import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { moneyLimitsSchema } from "#contract/money-limits-answer";
import { jsonContent, successEnvelope } from "#contract/openapi";
import type { OriginEnv } from "../origin-env";
import { limitsOf } from "./deploy-limits";

const limits = createRoute({
  method: "get",
  path: "/limits",
  summary: "This deploy's money limits, in fen",
  description:
    "The contract's schemas state the product's limits; a deploy may tighten them (docs/decisions/053-deploy-limits.md), and then refuses what passes its own with 400 naming the field, or 422 DAILY_LIMIT_EXCEEDED. No sign-in needed: they are the same for everyone.",
  responses: { 200: jsonContent(successEnvelope(moneyLimitsSchema), "The limits in force") },
});

export const limitsRoutes = new OpenAPIHono<OriginEnv>().openapi(limits, (c) =>
  c.json({ code: "SUCCESS" as const, data: limitsOf(c.env) }, 200),
);
