/**
 * A new password without the old one (docs/decisions/024-account-safety.md): with the handle
 * and one of the account's recovery codes, or with a recovery link an admin issued. Either
 * ends every session and signs in afresh; the code or link is spent in the same batch, so
 * of two attempts racing with one code exactly one succeeds. Every known device is forgotten
 * with the sessions, and the browser that recovered becomes the first new one
 * (docs/decisions/061-known-devices.md).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import type { Context } from "hono";
import { recoveredSchema, recoverWithCodeBodySchema, recoverWithLinkBodySchema } from "#contract/account-safety";
import { errorContent, jsonContent, successEnvelope } from "#contract/openapi";
import { endSessionsStatements } from "../account/end-sessions";
import { setPasswordStatement } from "../account/account-password";
import { plainRecoveryCode, recoveryCodeHash } from "../account/recovery-codes";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { hashToken } from "./bearer-token";
import { hashPassword } from "./passwords";
import { findSessionUser, sessionTime } from "./sessions";
import { newSessionToken, sessionDeviceOf } from "./session-tokens";
import { locksOf } from "../deploy-limits/deploy-limits";
import { forgottenWhenLocked, newKnownDevice, signInGuardOf } from "./known-devices";
import { clearSignInFailures, reserveSignInAttempt, settleFailedAttempt, signInLockedError } from "./sign-in-guard";

const recoverWithCode = createRoute({
  method: "post",
  path: "/recover",
  summary: "Set a new password with my handle and a recovery code: every session and every other code ends, and I am signed in",
  request: { body: { content: { "application/json": { schema: recoverWithCodeBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(recoveredSchema), "The new password is set; a new session"),
    401: errorContent("INVALID_RECOVERY: no unused code of that handle matches"),
    429: errorContent("SIGN_IN_LOCKED: too many failed sign-ins and recoveries for the handle, or for this known device"),
  },
});

const recoverWithLink = createRoute({
  method: "post",
  path: "/recover-with-link",
  summary: "Set a new password with a recovery link an admin issued: every session and recovery code ends, and I am signed in",
  request: { body: { content: { "application/json": { schema: recoverWithLinkBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(recoveredSchema), "The new password is set; a new session"),
    401: errorContent("INVALID_RECOVERY: the link is unknown, used or expired"),
  },
});

export const recoveryRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
recoveryRoutes.use("/recover", doorLimit("recovery"));
recoveryRoutes.use("/recover-with-link", doorLimit("recovery"));

/** No account has an empty id: the look-up an unknown handle makes finds nothing. */
const absentUserId = "";

const invalidRecovery = () =>
  new ApiError("INVALID_RECOVERY", "That does not match an unused recovery code of this account, or the link has expired or been used.");

/** The batch that sets the password, ends every session and opens a new one; then who is signed in. */
async function resetAndSignIn(c: Context<OriginEnv>, userId: string, newPassword: string, spend: D1PreparedStatement) {
  const db = c.env.DB;
  const now = c.var.clock.now();
  const browser = sessionDeviceOf(c);
  const device = await newKnownDevice(db, userId, now, browser.userAgent);
  const { token, insert } = await newSessionToken(db, userId, now, browser, device.tokenHash);
  try {
    await db.batch([
      spend,
      // Exactly one of two attempts with the same code or link spends it; the other rolls back.
      assertInBatch(db, "the code or link was unspent", "changes() = 1"),
      setPasswordStatement(db, userId, await hashPassword(newPassword)),
      ...endSessionsStatements(db, userId, sessionTime(c.env, now), { voidRecoveryCodes: true }),
      insert,
      ...device.statements,
    ]);
  } catch (error) {
    if (isFailedAssertion(error)) throw invalidRecovery();
    throw error;
  }
  const user = await findSessionUser(db, await hashToken(token), sessionTime(c.env, now));
  if (!user) throw new Error("A session created just now was not found.");
  return { token, user, deviceToken: device.deviceToken };
}

recoveryRoutes
  .openapi(recoverWithCode, async (c) => {
    const { handle, code, newPassword, deviceToken } = c.req.valid("json");
    const db = c.env.DB;
    const now = c.var.clock.now();
    // Wrong codes count as failed sign-ins (of the handle, or of the known device they come
    // from): guessing both ways shares one budget.
    const lock = locksOf(c.env).signIn;
    const guard = await signInGuardOf(db, handle, deviceToken, now);
    if ((await reserveSignInAttempt(db, guard.key, now, lock)) === null) throw await signInLockedError(db, guard.key, now);
    const user = await db.prepare("SELECT id FROM user WHERE handle = ?1").bind(handle).first<{ id: string }>();
    // A known handle and an unknown one do the same work before the same refusal (a hash and a
    // look-up; the new password is hashed only once the code is known unspent), so the time an
    // answer takes does not tell whether the handle exists, as signing in does not.
    const userId = user?.id ?? absentUserId;
    const codeHash = await recoveryCodeHash(userId, plainRecoveryCode(code) ?? code);
    const unspent = await db
      .prepare("SELECT 1 AS unspent FROM recovery_code WHERE code_hash = ?1 AND user_id = ?2 AND used_at IS NULL")
      .bind(codeHash, userId)
      .first<{ unspent: 1 }>();
    if (!user || !unspent) {
      await settleFailedAttempt(db, guard.key, now, lock, forgottenWhenLocked(db, guard, now));
      throw invalidRecovery();
    }
    const spend = db
      .prepare("UPDATE recovery_code SET used_at = ?1 WHERE code_hash = ?2 AND user_id = ?3 AND used_at IS NULL")
      .bind(now, codeHash, user.id);
    try {
      const signedIn = await resetAndSignIn(c, user.id, newPassword, spend);
      await clearSignInFailures(db, guard.key);
      return c.json({ code: "SUCCESS" as const, data: signedIn }, 200);
    } catch (error) {
      if (error instanceof ApiError && error.code === "INVALID_RECOVERY") {
        await settleFailedAttempt(db, guard.key, now, lock, forgottenWhenLocked(db, guard, now));
      }
      throw error;
    }
  })
  .openapi(recoverWithLink, async (c) => {
    const { link, newPassword } = c.req.valid("json");
    const db = c.env.DB;
    const now = c.var.clock.now();
    const tokenHash = await hashToken(link);
    const row = await db
      .prepare("SELECT user_id FROM recovery_link WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2")
      .bind(tokenHash, now)
      .first<{ user_id: string }>();
    if (!row) throw invalidRecovery();
    const spend = db
      .prepare("UPDATE recovery_link SET used_at = ?1 WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ?1")
      .bind(now, tokenHash);
    return c.json({ code: "SUCCESS" as const, data: await resetAndSignIn(c, row.user_id, newPassword, spend) }, 200);
  });
