/**
 * This deploy's bounds on a task on the pages (docs/decisions/058-deploy-task-limits.md): the
 * edge reads the deploy's `TASK_LIMITS` into the public configuration, where they stay out
 * when they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { useRouteLoaderData } from "react-router";
import { defaultTaskLimits, type TaskLimits } from "#contract/task-limits";
import { sayDays, sayMinutes } from "./i18n/durations";
import type { Language } from "./i18n/languages";
import { type PublicConfig, readPublicConfig } from "./startup/public-config";

/** For a screen: from the root route's data. */
export function useTaskLimits(): TaskLimits {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config?.taskLimits ?? defaultTaskLimits;
}

/** For a client action, outside React: from the document's configuration block. */
export function currentTaskLimits(): TaskLimits {
  return typeof document === "undefined" ? defaultTaskLimits : (readPublicConfig(document).taskLimits ?? defaultTaskLimits);
}

/** The bounds as the pages say them: "1,000", "1 hour", "30 days", "30 天". */
export function taskLimitWords({ slots, deadline }: TaskLimits, language: Language): { slotsMax: string; soonest: string; latest: string } {
  return {
    slotsMax: slots.max.toLocaleString("en-US"),
    soonest: sayMinutes(deadline.minHours * 60, language),
    latest: sayDays(deadline.maxDays, language),
  };
}
