import type { ServerBuild } from "react-router";

const known = new WeakMap<ServerBuild["routes"], ReadonlySet<string>>();

/**
 * The pages' own addresses, as the app's links spell them: every route path without a
 * parameter or a splat, joined from the root (`/`, `/help`, `/ops/people`), and the route
 * data URL of each (`/_.data`, `/help.data`). Only these are kept at their first
 * rendering; any other address, however it reaches a page (`/HELP`, `/help/`, a receipt's
 * id), waits for its second, so a flood of one-off addresses cannot fill the cache
 * (docs/decisions/031-page-throughput.md).
 */
export function staticPagePaths(build: Pick<ServerBuild, "routes">): ReadonlySet<string> {
  const cached = known.get(build.routes);
  if (cached) return cached;
  const routes = Object.values(build.routes).filter((route) => route !== undefined);
  const byId = new Map(routes.map((route) => [route.id, route]));
  const paths = new Set<string>();
  for (const route of routes) {
    const segments: string[] = [];
    let dynamic = false;
    for (let at: typeof route | undefined = route; at; at = at.parentId ? byId.get(at.parentId) : undefined) {
      if (at.path) segments.unshift(...at.path.split("/").filter(Boolean));
    }
    for (const segment of segments) if (segment.startsWith(":") || segment.includes("*")) dynamic = true;
    if (dynamic) continue;
    const path = `/${segments.join("/")}`;
    paths.add(path);
    // React Router 8's data URLs (`singleFetchUrl`): `/_.data` for `/`, `/help.data` for `/help`.
    paths.add(path === "/" ? "/_.data" : `${path}.data`);
  }
  known.set(build.routes, paths);
  return paths;
}
