import { env } from "cloudflare:workers";
import { deployLocks, type Locks } from "#contract/lock-limits";
import { defaultLimits, deployLimits, type Limits } from "#contract/money-limits";
import { defaultTimeLimits, deployTimeLimits, type TimeLimits } from "#contract/time-limits";
import type { PublicConfig } from "./startup/public-config";

/** Edge pages may be cached for this long; the deploy version in the key retires them. */
export const pageCacheControl = "public, max-age=0, must-revalidate, s-maxage=86400";

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The configuration the browser needs: identical for every user. No secrets. A money or time
 * limits setting that cannot be read is reported and left out: every page but the few that
 * state the limits still answers, and the origin moves no money and makes no order or claim
 * under it.
 */
export function publicConfig(report: (error: unknown) => void): PublicConfig {
  return {
    sentryDsn: env.SENTRY_DSN || null,
    sentryEnvironment: env.SENTRY_ENVIRONMENT || "production",
    replayUnmasked: env.SENTRY_REPLAY_UNMASKED === "true",
    shortLinkHosts: list(env.SHORT_LINK_HOSTS),
    ...ifNotTheProducts("limits", deployMoneyLimits, defaultLimits, report),
    ...ifNotTheProducts("timeLimits", deployTimes, defaultTimeLimits, report),
  };
}

/**
 * The deploy's money limits (docs/decisions/053-deploy-limits.md), for the pages that state
 * them. A setting that cannot be read throws: such a page answers 500, reported.
 */
export function deployMoneyLimits(): Limits {
  return deployLimits(env.MONEY_LIMITS);
}

/**
 * The deploy's locks against guessing (docs/decisions/054-deploy-locks.md), for /help, which
 * states them. A setting that cannot be read throws: /help answers 500, reported.
 */
export function deployLockRules(): Locks {
  return deployLocks(env.LOCKS);
}

/**
 * The deploy's time limits on orders and claims (docs/decisions/055-deploy-time-limits.md),
 * for the pages that state them. A setting that cannot be read throws: such a page answers
 * 500, reported.
 */
export function deployTimes(): TimeLimits {
  return deployTimeLimits(env.TIME_LIMITS);
}

/** A deploy's setting for the pages, only where it differs from the product's: a deploy at the defaults sends the pages it always did. */
function ifNotTheProducts<Name extends "limits" | "timeLimits">(
  name: Name,
  read: () => NonNullable<PublicConfig[Name]>,
  product: NonNullable<PublicConfig[Name]>,
  report: (error: unknown) => void,
): Partial<Pick<PublicConfig, Name>> {
  try {
    const value = read();
    return value === product ? {} : ({ [name]: value } as Partial<Pick<PublicConfig, Name>>);
  } catch (error) {
    report(error);
    return {};
  }
}
