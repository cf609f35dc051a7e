import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { jsonContent, successEnvelope } from "#contract/openapi";
import type { OriginEnv } from "../origin-env";

const health = createRoute({
  method: "get",
  path: "/health",
  summary: "Liveness: answers without touching the database",
  responses: { 200: jsonContent(successEnvelope(z.strictObject({ ok: z.literal(true) })), "Alive") },
});

const ready = createRoute({
  method: "get",
  path: "/health/ready",
  summary: "Readiness: one round trip to the database",
  responses: {
    200: jsonContent(successEnvelope(z.strictObject({ ok: z.literal(true), database: z.literal(true) })), "Ready"),
  },
});

export const healthRoutes = new OpenAPIHono<OriginEnv>()
  .openapi(health, (c) => c.json({ code: "SUCCESS" as const, data: { ok: true as const } }, 200))
  // A failing database reaches onError (500 INTERNAL_ERROR), which is what a probe wants to see.
  .openapi(ready, async (c) => {
    await c.env.DB.prepare("SELECT 1").first();
    return c.json({ code: "SUCCESS" as const, data: { ok: true as const, database: true as const } }, 200);
  });
