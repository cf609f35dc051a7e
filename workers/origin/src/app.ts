import * as Sentry from "@sentry/cloudflare";
import { Hono } from "hono";
import { sessionRoutes } from "./auth/session-routes";
import { ApiError, failure } from "./http/answer";
import type { Clock, OriginEnv } from "./origin-env";

const systemClock: Clock = { now: () => Date.now() };

/** The origin's HTTP API. Tests pass their own clock so time-based rules need no sleeping. */
export function createOriginApp({ clock = systemClock }: { clock?: Clock } = {}) {
  const app = new Hono<OriginEnv>();
  app.use(async (c, next) => {
    c.set("clock", clock);
    await next();
  });
  app.route("/api/user", sessionRoutes);

  app.notFound((c) => failure(c, new ApiError("NOT_FOUND", `No API route ${c.req.method} ${c.req.path}.`)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return failure(c, error);
    // Anything else is a bug or an outage: report it and answer without details.
    Sentry.captureException(error);
    return failure(c, new ApiError("INTERNAL_ERROR", "Something went wrong on our side. Please try again."));
  });
  return app;
}
