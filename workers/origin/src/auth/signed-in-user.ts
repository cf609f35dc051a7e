import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { idempotencyKeyPattern } from "#contract/openapi";
import { ApiError } from "../http/answer";
import { thisRequestsAnswer } from "../idempotency/idempotency";
import type { OriginEnv } from "../origin-env";
import { bearerToken, hashToken } from "./bearer-token";
import { findSessionUser, sessionTime } from "./sessions";

/**
 * What a locked account may still do (docs/decisions/013-account-locks.md): read its records
 * and talk to support, and keep itself safe where that takes the password or only ends
 * access — change the password, end sessions, make recovery codes, remove a passkey
 * (docs/decisions/024-account-safety.md). Not its name, nor add or rename a passkey
 * (docs/decisions/025-passkeys.md): a new way in is not for an account under a lock. Every
 * other request it makes is refused before it begins; the ledger's triggers refuse the rest,
 * should a lock commit while a request is under way.
 */
const lockedMaySafetyPaths = ["/api/account/password", "/api/account/sessions/", "/api/account/recovery-codes", "/api/account/devices/"];
// `[^/]+` takes the published document's `{id}` as well as an id.
const passkeyRemoval = /^\/api\/account\/passkeys\/[^/]+\/remove$/;
export const lockedMay = (method: string, path: string) =>
  method === "GET" ||
  path.startsWith("/api/support/") ||
  lockedMaySafetyPaths.some((prefix) => path.startsWith(prefix)) ||
  passkeyRemoval.test(path);

/** The signed-in operations that do not pass through `signedInUser`: a locked account still signs out and learns it is locked. */
export const sessionOwnPaths = new Set(["/api/user/session", "/api/user/logout"]);

/** Routes behind this reach `c.var.user`; without a live session they answer 401. */
export const signedInUser = createMiddleware<OriginEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  const sessionHash = await hashToken(token);
  const user = await findSessionUser(c.env.DB, sessionHash, sessionTime(c.env, c.var.clock.now()));
  if (!user) throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
  if (user.locked && !lockedMay(c.req.method, c.req.path)) {
    const earlier = await answeredBeforeTheLock(c, user.id);
    if (earlier) return earlier;
    throw accountLocked();
  }
  c.set("user", user);
  c.set("sessionHash", sessionHash);
  await next();
});

/**
 * The answer a request got before its account was locked, when this is its retry (same key,
 * same request): the lock does not undo what was done, and the person learns it was.
 */
async function answeredBeforeTheLock(c: Context<OriginEnv>, userId: string): Promise<Response | null> {
  const key = c.req.header("Idempotency-Key");
  return key && idempotencyKeyPattern.test(key) ? thisRequestsAnswer(c, key, { userId }) : null;
}

export const accountLocked = () =>
  new ApiError("ACCOUNT_LOCKED", "Your account is locked, so money cannot move. Contact support to find out why.");

/** A batch refused by a lock trigger of migration 0017. */
export const isLockRefusal = (error: unknown) => error instanceof Error && error.message.includes("account_locked");
