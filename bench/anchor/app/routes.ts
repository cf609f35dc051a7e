import { index, route, type RouteConfig } from "@react-router/dev/routes";

// The anchor is one page. `/twin`, Paydesk's /help as the bare app renders it, is in the second
// build only, which bench/build-anchors.ts makes with BENCH_PAGE_TWIN set: nothing of it may
// weigh on the anchor's own start-up, size or page.
export default [index("routes/home.tsx"), ...(process.env.BENCH_PAGE_TWIN ? [route("twin", "routes/twin.tsx")] : [])] satisfies RouteConfig;
