import { env } from "cloudflare:workers";
import { DeploySettingError } from "#contract/deploy-setting";
import { deployLocks } from "#contract/lock-limits";
import { defaultLimits, deployLimits, type Limits } from "#contract/money-limits";
import { defaultTaskLimits, deployTaskLimits, type TaskLimits } from "#contract/task-limits";
import { defaultTextLimits, deployTextLimits, type TextLimits } from "#contract/text-limits";
import { defaultTimeLimits, deployTimeLimits, type TimeLimits } from "#contract/time-limits";
import type { StatedSettings } from "./content/figures.server";
import type { DeploySettingName, PublicConfig } from "./startup/public-config";

/** Edge pages may be cached for this long; the deploy version in the key retires them. */
export const pageCacheControl = "public, max-age=0, must-revalidate, s-maxage=86400";

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/**
 * The configuration the browser needs: identical for every user. No secrets. A money, time,
 * task or text limits setting that cannot be read is reported and left out: every page but
 * the few that state the limits still answers, and the origin moves no money, makes no order
 * or claim and posts no task under it.
 */
export function publicConfig(report: (error: unknown) => void): PublicConfig {
  const unread: DeploySettingName[] = [];
  const reportUnread = (name: DeploySettingName, error: unknown) => {
    report(error);
    unread.push(name);
  };
  return {
    sentryDsn: env.SENTRY_DSN || null,
    sentryEnvironment: env.SENTRY_ENVIRONMENT || "production",
    replayUnmasked: env.SENTRY_REPLAY_UNMASKED === "true",
    shortLinkHosts: list(env.SHORT_LINK_HOSTS),
    ...ifNotTheProducts("limits", deployMoneyLimits, defaultLimits, reportUnread),
    ...ifNotTheProducts("timeLimits", deployTimes, defaultTimeLimits, reportUnread),
    ...ifNotTheProducts("taskLimits", deployTasks, defaultTaskLimits, reportUnread),
    ...ifNotTheProducts("textLimits", deployTexts, defaultTextLimits, reportUnread),
    ...(unread.length > 0 ? { unread } : {}),
  };
}

const deployMoneyLimits = (): Limits => deployLimits(env.MONEY_LIMITS);
const deployTimes = (): TimeLimits => deployTimeLimits(env.TIME_LIMITS);
const deployTasks = (): TaskLimits => deployTaskLimits(env.TASK_LIMITS);
const deployTexts = (): TextLimits => deployTextLimits(env.TEXT_LIMITS);

/**
 * The deploy's settings a page states in its text (/help with its locks, task limits and a
 * note's length, /tos without): docs/decisions/053-deploy-limits.md, 054, 055, 058, 059. Settings that cannot be read throw one
 * DeploySettingError naming each, so the page answers 500 and one report says all that is
 * wrong.
 */
export function statedSettings({ withLocks, withTasks }: { withLocks: boolean; withTasks: boolean }): StatedSettings {
  // withTasks: /help states a task's bounds and a note's length (TASK_LIMITS, TEXT_LIMITS).
  const wrong: string[] = [];
  const read = <T>(reader: () => T): T | null => {
    try {
      return reader();
    } catch (error) {
      if (!(error instanceof DeploySettingError)) throw error;
      wrong.push(error.message);
      return null;
    }
  };
  const limits = read(deployMoneyLimits);
  const times = read(deployTimes);
  const tasks = withTasks ? read(deployTasks) : null;
  const texts = withTasks ? read(deployTexts) : null;
  const locks = withLocks ? read(() => deployLocks(env.LOCKS)) : null;
  if (limits === null || wrong.length > 0) throw new DeploySettingError(wrong.join(" "));
  return { limits, ...(times ? { times } : {}), ...(tasks ? { tasks } : {}), ...(texts ? { texts } : {}), ...(locks ? { locks } : {}) };
}

/** A deploy's setting for the pages, only where it differs from the product's: a deploy at the defaults sends the pages it always did. */
function ifNotTheProducts<Name extends DeploySettingName>(
  name: Name,
  read: () => NonNullable<PublicConfig[Name]>,
  product: NonNullable<PublicConfig[Name]>,
  reportUnread: (name: Name, error: unknown) => void,
): Partial<Pick<PublicConfig, Name>> {
  try {
    const value = read();
    return value === product ? {} : ({ [name]: value } as Partial<Pick<PublicConfig, Name>>);
  } catch (error) {
    reportUnread(name, error);
    return {};
  }
}
