import { captureException, init, replayIntegration } from "@sentry/react";
import type { PublicConfig } from "./public-config";

/**
 * Sentry for the browser (PRODUCT.md §2.3): no session replays, a replay for every
 * error, and text, inputs and media masked — a payment app must not ship balances,
 * codes or passwords to a third party — unless the operator opts out.
 */
export function startSentry(config: PublicConfig & { sentryDsn: string }) {
  const masked = !config.replayUnmasked;
  init({
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    replaysSessionSampleRate: 0,
    replaysOnErrorSampleRate: 1,
    integrations: [replayIntegration({ maskAllText: masked, maskAllInputs: masked, blockAllMedia: masked })],
  });
  return (error: unknown, context?: Record<string, string>) => {
    captureException(error, context ? { tags: context } : undefined);
  };
}
