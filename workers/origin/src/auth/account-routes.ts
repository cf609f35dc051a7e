import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { passwordSignInAnswerSchema, registerBodySchema, signInBodySchema } from "#contract/account";
import { sessionAnswerSchema, signInLinkLifetimeMs, signInLinkSchema, userInfoSchema } from "#contract/user-info";
import { ApiError } from "../http/answer";
import { bearerAuth, errorContent, idempotencyKeyHeader, jsonContent, successEnvelope } from "#contract/openapi";
import { validationHook } from "../http/validation";
import { idempotent } from "../idempotency/idempotency";
import { walletAccountOf } from "../ledger/journal";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { doorLimit } from "../limits/door-limit";
import type { OriginEnv } from "../origin-env";
import { bearerToken, hashToken } from "./bearer-token";
import { absentUserHash, hashPassword, verifyPassword } from "./passwords";
import { findSessionUser, sessionTime } from "./sessions";
import { newSessionId, newSessionToken, randomToken, sessionDeviceOf } from "./session-tokens";
import { signedInUser } from "./signed-in-user";
import { locksOf } from "../deploy-limits/deploy-limits";
import { forgottenWhenLocked, knownDeviceAfterSignIn, signInGuardOf } from "./known-devices";
import { clearSignInFailuresStatement, reserveSignInAttempt, settleFailedAttempt, signInLockedError } from "./sign-in-guard";

const register = createRoute({
  method: "post",
  path: "/register",
  summary: "Create an account (then sign in)",
  request: {
    headers: idempotencyKeyHeader,
    body: { content: { "application/json": { schema: registerBodySchema } }, required: true },
  },
  responses: {
    201: jsonContent(successEnvelope(userInfoSchema), "The new account"),
    400: errorContent("A field is not valid"),
    409: errorContent("HANDLE_TAKEN"),
    422: errorContent("IDEMPOTENCY_KEY_REUSED"),
  },
});

const signIn = createRoute({
  method: "post",
  path: "/login",
  summary: "Sign in: a new bearer token, and this browser's device token",
  description:
    "Failed attempts lock what they count against: the handle, or, when the body carries a device token this handle's password answered before, that device alone (docs/decisions/061-known-devices.md).",
  request: { body: { content: { "application/json": { schema: signInBodySchema } }, required: true } },
  responses: {
    200: jsonContent(successEnvelope(passwordSignInAnswerSchema), "Signed in"),
    400: errorContent("A field is not valid"),
    401: errorContent("INVALID_CREDENTIALS"),
    429: errorContent("SIGN_IN_LOCKED: the handle, or this known device, failed too often; Retry-After says for how long"),
  },
});

const signOut = createRoute({
  method: "post",
  path: "/logout",
  summary: "Sign out: the bearer token stops working",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(z.null()), "Signed out"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const session = createRoute({
  method: "post",
  path: "/session",
  summary: "The signed-in user of the bearer token",
  security: bearerAuth,
  responses: {
    200: jsonContent(successEnvelope(sessionAnswerSchema), "The signed-in user (and a replacement token after a sign-in link)"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

const signInLink = createRoute({
  method: "post",
  path: "/sign-in-link",
  summary: "A link that signs me in once, within 15 minutes (e.g. on my phone)",
  security: bearerAuth,
  responses: {
    201: jsonContent(successEnvelope(signInLinkSchema), "The link's path, with its token"),
    401: errorContent("UNAUTHENTICATED"),
  },
});

function requireToken(authorization: string | undefined): string {
  const token = bearerToken(authorization);
  if (!token) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  return token;
}

function isHandleTaken(error: unknown): boolean {
  // The handle `cli` is kept for the command line's grants (migration 0041): taken, as it were.
  return error instanceof Error && /UNIQUE constraint failed: user\.handle|user: the handle cli is kept/.test(error.message);
}

export const accountRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });

accountRoutes.use(
  "/register",
  idempotent(() => "anonymous:register"),
  doorLimit("signUp"),
);
accountRoutes.use("/login", doorLimit("signIn"));

accountRoutes
  .openapi(register, async (c) => {
    const { handle, password, displayName } = c.req.valid("json");
    const now = c.var.clock.now();
    const id = `usr_${crypto.randomUUID()}`;
    const stored = await hashPassword(password);
    const db = c.env.DB;
    const user = {
      id,
      handle,
      displayName,
      balances: { available: 0, held: 0 },
      currency: "CNY" as const,
      createdAt: new Date(now).toISOString(),
    };
    try {
      return await c.var.idempotency.commit(
        [
          db
            .prepare(
              `INSERT INTO user (id, handle, display_name, created_at, password_hash, password_salt, password_iterations)
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
            )
            .bind(id, handle, displayName, now, stored.hash, stored.salt, stored.iterations),
          db.prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, ?2, 'user')").bind(walletAccountOf(id), id),
        ],
        201,
        { code: "SUCCESS" as const, data: user },
      );
    } catch (error) {
      if (!isHandleTaken(error)) throw error;
      return c.var.idempotency.refuse(new ApiError("HANDLE_TAKEN", "That handle is taken. Choose another.", "handle"));
    }
  })
  .openapi(signIn, async (c) => {
    const { handle, password, deviceToken } = c.req.valid("json");
    const db = c.env.DB;
    const now = c.var.clock.now();
    const lock = locksOf(c.env).signIn;
    const guard = await signInGuardOf(db, handle, deviceToken, now);
    if ((await reserveSignInAttempt(db, guard.key, now, lock)) === null) throw await signInLockedError(db, guard.key, now);
    const row = await db
      .prepare("SELECT id, password_hash, password_salt, password_iterations FROM user WHERE handle = ?1")
      .bind(handle)
      .first<{ id: string; password_hash: string | null; password_salt: string | null; password_iterations: number | null }>();
    const stored =
      row?.password_hash && row.password_salt && row.password_iterations
        ? { hash: row.password_hash, salt: row.password_salt, iterations: row.password_iterations }
        : absentUserHash;
    // Verified even for an unknown handle: both answers take the same time.
    const valid = (await verifyPassword(password, stored)) && stored !== absentUserHash;
    const refuse = async () => {
      await settleFailedAttempt(db, guard.key, now, lock, forgottenWhenLocked(db, guard, now));
      return new ApiError("INVALID_CREDENTIALS", "That handle and password do not match an account.");
    };
    if (!row || !valid) throw await refuse();
    const browser = sessionDeviceOf(c);
    const device = await knownDeviceAfterSignIn(db, row.id, guard, now, browser.userAgent);
    const { token, insert } = await newSessionToken(db, row.id, now, browser, device.tokenHash);
    try {
      await db.batch([
        // A password changed while this one was checked opens nothing: a session or a known
        // device made now would outlive the change that was meant to end them.
        assertInBatch(
          db,
          "the password checked is still the account's",
          "(SELECT password_hash FROM user WHERE id = ?) = ?",
          row.id,
          stored.hash,
        ),
        insert,
        ...device.statements,
        clearSignInFailuresStatement(db, guard.key),
      ]);
    } catch (error) {
      if (!isFailedAssertion(error)) throw error;
      throw await refuse();
    }
    const user = await findSessionUser(db, await hashToken(token), sessionTime(c.env, now));
    if (!user) throw new Error("A session created just now was not found.");
    return c.json({ code: "SUCCESS" as const, data: { token, user, deviceToken: device.deviceToken } }, 200);
  })
  .openapi(signOut, async (c) => {
    const token = requireToken(c.req.header("Authorization"));
    const db = c.env.DB;
    const now = c.var.clock.now();
    const tokenHash = await hashToken(token);
    // Links the user made stop working too: a stolen session cannot outlive sign-out through one.
    const [ended] = await db.batch([
      db.prepare("UPDATE session SET ended_at = ?1 WHERE token_hash = ?2 AND ended_at IS NULL RETURNING user_id").bind(now, tokenHash),
      db
        .prepare(
          "UPDATE sign_in_link SET used_at = ?1 WHERE used_at IS NULL AND user_id = (SELECT user_id FROM session WHERE token_hash = ?2)",
        )
        .bind(now, tokenHash),
    ]);
    if (!ended?.results.length) throw new ApiError("UNAUTHENTICATED", "You are not signed in.");
    return c.json({ code: "SUCCESS" as const, data: null }, 200);
  })
  .openapi(session, async (c) => {
    const token = requireToken(c.req.header("Authorization"));
    const db = c.env.DB;
    const now = c.var.clock.now();
    const tokenHash = await hashToken(token);
    const user = await findSessionUser(db, tokenHash, sessionTime(c.env, now));
    if (user) return c.json({ code: "SUCCESS" as const, data: user }, 200);

    // A sign-in link, used for the first time within its 15 minutes: exchanged for a new
    // session in one batch, so the link is spent exactly when the session exists.
    const replacement = { token: randomToken() };
    const device = sessionDeviceOf(c);
    const replacementHash = await hashToken(replacement.token);
    await db.batch([
      db
        .prepare(
          `INSERT INTO session (token_hash, user_id, created_at, last_used_at, id, user_agent, place)
           SELECT ?1, user_id, ?2, ?2, ?4, ?5, ?6 FROM sign_in_link WHERE token_hash = ?3 AND used_at IS NULL AND expires_at > ?2`,
        )
        .bind(replacementHash, now, tokenHash, newSessionId(), device.userAgent, device.place),
      db.prepare("UPDATE sign_in_link SET used_at = ?1 WHERE token_hash = ?2 AND used_at IS NULL AND expires_at > ?1").bind(now, tokenHash),
    ]);
    const linked = await findSessionUser(db, replacementHash, sessionTime(c.env, now));
    if (!linked) throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
    return c.json({ code: "SUCCESS" as const, data: { ...linked, replacementToken: replacement.token } }, 200);
  });

accountRoutes.use("/sign-in-link", signedInUser, doorLimit("signInLink"));
accountRoutes.openapi(signInLink, async (c) => {
  const token = randomToken();
  const now = c.var.clock.now();
  const expiresAt = now + signInLinkLifetimeMs;
  // No Idempotency-Key: its stored answer would keep the link's token in clear. A retry
  // makes a second link, which is harmless: each works once, for 15 minutes.
  await c.env.DB.prepare("INSERT INTO sign_in_link (token_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")
    .bind(await hashToken(token), c.var.user.id, now, expiresAt)
    .run();
  return c.json({ code: "SUCCESS" as const, data: { path: `/?token=${token}`, expiresAt: new Date(expiresAt).toISOString() } }, 201);
});
