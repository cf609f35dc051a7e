import type { Context, MiddlewareHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { RouterRoute } from "hono/types";

/**
 * 405 with `Allow` for a known path asked with another method, decided before any route
 * runs. Hono's own method-not-allowed middleware decides after routing, by which time a
 * router's sign-in middleware has answered 401 to `DELETE /api/transfers`; the path
 * matching is Hono's router, built once from the app's routes.
 */
export function methodGuard(routes: () => RouterRoute[], refuse: (c: Context, allowed: string[]) => Response): MiddlewareHandler {
  let byPath: TrieRouter<string[]> | undefined;
  return async (c, next) => {
    byPath ??= methodsByPath(routes());
    const allowed = new Set(byPath.match("ALL", c.req.path)[0].flatMap(([methods]) => methods));
    if (allowed.size > 0 && !allowed.has(c.req.method)) return refuse(c, [...allowed].sort());
    await next();
  };
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
