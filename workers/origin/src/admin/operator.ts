import { createMiddleware } from "hono/factory";
import { ApiError } from "../http/answer";
import type { OriginEnv } from "../origin-env";

// A secret, so `wrangler types` (which reads only wrangler.toml here) cannot know it.
declare global {
  interface Env {
    /** The operator's bearer token for /api/admin/*: `wrangler secret put ADMIN_TOKEN` (32+ characters). */
    ADMIN_TOKEN?: string;
  }
}

const encoder = new TextEncoder();

/** Operator routes: the ADMIN_TOKEN secret as the bearer token; none configured, none allowed. */
export const operatorOnly = createMiddleware<OriginEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  const given = /^Bearer +(.+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
  const a = encoder.encode(given);
  const b = encoder.encode(expected ?? "");
  const allowed = expected !== undefined && expected.length >= 32 && a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
  if (!allowed) throw new ApiError("FORBIDDEN", "Operator access only.");
  await next();
});
