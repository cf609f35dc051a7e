import { createMiddleware } from "hono/factory";
import { ApiError } from "../http/answer";
import type { OriginEnv } from "../origin-env";
import { bearerToken, hashToken } from "./bearer-token";
import { findSessionUser } from "./sessions";

/** Routes behind this reach `c.var.user`; without a live session they answer 401. */
export const signedInUser = createMiddleware<OriginEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  const user = await findSessionUser(c.env.DB, await hashToken(token), c.var.clock.now());
  if (!user) throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
  c.set("user", user);
  await next();
});
