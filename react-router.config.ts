import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // The whole route manifest ships with the first page (16 routes, ~2 KB) so that
  // every route id is known at start-up: app/startup/route-chunks.ts takes over
  // route-module loading for all of them (120 s limit, guarded reload).
  // It also saves the /__manifest round trip on each first navigation.
  routeDiscovery: { mode: "initial" },
  // One chunk per route: React Router would otherwise fetch a route's clientLoader and
  // clientAction as separate chunks with its own import(), outside the chunk policy of
  // app/startup/route-chunks.ts (time limit, reload once, explanation, report).
  splitRouteModules: false,
} satisfies Config;
