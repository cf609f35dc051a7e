/**
 * The product's bounds on a task's completions and deadline, and what one deploy sets of them
 * (docs/rules-and-limits.md, docs/decisions/058-deploy-task-limits.md): at most 1,000
 * completions, and a deadline between 1 hour and 30 days ahead. A deploy may tighten them with
 * its `TASK_LIMITS` setting, never loosen one; the origin enforces the deploy's on top of the
 * published schema, `GET /api/task-limits` publishes them and the pages state them.
 *
 * Plain TypeScript, no zod: the edge reads the same setting for its pages.
 */
import { DeploySettingError, frozenParts, partFigures, settingReader } from "./deploy-setting";
import { daysMs, hoursMs } from "./time-limits";

export type TaskLimits = {
  /** Completions one task may ask for: from 1 to `max`. */
  slots: { max: number };
  /** A new task's deadline: at least `minHours`, at most `maxDays` ahead. */
  deadline: { minHours: number; maxDays: number };
};

/** Frozen, as every TaskLimits this module gives: one object is shared by every request of an isolate. */
export const defaultTaskLimits: TaskLimits = frozenParts({
  slots: { max: 1_000 },
  deadline: { minHours: 1, maxDays: 30 },
});

function slotsOf(configured: unknown): TaskLimits["slots"] {
  if (configured === undefined) return defaultTaskLimits.slots;
  const slots = partFigures("TASK_LIMITS.slots", defaultTaskLimits.slots, configured, "completions");
  if (slots.max > defaultTaskLimits.slots.max)
    throw new DeploySettingError(
      `TASK_LIMITS.slots.max may only tighten the product's ${defaultTaskLimits.slots.max}, not loosen it to ${slots.max}.`,
    );
  return slots;
}

/** A later earliest deadline, a nearer latest one, leaving a window of at least an hour. */
function deadlineOf(configured: unknown): TaskLimits["deadline"] {
  if (configured === undefined) return defaultTaskLimits.deadline;
  const path = "TASK_LIMITS.deadline";
  const defaults = defaultTaskLimits.deadline;
  const deadline = partFigures(path, defaults, configured, "hours or days");
  if (deadline.maxDays > defaults.maxDays)
    throw new DeploySettingError(
      `${path}.maxDays may only tighten the product's ${defaults.maxDays}, not loosen it to ${deadline.maxDays}.`,
    );
  if (deadline.minHours >= deadline.maxDays * 24)
    throw new DeploySettingError(
      `${path}.minHours (${deadline.minHours}) leaves no deadline to choose: it must be below maxDays (${deadline.maxDays}) in hours.`,
    );
  return deadline;
}

/**
 * The task limits a deploy's `TASK_LIMITS` setting sets: JSON such as
 * `{"slots":{"max":100},"deadline":{"maxDays":7}}`; absent or blank, the defaults. Anything
 * else throws a DeploySettingError naming the figure.
 */
export const deployTaskLimits = settingReader({
  name: "TASK_LIMITS",
  defaults: defaultTaskLimits,
  example: '{"slots":{"max":100},"deadline":{"maxDays":7}}',
  read: (parts): TaskLimits => ({ slots: slotsOf(parts.slots), deadline: deadlineOf(parts.deadline) }),
});

/** Whether a deadline falls outside the deploy's window, counted from `now`. */
export function deadlineOutside(deadline: number, now: number, { minHours, maxDays }: TaskLimits["deadline"]): boolean {
  return deadline < now + hoursMs(minHours) || deadline > now + daysMs(maxDays);
}
