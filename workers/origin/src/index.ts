import * as Sentry from "@sentry/cloudflare";
import { createOriginApp } from "./app";

const app = createOriginApp();

export default Sentry.withSentry(
  (env: Env) => ({
    dsn: env.SENTRY_DSN || undefined,
    environment: env.SENTRY_ENVIRONMENT,
  }),
  { fetch: app.fetch } satisfies ExportedHandler<Env>,
);
