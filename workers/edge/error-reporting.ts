/**
 * Sentry, loaded only where a DSN is configured (docs/decisions/035-start-up-floors.md): the
 * SDK is its own chunk of the built edge, imported by the first request that has a DSN, so
 * an edge without one never evaluates it. Until then (and without a DSN, always) a capture
 * does nothing, exactly as the SDK's own functions do when it was never initialised.
 */
import type { CloudflareOptions } from "@sentry/cloudflare";

type SentrySdk = typeof import("./sentry-sdk");
type FetchHandler = (request: Request, env: Env, ctx: ExecutionContext) => Promise<Response>;

let sdk: SentrySdk | null = null;
let loading: Promise<SentrySdk | null> | null = null;

/** A failed load is not remembered: the next request tries again (and is answered without Sentry meanwhile). */
function loadSdk(): Promise<SentrySdk | null> {
  loading ??= import("./sentry-sdk").then(
    (loaded) => {
      sdk = loaded;
      return loaded;
    },
    (error: unknown) => {
      loading = null;
      console.error("Sentry's SDK could not be loaded; answering without it", error);
      return null;
    },
  );
  return loading;
}

export function captureException(...args: Parameters<SentrySdk["captureException"]>): void {
  sdk?.captureException(...args);
}

/**
 * What an error report may carry (docs/decisions/051-what-error-reports-carry.md): where it
 * happened, never what a person typed or holds. Sentry's SDK collects request bodies,
 * cookies, addresses and whole query strings unless told not to, and a sign-in's password, a
 * prepaid or recovery code, or a recovery link would travel with any error.
 */
const dataCollection: NonNullable<CloudflareOptions["dataCollection"]> = {
  httpBodies: [],
  cookies: false,
  userInfo: false,
  // The SDK filters keys like `token` (a sign-in link) itself; a recovery link is `link`, and
  // route data names its page in `url`, whose own query may hold either.
  urlQueryParams: { deny: ["link", "url"] },
  // A person's address and place: X-Real-IP, X-Forwarded-For, CF-Connecting-IP, X-Client-Place.
  httpHeaders: { request: { deny: ["ip", "forwarded", "place"] } },
};

/**
 * The edge's fetch handler, wrapped by Sentry only when a DSN is configured: without
 * one nothing can be sent, and the SDK's per-request scope work would only cost time
 * (about 10–15% of a cached page's throughput in `npm run bench`). Reporting errors never
 * costs a visitor their page: without the SDK, the request is answered unwrapped.
 */
export function reportingErrors(fetch: FetchHandler): ExportedHandler<Env> {
  let reported: Promise<ExportedHandler<Env>> | null = null;
  const load = async (): Promise<ExportedHandler<Env>> => {
    const loaded = await loadSdk();
    if (!loaded) {
      reported = null;
      return {};
    }
    return loaded.withSentry((env: Env) => ({ dsn: env.SENTRY_DSN || undefined, environment: env.SENTRY_ENVIRONMENT, dataCollection }), {
      fetch: (request: Request, env: Env, ctx: ExecutionContext) => fetch(request, env, ctx),
    } as ExportedHandler<Env>);
  };
  const wrapped = () => {
    reported ??= load();
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
