import { env } from "cloudflare:workers";
import type { PublicConfig } from "./startup/public-config";

/** Edge pages may be cached for this long; the deploy version in the key retires them. */
export const pageCacheControl = "public, max-age=0, must-revalidate, s-maxage=86400";

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The configuration the browser needs: identical for every user. No secrets. */
export function publicConfig(): PublicConfig {
  return {
    sentryDsn: env.SENTRY_DSN || null,
    sentryEnvironment: env.SENTRY_ENVIRONMENT || "production",
    replayUnmasked: env.SENTRY_REPLAY_UNMASKED === "true",
    shortLinkHosts: list(env.SHORT_LINK_HOSTS),
  };
}
