import { captureException, init, replayIntegration } from "@sentry/react";
import type { PublicConfig } from "./public-config";
import { sentryBrowserOptions } from "./sentry-options";

/** Starts the browser SDK; loaded as its own chunk, and only when a DSN is configured. */
export function startSentry(config: PublicConfig & { sentryDsn: string }) {
  const { replay, ...options } = sentryBrowserOptions(config, window.location.href);
  init({ ...options, integrations: [replayIntegration(replay)] });
  return (error: unknown, context?: Record<string, string>) => {
    captureException(error, context ? { tags: context } : undefined);
  };
}
