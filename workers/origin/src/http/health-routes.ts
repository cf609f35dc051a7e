import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { jsonContent, successEnvelope } from "./openapi-routes";
import type { OriginEnv } from "../origin-env";

const health = createRoute({
  method: "get",
  path: "/health",
  summary: "Liveness: answers without touching the database",
  responses: { 200: jsonContent(successEnvelope(z.strictObject({ ok: z.literal(true) })), "Alive") },
});

export const healthRoutes = new OpenAPIHono<OriginEnv>().openapi(health, (c) =>
  c.json({ code: "SUCCESS" as const, data: { ok: true as const } }, 200),
);
