import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { formatCode, issueCodesBodySchema, issuedCodesSchema } from "../../../../app/api/codes";
import { codeHash, newCode } from "../codes/code-values";
import { errorContent, jsonContent, successEnvelope } from "../http/openapi-routes";
import { validationHook } from "../http/validation";
import { ledgerViolations } from "../ledger/invariants";
import type { OriginEnv } from "../origin-env";
import { operatorOnly } from "./operator";

const operatorAuth = [{ operatorAuth: [] }];

const issueCodes = createRoute({
  method: "post",
  path: "/codes",
  summary: "Issue a batch of prepaid codes (shown once; only hashes are kept)",
  security: operatorAuth,
  request: { body: { content: { "application/json": { schema: issueCodesBodySchema } }, required: true } },
  responses: {
    201: jsonContent(successEnvelope(issuedCodesSchema), "The new codes"),
    400: errorContent("A field is not valid"),
    403: errorContent("FORBIDDEN"),
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

export const adminRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
adminRoutes.use("*", operatorOnly);

adminRoutes.openapi(issueCodes, async (c) => {
  const { value, count, expiresAt } = c.req.valid("json");
  const batch = `batch_${crypto.randomUUID()}`;
  const now = c.var.clock.now();
  const codes = Array.from({ length: count }, newCode);
  const db = c.env.DB;
  const rows = await Promise.all(codes.map(async (code) => [await codeHash(code), value, Date.parse(expiresAt), now, batch] as const));
  await db.batch(
    rows.map((row) =>
      db.prepare("INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch) VALUES (?1, ?2, ?3, ?4, ?5)").bind(...row),
    ),
  );
  return c.json({ code: "SUCCESS" as const, data: { batch, codes: codes.map(formatCode), value, expiresAt } }, 201);
});

adminRoutes.openapi(checkLedger, async (c) => {
  return c.json({ code: "SUCCESS" as const, data: { violations: await ledgerViolations(c.env.DB) } }, 200);
});
