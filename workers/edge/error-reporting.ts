/**
 * Sentry, loaded only where a DSN is configured (docs/decisions/035-start-up-floors.md): the
 * SDK is its own chunk of the built edge, imported by the first request that has a DSN, so
 * an edge without one never evaluates it. Until then (and without a DSN, always) a capture
 * does nothing, exactly as the SDK's own functions do when it was never initialised.
 */
type SentrySdk = typeof import("./sentry-sdk");
type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

let sdk: SentrySdk | null = null;

export function captureException(...args: Parameters<SentrySdk["captureException"]>): void {
  sdk?.captureException(...args);
}

/**
 * The edge's fetch handler, wrapped by Sentry only when a DSN is configured: without
 * one nothing can be sent, and the SDK's per-request scope work would only cost time
 * (about 10–15% of a cached page's throughput in `npm run bench`). If the SDK cannot be
 * loaded, the request is answered without it and the next request tries again: reporting
 * errors never costs a visitor their page.
 */
export function reportingErrors(fetch: FetchHandler): ExportedHandler<Env> {
  let reported: Promise<ExportedHandler<Env>> | null = null;
  const wrapped = () => {
    reported ??= import("./sentry-sdk").then(
      (loaded) => {
        sdk = loaded;
        return loaded.withSentry((env: Env) => ({ dsn: env.SENTRY_DSN || undefined, environment: env.SENTRY_ENVIRONMENT }), {
          fetch: (request: Request, env: Env, ctx: ExecutionContext) => fetch(request, env, ctx),
        } as ExportedHandler<Env>);
      },
      (error: unknown) => {
        reported = null;
        console.error("Sentry's SDK could not be loaded; answering without it", error);
        return {};
      },
    );
    return reported;
  };
  return {
    async fetch(request, env, ctx) {
      if (!env.SENTRY_DSN) return fetch(request as Request, env, ctx);
      const handler = await wrapped();
      return handler.fetch ? handler.fetch(request, env, ctx) : fetch(request as Request, env, ctx);
    },
  };
}
