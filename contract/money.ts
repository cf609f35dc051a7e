import { z } from "zod";

/** An amount in minor units (fen): a positive whole number, bounded per use (docs/rules-and-limits.md). */
export function minorUnits(min: number, max: number) {
  return z
    .number({ error: "Enter the amount as a whole number of fen." })
    .int("Enter the amount as a whole number of fen.")
    .min(min, `The amount must be at least ${(min / 100).toFixed(2)}.`)
    .max(max, `The amount must be at most ${(max / 100).toFixed(2)}.`);
}
