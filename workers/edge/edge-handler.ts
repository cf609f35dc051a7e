import { RouterContextProvider, type ServerBuild } from "react-router";
import { languageParam, pickLanguage } from "#app/i18n/languages";
import { cspNonceContext, languageContext, reportErrorContext } from "#app/server-context";
import { errorAnswer } from "./api-answer";
import { captureException } from "./error-reporting";
import { languageChoiceRedirect } from "./language-choice";
import { proxyToOrigin, type OriginTarget } from "./origin-proxy";
import { createPageCache, isShareable, keepsRendering, matchPage, pageCacheKey, storePage, type PageCacheTiers } from "./page-cache";
import { routeLoaderDataPath, serveRouteLoaderData } from "./route-loader-data";
import { applySecurityHeaders, createNonce } from "./security-headers";
import { staticPagePaths } from "./static-pages";
import { type AccessEnv, type AccessKeys, accessAllows, reachesBackOffice } from "./access-gate";

export type EdgeEnv = OriginTarget &
  AccessEnv & {
    SENTRY_DSN?: string;
    CF_VERSION_METADATA?: { id: string };
  };

type RenderPage = (request: Request, context: RouterContextProvider) => Promise<Response>;

export type EdgeHandlerOptions = {
  build: ServerBuild;
  render: RenderPage;
  cache?: PageCacheTiers;
  originTimeoutMs?: number;
  /** Where Cloudflare Access's signing keys come from; tests pass a local key set. */
  accessKeys?: AccessKeys;
};

const isHtml = (response: Response) => response.headers.get("Content-Type")?.startsWith("text/html") ?? false;

/** The deploy a page belongs to: the Worker version and the client build it links to. */
function deployVersion(env: EdgeEnv, build: ServerBuild): string {
  return `${env.CF_VERSION_METADATA?.id ?? "local"}.${build.assets.version}`;
}

const hasSecretParam = (params: URLSearchParams) => params.has("token") || params.has("link");

/**
 * Whether a request carries a sign-in or recovery link's secret: in its own query, or, for
 * route data, in the query of the page it asks about (`/__serverLoader?url=/login?token=…`).
 */
function carriesSecret(url: URL): boolean {
  if (hasSecretParam(url.searchParams)) return true;
  const page = url.pathname === routeLoaderDataPath ? url.searchParams.get("url") : null;
  if (!page) return false;
  try {
    return hasSecretParam(new URL(page, url.origin).searchParams);
  } catch {
    // Not a URL: the route data answers 400 and nothing is kept either way.
    return true;
  }
}

/**
 * The edge worker's request handling: `/api/*` to the origin, `/assets/*` misses as
 * plain 404s, route data, and pages through the edge cache.
 */
export function createEdgeHandler(options: EdgeHandlerOptions) {
  const handle = handleRequests(options);
  // What the handler cannot handle (a render stream that breaks, a runtime fault) reaches
  // Sentry, and the visitor hears a plain 500 with the security headers rather than the
  // platform's own error page.
  return async function handleOrFail(request: Request, env: EdgeEnv, ctx: ExecutionContext): Promise<Response> {
    try {
      return await handle(request, env, ctx);
    } catch (error) {
      captureException(error);
      const url = new URL(request.url);
      const answer =
        url.pathname === "/api" || url.pathname.startsWith("/api/")
          ? errorAnswer("INTERNAL_ERROR", "Something went wrong on our side. Please try again.", { "X-Request-Id": crypto.randomUUID() })
          : new Response(failurePage(pickLanguage(request.headers)), {
              status: 500,
              headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
            });
      applySecurityHeaders(answer.headers, { https: url.protocol === "https:", nonce: createNonce() });
      return answer;
    }
  };
}

function failurePage(language: ReturnType<typeof pickLanguage>): string {
  return language === "zh-CN"
    ? '<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>出错了</title><h1>出错了</h1><p>我们这边出了问题，请稍后重试。</p></html>'
    : '<!doctype html><html lang="en"><meta charset="utf-8"><title>Something went wrong</title><h1>Something went wrong</h1><p>Something went wrong on our side. Please try again in a moment.</p></html>';
}

function handleRequests({ build, render, cache = createPageCache(), originTimeoutMs, accessKeys }: EdgeHandlerOptions) {
  return async function handle(request: Request, env: EdgeEnv, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(request.url);
    const https = url.protocol === "https:";

    if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
      const answer = await proxyToOrigin(request, env, { timeoutMs: originTimeoutMs });
      applySecurityHeaders(answer.headers, { https });
      return answer;
    }

    // A hashed asset that is not there (a stale tab after a deploy): a plain 404 the
    // chunk loader recognises, never the HTML 404 page.
    if (url.pathname.startsWith("/assets/")) {
      const miss = new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
      applySecurityHeaders(miss.headers, { https });
      return miss;
    }

    if (request.method === "GET" && url.searchParams.has(languageParam)) {
      const redirect = languageChoiceRedirect(url);
      applySecurityHeaders(redirect.headers, { https });
      return redirect;
    }

    const nonce = createNonce();
    const language = pickLanguage(request.headers);
    // A sign-in link (`?token=`) or a recovery link (`?link=`) is personal: its page is rendered
    // for this visit only, and its secret never becomes a cache key. The back office's pages
    // are never kept at the edge, nor indexed (docs/decisions/012-operators-and-audit.md).
    const backOffice = reachesBackOffice(url);
    const cacheable = request.method === "GET" && !carriesSecret(url) && !backOffice;
    const key = cacheable ? pageCacheKey(url, deployVersion(env, build), language) : null;
    // A page's own address is kept at its first rendering; any other (a query, another
    // spelling, an id in the path) at its second, so one-off addresses cost no cache.
    const waitsForSecond = url.search !== "" || !staticPagePaths(build).has(url.pathname);

    let response: Response | null = null;
    let cacheStatus = "BYPASS";
    // Whether the answer may be kept by a cache downstream too: a kept page, or a rendering
    // that is shareable (a 404, an error page, a Set-Cookie never are).
    let shareable = false;
    if (key) {
      const hit = await matchPage(cache, key, nonce, waitsForSecond);
      if (hit) {
        response = hit.response;
        cacheStatus = "HIT";
        shareable = true;
        if (hit.pending) ctx.waitUntil(hit.pending);
      }
    }
    if (!response) {
      const context = new RouterContextProvider(
        new Map<Parameters<RouterContextProvider["set"]>[0], unknown>([
          [cspNonceContext, nonce],
          [languageContext, language],
          [reportErrorContext, captureException],
        ]),
      );
      if (backOffice && !(await accessAllows(request, env, accessKeys))) {
        // Without Cloudflare Access's pass the back office is not there: the ordinary 404 page.
        const notFound = await render(new Request(new URL("/ops-not-here", url), { headers: request.headers }), context);
        response = new Response(notFound.body, { status: 404, headers: notFound.headers });
      } else {
        const rendered =
          url.pathname === routeLoaderDataPath ? await serveRouteLoaderData(request, build, context) : await render(request, context);
        shareable = key !== null && isShareable(rendered);
        if (key !== null && shareable && keepsRendering(cache, key, waitsForSecond)) {
          // A page to keep is read whole (pages stream nothing late: their data is in hand
          // when they render): it is kept as those bytes, and answered with them, copied once.
          const page = { body: new Uint8Array(await rendered.arrayBuffer()), status: rendered.status, headers: rendered.headers };
          storePage(cache, key, page, nonce);
          response = new Response(page.body, rendered);
        } else {
          // Not kept (an address seen for the first time that is not a page's own, or an
          // answer that is not shareable): answered as it streams, never read whole.
          response = new Response(rendered.body, rendered);
        }
        if (shareable) cacheStatus = "MISS";
      }
    }

    const html = isHtml(response);
    if (!shareable) response.headers.set("Cache-Control", "no-store");
    // A page carries this answer's own nonce (in its CSP and its scripts): the edge keeps the
    // page and gives every answer a new one, but no cache after it may hand one nonce to all.
    else if (html) response.headers.set("Cache-Control", "private, max-age=0, must-revalidate");
    if (backOffice) response.headers.set("X-Robots-Tag", "noindex, nofollow");
    response.headers.set("X-Edge-Cache", cacheStatus);
    // Each language is its own rendering (and cache entry); tell any cache downstream.
    response.headers.set("Content-Language", language);
    response.headers.append("Vary", "Cookie, Accept-Language");
    applySecurityHeaders(response.headers, { https, nonce: html ? nonce : undefined, sentryDsn: env.SENTRY_DSN });
    return response;
  };
}
