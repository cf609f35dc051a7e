import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // A page carries the manifest of its own routes only (inline); React Router fetches the
  // rest from /__manifest as links appear (cached for good: the URL names the build). The
  // whole manifest, back office included, was 2.2 KB of a first visit's JavaScript
  // (docs/decisions/029-first-paint-and-first-visit.md). app/startup/route-chunks.ts reads
  // the manifest as React Router patches it, so its chunk policy covers discovered routes.
  routeDiscovery: { mode: "lazy" },
  // One chunk per route: React Router would otherwise fetch a route's clientLoader and
  // clientAction as separate chunks with its own import(), outside the chunk policy of
  // app/startup/route-chunks.ts (time limit, reload once, explanation, report).
  splitRouteModules: false,
} satisfies Config;
