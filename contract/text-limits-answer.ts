import { z } from "zod";
import type { TextLimits } from "./text-limits";

const length = (what: string) =>
  z
    .number()
    .int()
    .meta({ description: `The most characters ${what} may have: code points of the text as stored (NFC-normalised, trimmed)` });

/**
 * `GET /api/text-limits`: this deploy's longest texts. Never longer than the product's: the
 * origin's reading of the setting refuses any that would be. A figure missing here fails the
 * `satisfies`.
 */
export const textLimitsSchema = z.strictObject({
  task: z.strictObject({ title: length("a task's title"), description: length("a task's description") }),
  proof: z.strictObject({ text: length("a proof's text") }),
  transfer: z.strictObject({ note: length("a transfer's note") }),
  support: z.strictObject({ message: length("a person's message to support") }),
}) satisfies z.ZodType<TextLimits>;
