import { z } from "zod";
import type { TaskLimits } from "./task-limits";

/**
 * `GET /api/task-limits`: this deploy's bounds on a task. Never looser than the product's: the
 * origin's reading of the setting refuses any that would be. A figure missing here fails the
 * `satisfies`.
 */
export const taskLimitsSchema = z.strictObject({
  slots: z.strictObject({
    max: z.number().int().meta({ description: "The most completions one task may ask for (at least 1)" }),
  }),
  deadline: z.strictObject({
    minHours: z.number().int().meta({ description: "A new task's deadline is at least this many hours ahead" }),
    maxDays: z.number().int().meta({ description: "A new task's deadline is at most this many days ahead" }),
  }),
}) satisfies z.ZodType<TaskLimits>;
