import { z } from "zod";
import { amountAtLeast, amountAtMost } from "./money-limits";

/** An amount in minor units (fen): a positive whole number, bounded per use (docs/rules-and-limits.md). */
export function minorUnits(min: number, max: number) {
  return z
    .number({ error: "Enter the amount as a whole number of fen." })
    .int("Enter the amount as a whole number of fen.")
    .min(min, amountAtLeast(min))
    .max(max, amountAtMost(max));
}
