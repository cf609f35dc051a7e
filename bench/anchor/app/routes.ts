import { index, route, type RouteConfig } from "@react-router/dev/routes";

// `/twin`: Paydesk's /help as the bare app renders it (bench/capture-page-twin.ts).
export default [index("routes/home.tsx"), route("twin", "routes/twin.tsx")] satisfies RouteConfig;
