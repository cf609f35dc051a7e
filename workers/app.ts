import * as Sentry from "@sentry/cloudflare";
import { createRequestHandler } from "react-router";
import * as build from "virtual:react-router/server-build";
import { createEdgeHandler } from "./edge/edge-handler";

const handle = createEdgeHandler({ build, render: createRequestHandler(build, import.meta.env.MODE) });

export default Sentry.withSentry(
  (env: Env) => ({
    dsn: env.SENTRY_DSN || undefined,
    environment: env.SENTRY_ENVIRONMENT,
  }),
  { fetch: (request, env, ctx) => handle(request, env, ctx) } satisfies ExportedHandler<Env>,
);
