import { z } from "zod";
import type { TimeLimits } from "./time-limits";

/**
 * `GET /api/time-limits`: this deploy's time limits. Never longer than the product's: the
 * origin's reading of the setting refuses any that would be. A figure missing here fails the
 * `satisfies`.
 */
export const timeLimitsSchema = z.strictObject({
  order: z.strictObject({
    payMinutes: z.number().int().meta({ description: "An unpaid order closes this many minutes after it was made" }),
  }),
  claim: z.strictObject({
    submitHours: z
      .number()
      .int()
      .meta({ description: "A claim not submitted this many hours after it was made lapses (or at the task's deadline, if sooner)" }),
    autoApproveHours: z
      .number()
      .int()
      .meta({ description: "A submission nobody checked this many hours after it was sent is approved, and the worker paid" }),
  }),
  session: z.strictObject({
    idleDays: z
      .number()
      .int()
      .meta({ description: "A session unused for this many days has ended: its token signs nobody in, and its person signs in again" }),
  }),
}) satisfies z.ZodType<TimeLimits>;
