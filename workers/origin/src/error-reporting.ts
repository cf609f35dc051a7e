import * as Sentry from "@sentry/cloudflare";

type ReportingEnv = { SENTRY_DSN?: string; SENTRY_ENVIRONMENT?: string };
type FetchHandler<E> = (request: Request, env: E, ctx: ExecutionContext) => Promise<Response>;

/**
 * A worker's fetch handler, wrapped by Sentry only when a DSN is configured: without
 * one nothing can be sent, and the SDK's per-request scope work would only cost time
 * (about 10–15% of a cached page's throughput in `npm run bench`).
 */
export function reportingErrors<E extends ReportingEnv>(
  fetch: FetchHandler<E>,
  { scheduled }: { scheduled?: NonNullable<ExportedHandler<E>["scheduled"]> } = {},
): ExportedHandler<E> {
  const reported = Sentry.withSentry((env: E) => ({ dsn: env.SENTRY_DSN || undefined, environment: env.SENTRY_ENVIRONMENT }), {
    fetch: (request: Request, env: E, ctx: ExecutionContext) => fetch(request, env, ctx),
    ...(scheduled ? { scheduled } : {}),
  } as ExportedHandler<E>);
  return {
    fetch(request, env, ctx) {
      if (!env.SENTRY_DSN || !reported.fetch) return fetch(request as Request, env, ctx);
      return reported.fetch(request, env, ctx);
    },
    ...(scheduled
      ? {
          scheduled(controller, env, ctx) {
            if (!env.SENTRY_DSN || !reported.scheduled) return scheduled(controller, env, ctx);
            return reported.scheduled(controller, env, ctx);
          },
        }
      : {}),
  };
}
