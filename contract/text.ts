import { z } from "zod";

// Control characters (tab and line breaks aside) have no place in what people type, and
// U+0000 would end SQLite's length() early and fail a column CHECK as a 500.
const controlCharacters = /[^\P{Cc}\t\n\r]/u;

/** Text a person writes: trimmed, bounded, without control characters. */
export function userText({ min, max, tooShort, tooLong }: { min: number; max: number; tooShort: string; tooLong: string }) {
  return z
    .string()
    .trim()
    .min(min, tooShort)
    .max(max, tooLong)
    .refine((value) => !controlCharacters.test(value), "Remove the control characters from this text.");
}
