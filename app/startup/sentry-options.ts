import type { PublicConfig } from "./public-config";

/**
 * The browser SDK's options (docs/start-up.md): no session replays, a replay for every
 * error, and text, inputs and media masked — a payment app must not ship balances,
 * codes or passwords to a third party — unless the operator opts out.
 */
export function sentryBrowserOptions(config: PublicConfig & { sentryDsn: string }) {
  const masked = !config.replayUnmasked;
  return {
    dsn: config.sentryDsn,
    environment: config.sentryEnvironment,
    replaysSessionSampleRate: 0,
    replaysOnErrorSampleRate: 1,
    replay: { maskAllText: masked, maskAllInputs: masked, blockAllMedia: masked },
  };
}
