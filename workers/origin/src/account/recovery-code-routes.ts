/**
 * Recovery codes (docs/decisions/024-account-safety.md): ten one-time codes, shown once when
 * made; a new set replaces the old. Making a set asks for the password again.
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { newRecoveryCodesBodySchema, recoveryCodesSchema, recoveryCodesStatusSchema } from "#contract/account-safety";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { signedInUser } from "../auth/signed-in-user";
import { validationHook } from "../http/validation";
import { doorLimitOnPost } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { checkCurrentPassword } from "./account-password";
import { newRecoveryCodes, plainRecoveryCode, recoveryCodeHash } from "./recovery-codes";

const codesStatus = createRoute({
  method: "get",
  path: "/recovery-codes",
  summary: "How many of my recovery codes are unused, and when they were made",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(recoveryCodesStatusSchema), "The current set's state (never the codes)"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const makeCodes = createRoute({
  method: "post",
  path: "/recovery-codes",
  summary: "Make a new set of ten recovery codes (the old set stops working); shown once",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: newRecoveryCodesBodySchema } }, required: true } },
  responses: {
    201: jsonContent(successEnvelope(recoveryCodesSchema), "The codes, this once"),
    401: errorContent("UNAUTHENTICATED"),
    422: errorContent("WRONG_PASSWORD (field password)"),
  },
});

export const recoveryCodeRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
// No Idempotency-Key: its record would keep a fast hash of the body, and so of the password.
// A retry whose first answer was lost makes another set, which replaces the one never seen.
recoveryCodeRoutes.use("/recovery-codes", signedInUser, doorLimitOnPost("accountSecurity"));

recoveryCodeRoutes
  .openapi(codesStatus, async (c) => {
    // recovery_code_user (user_id, used_at).
    const row = await c.env.DB.prepare(
      "SELECT count(CASE WHEN used_at IS NULL THEN 1 END) AS remaining, max(created_at) AS generated_at FROM recovery_code WHERE user_id = ?1",
    )
      .bind(c.var.user.id)
      .first<{ remaining: number; generated_at: number | null }>();
    const generatedAt = row?.generated_at ?? null;
    return c.json(
      {
        code: "SUCCESS" as const,
        data: { remaining: row?.remaining ?? 0, generatedAt: generatedAt === null ? null : new Date(generatedAt).toISOString() },
      },
      200,
    );
  })
  .openapi(makeCodes, async (c) => {
    const db = c.env.DB;
    const userId = c.var.user.id;
    await checkCurrentPassword(db, userId, c.req.valid("json").password, "password");
    const now = c.var.clock.now();
    const codes = newRecoveryCodes();
    const hashes = await Promise.all(codes.map((code) => recoveryCodeHash(userId, plainRecoveryCode(code) ?? code)));
    await db.batch([
      db.prepare("DELETE FROM recovery_code WHERE user_id = ?1").bind(userId),
      ...hashes.map((hash) =>
        db.prepare("INSERT INTO recovery_code (code_hash, user_id, created_at) VALUES (?1, ?2, ?3)").bind(hash, userId, now),
      ),
    ]);
    return c.json({ code: "SUCCESS" as const, data: { codes, generatedAt: new Date(now).toISOString() } }, 201);
  });
