import { z } from "zod";
import type { LockRule, Locks } from "./lock-limits";

const rule = z.strictObject({
  failures: z.number().int().meta({ description: "Failures within the window that lock" }),
  windowMinutes: z.number().int().meta({ description: "How long a failure counts, in minutes" }),
  lockMinutes: z.number().int().meta({ description: "How long the lock lasts, in minutes" }),
}) satisfies z.ZodType<LockRule>;

/**
 * `GET /api/locks`: this deploy's locks. Never looser than the product's: the origin's
 * reading of the setting refuses any that would be. A figure missing here fails the
 * `satisfies`.
 */
export const locksSchema = z.strictObject({
  signIn: rule.meta({
    description:
      "Per handle: failed passwords and recovery codes at sign-in. A known device counts its own, under the same figures, and is forgotten when they are reached",
  }),
  redeem: rule.meta({ description: "Per person: codes that are no code" }),
}) satisfies z.ZodType<Locks>;
