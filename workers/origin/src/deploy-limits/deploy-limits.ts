import { deployLocks, type Locks } from "#contract/lock-limits";
import { deployLimits, type Limits, type MoneyRange, outsideRange } from "#contract/money-limits";
import { DeploySettingError } from "#contract/deploy-setting";
import { deployTaskLimits, type TaskLimits } from "#contract/task-limits";
import { deployTextLimits, longerThan, type TextLimits } from "#contract/text-limits";
import { deployTimeLimits, shortestTimeLimits, type TimeLimits } from "#contract/time-limits";
import { ApiError } from "../http/answer";

/**
 * This deploy's money limits (docs/decisions/053-deploy-limits.md). A `MONEY_LIMITS` setting
 * that cannot be read throws: the request answers 500 and the error reaches Sentry, since
 * money must not move under limits the deploy did not mean.
 */
export function limitsOf(env: Pick<Env, "MONEY_LIMITS">): Limits {
  return deployLimits(env.MONEY_LIMITS);
}

/**
 * This deploy's locks against guessing (docs/decisions/054-deploy-locks.md). A `LOCKS`
 * setting that cannot be read throws, as above: sign-in and redeeming answer 500, reported,
 * rather than let guesses through at figures the deploy did not mean.
 */
export function locksOf(env: Pick<Env, "LOCKS">): Locks {
  return deployLocks(env.LOCKS);
}

/**
 * This deploy's time limits on orders and claims (docs/decisions/055-deploy-time-limits.md).
 * A `TIME_LIMITS` setting that cannot be read throws, as above: no order, claim or submission
 * is made under figures the deploy did not mean.
 */
export function timeLimitsOf(env: Pick<Env, "TIME_LIMITS">): TimeLimits {
  return deployTimeLimits(env.TIME_LIMITS);
}

/**
 * This deploy's bounds on a task's completions and deadline
 * (docs/decisions/058-deploy-task-limits.md). A `TASK_LIMITS` setting that cannot be read
 * throws, as above: no task is posted under bounds the deploy did not mean.
 */
export function taskLimitsOf(env: Pick<Env, "TASK_LIMITS">): TaskLimits {
  return deployTaskLimits(env.TASK_LIMITS);
}

/**
 * This deploy's longest texts people type (docs/decisions/059-deploy-text-limits.md). A
 * `TEXT_LIMITS` setting that cannot be read throws, as above: no task, proof, transfer or
 * message to support is taken under lengths the deploy did not mean.
 */
export function textLimitsOf(env: Pick<Env, "TEXT_LIMITS">): TextLimits {
  return deployTextLimits(env.TEXT_LIMITS);
}

/**
 * The refusal of a text inside the contract's length but past the deploy's: the 400 the
 * schema would answer ("A note has at most 60 characters."), naming `field`; null for a text
 * that fits. The text is the one the schema stored, normalised, as the schema counts it.
 */
export function textPastDeployLimit(text: string, max: number, field: string, what: string): ApiError | null {
  return longerThan(text, max)
    ? new ApiError("BAD_REQUEST", `${what} has at most ${max.toLocaleString("en-US")} characters.`, field)
    : null;
}

/**
 * How many days a session may go unused under this deploy's `TIME_LIMITS`
 * (docs/decisions/057-deploy-session-idle-days.md). A setting that cannot be read must not
 * stop every signed-in request, nor keep sessions longer than the deploy may have meant:
 * sessions then last the shortest any setting may give them, a day, and what else the setting
 * governs reports it.
 */
export function sessionIdleDaysOf(env: Pick<Env, "TIME_LIMITS">): number {
  try {
    return timeLimitsOf(env).session.idleDays;
  } catch (error) {
    if (error instanceof DeploySettingError) return shortestTimeLimits.session.idleDays;
    throw error;
  }
}

/**
 * The refusal of an amount inside the contract's bounds but outside this deploy's: the 400
 * the contract's own schema would answer, naming `field`; null for an amount inside.
 */
export function outsideDeployRange(amount: number, range: MoneyRange, field: string): ApiError | null {
  const issue = outsideRange(amount, range);
  return issue ? new ApiError("BAD_REQUEST", issue, field) : null;
}
