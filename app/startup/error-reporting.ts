import type { PublicConfig } from "./public-config";

type Reporter = (error: unknown, context?: Record<string, string>) => void;

let reporter: Reporter | null = null;
let starting: Promise<void> | null = null;
const waiting: Array<[unknown, Record<string, string> | undefined]> = [];

/**
 * Starts Sentry when a DSN is configured. Without one, nothing is loaded (the SDK is
 * its own chunk) and nothing is sent.
 */
export function startErrorReporting(config: PublicConfig): Promise<void> {
  if (!config.sentryDsn) return Promise.resolve();
  starting ??= import("./sentry-browser").then(
    ({ startSentry }) => {
      reporter = startSentry({ ...config, sentryDsn: config.sentryDsn ?? "" });
      for (const [error, context] of waiting.splice(0)) reporter(error, context);
    },
    () => {
      // The SDK's chunk did not load: the app works on without error reporting.
      waiting.length = 0;
    },
  );
  return starting;
}

/** Reports an error the app could not handle; queued while the SDK loads, dropped without a DSN. */
export function reportError(error: unknown, context?: Record<string, string>): void {
  if (reporter) reporter(error, context);
  else if (starting) waiting.push([error, context]);
}
