/**
 * Changing the password (docs/decisions/024-account-safety.md): the current one is asked
 * again, and every other session ends, with the links that could open a new one and the known
 * devices; this browser becomes the first new known device (docs/decisions/061-known-devices.md).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { passwordChangeBodySchema, passwordChangedSchema } from "#contract/account-safety";
import { bearerAuth, errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { newKnownDevice } from "../auth/known-devices";
import { sessionDeviceOf } from "../auth/session-tokens";
import { hashPassword } from "../auth/passwords";
import { signedInUser } from "../auth/signed-in-user";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { sessionTime } from "../auth/sessions";
import { endSessionsStatements } from "./end-sessions";
import { checkCurrentPassword, setPasswordStatement } from "./account-password";

const changePassword = createRoute({
  method: "post",
  path: "/password",
  summary: "Change my password: every other session of mine ends, and my unused recovery codes stop working",
  security: bearerAuth,
  request: { body: { content: { "application/json": { schema: passwordChangeBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(passwordChangedSchema), "Changed; how many other sessions ended, and this browser's new device token"),
    401: errorContent("UNAUTHENTICATED (also when this session ended while the change was made)"),
    422: errorContent("WRONG_PASSWORD (field currentPassword), or PASSWORD_UNCHANGED (field newPassword)"),
  },
});

export const passwordRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
passwordRoutes.use("/password", signedInUser, doorLimit("accountSecurity"));

passwordRoutes.openapi(changePassword, async (c) => {
  const { currentPassword, newPassword } = c.req.valid("json");
  const db = c.env.DB;
  const userId = c.var.user.id;
  await checkCurrentPassword(db, userId, currentPassword);
  if (newPassword === currentPassword) {
    throw new ApiError("PASSWORD_UNCHANGED", "That is your password now. Choose a different one.", "newPassword");
  }
  const now = c.var.clock.now();
  const currentHash = c.var.sessionHash;
  const device = await newKnownDevice(db, userId, now, sessionDeviceOf(c).userAgent);
  try {
    const results = await db.batch([
      // A session ended meanwhile (by a change made elsewhere) changes nothing.
      assertInBatch(
        db,
        "this session is live",
        "(SELECT count(*) = 1 FROM session WHERE token_hash = ? AND ended_at IS NULL)",
        currentHash,
      ),
      setPasswordStatement(db, userId, await hashPassword(newPassword)),
      ...endSessionsStatements(db, userId, sessionTime(c.env, now), { keepTokenHash: currentHash, voidRecoveryCodes: true }),
      // The known devices were forgotten with the sessions; this browser proved the password.
      ...device.statements,
      db.prepare("UPDATE session SET device_hash = ?1 WHERE token_hash = ?2").bind(device.tokenHash, currentHash),
    ]);
    return c.json(
      { code: "SUCCESS" as const, data: { sessionsEnded: results[2]?.meta.changes ?? 0, deviceToken: device.deviceToken } },
      200,
    );
  } catch (error) {
    if (!isFailedAssertion(error)) throw error;
    throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
  }
});
