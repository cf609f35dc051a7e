import { Hono } from "hono";
import type { OriginEnv } from "../origin-env";
import { ApiError, success } from "../http/answer";
import { bearerToken, hashToken } from "./bearer-token";
import { findSessionUser } from "./sessions";

export const sessionRoutes = new Hono<OriginEnv>().post("/session", async (c) => {
  const token = bearerToken(c.req.header("Authorization"));
  if (!token) throw new ApiError("UNAUTHENTICATED", "Sign in to continue.");
  const user = await findSessionUser(c.env.DB, await hashToken(token), c.var.clock.now());
  if (!user) throw new ApiError("UNAUTHENTICATED", "Your session has ended. Sign in again.");
  return success(c, user);
});
