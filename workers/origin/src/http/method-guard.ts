import type { Context, MiddlewareHandler } from "hono";
import type { Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";

/** What the guard reads of the app: its router, and every route it holds. */
type RoutedApp = { router: Router<[unknown, RouterRoute]>; routes: RouterRoute[] };

/**
 * 405 with `Allow` for a known path asked with another method, decided before any route
 * runs. Hono's own method-not-allowed middleware decides after routing, by which time a
 * router's sign-in middleware has answered 401 to `DELETE /api/transfers`. A request that
 * has its route passes on the app's own router, already built to route it; the methods of
 * every path (Hono's router too) are gathered only for one that has none, so that an
 * isolate's first request does not pay for them (docs/decisions/030-cold-start.md).
 */
export function methodGuard(app: RoutedApp, refuse: (c: Context, allowed: string[]) => Response): MiddlewareHandler {
  let byPath: TrieRouter<string[]> | undefined;
  return async (c, next) => {
    if (!hasRoute(app, c.req.method, c.req.path)) {
      byPath ??= methodsByPath(app.routes);
      const allowed = new Set(byPath.match("ALL", c.req.path)[0].flatMap(([methods]) => methods));
      if (allowed.size > 0 && !allowed.has(c.req.method)) return refuse(c, [...allowed].sort());
    }
    await next();
  };
}

/** Whether an endpoint (not middleware) answers `method` on `path`; Hono answers HEAD with the GET route. */
function hasRoute(app: RoutedApp, method: string, path: string): boolean {
  const [matches] = app.router.match(method === "HEAD" ? "GET" : method, path);
  return matches.some(([[, route]]) => route.method !== "ALL");
}

function methodsByPath(routes: RouterRoute[]): TrieRouter<string[]> {
  const methods = new Map<string, Set<string>>();
  for (const { method, path } of routes) {
    if (method === "ALL") continue; // middleware, not an endpoint
    const set = methods.get(path) ?? new Set();
    set.add(method);
    // A GET answers HEAD too (Hono routes HEAD to it).
    if (method === "GET") set.add("HEAD");
    methods.set(path, set);
  }
  const router = new TrieRouter<string[]>();
  for (const [path, set] of methods) router.add("ALL", path, [...set]);
  return router;
}
