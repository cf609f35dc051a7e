import * as Sentry from "@sentry/cloudflare";

type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

/**
 * The edge's fetch handler, wrapped by Sentry only when a DSN is configured: without
 * one nothing can be sent, and the SDK's per-request scope work would only cost time
 * (about 10–15% of a cached page's throughput in `npm run bench`).
 */
export function reportingErrors(fetch: FetchHandler): ExportedHandler<Env> {
  const reported = Sentry.withSentry((env: Env) => ({ dsn: env.SENTRY_DSN || undefined, environment: env.SENTRY_ENVIRONMENT }), {
    fetch: (request: Request, env: Env, ctx: ExecutionContext) => fetch(request, env, ctx),
  } as ExportedHandler<Env>);
  return {
    fetch(request, env, ctx) {
      if (!env.SENTRY_DSN || !reported.fetch) return fetch(request as Request, env, ctx);
      return reported.fetch(request, env, ctx);
    },
  };
}
