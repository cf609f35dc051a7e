/**
 * This deploy's bounds on a task on the pages (docs/decisions/058-deploy-task-limits.md): the
 * edge reads the deploy's `TASK_LIMITS` into the public configuration, where they stay out
 * when they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { defaultTaskLimits, type TaskLimits } from "#contract/task-limits";
import { sayDays, sayMinutes } from "./i18n/durations";
import type { Language } from "./i18n/languages";
import { currentDeploySetting, useDeploySetting } from "./deploy-settings";

export const useTaskLimits = (): TaskLimits => useDeploySetting("taskLimits", defaultTaskLimits);
export const currentTaskLimits = (): TaskLimits => currentDeploySetting("taskLimits", defaultTaskLimits);

/** The bounds as the pages say them: "1,000", "1 hour", "30 days", "30 天". */
export function taskLimitWords({ slots, deadline }: TaskLimits, language: Language): { slotsMax: string; soonest: string; latest: string } {
  return {
    slotsMax: slots.max.toLocaleString("en-US"),
    soonest: sayMinutes(deadline.minHours * 60, language),
    latest: sayDays(deadline.maxDays, language),
  };
}
