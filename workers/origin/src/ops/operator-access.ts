import { createMiddleware } from "hono/factory";
import { bearerToken, hashToken } from "../auth/bearer-token";
import { findSessionUser, sessionTime } from "../auth/sessions";
import { ApiError, noRouteError } from "../http/answer";
import type { OriginEnv } from "../origin-env";
import { may, type OperatorRight, type OperatorRole } from "./roles";

export type SignedInOperator = { userId: string; handle: string; displayName: string; role: OperatorRole };

/**
 * The back office's door (docs/decisions/012-operators-and-audit.md): a signed-in account
 * holding an operator role. Anyone else, signed in or not, hears what an unknown path answers
 * (404), so the API does not say who is an operator; an operator whose role lacks the right
 * hears 403.
 */
export const operatorWith = (right: OperatorRight) =>
  createMiddleware<OriginEnv>(async (c, next) => {
    const token = bearerToken(c.req.header("Authorization"));
    const db = c.env.DB;
    const user = token ? await findSessionUser(db, await hashToken(token), sessionTime(c.env, c.var.clock.now())) : null;
    const role = user
      ? await db.prepare("SELECT role FROM operator_role WHERE user_id = ?1").bind(user.id).first<OperatorRole>("role")
      : null;
    // A locked operator is no operator until unlocked (docs/decisions/013-account-locks.md).
    if (!user || !role || user.locked) throw noRouteError(c);
    if (!may(role, right)) throw new ApiError("FORBIDDEN", `A ${role} operator may not do this.`);
    c.set("operator", { userId: user.id, handle: user.handle, displayName: user.displayName, role });
    await next();
  });
