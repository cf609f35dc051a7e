import { z } from "zod";
import type { Limits } from "./money-limits";

const range = { min: z.number().int(), max: z.number().int() };

/**
 * `GET /api/limits`: this deploy's money limits in fen. They are never looser than the
 * contract's own bounds: the origin's reading of the setting refuses any that would be.
 * It must answer exactly the limits the deploy enforces: a figure missing here fails the
 * `satisfies`, one added here only fails the route that answers it.
 */
export const moneyLimitsSchema = z.strictObject({
  recharge: z.strictObject(range),
  transfer: z.strictObject({ ...range, perDay: z.number().int() }),
  taskReward: z.strictObject(range),
}) satisfies z.ZodType<Limits>;
