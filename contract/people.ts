import { z } from "zod";

/**
 * A person as another person sees them. The handle travels with the display name because
 * display names are not unique: wherever someone is named for a decision about money, the
 * pages show both (docs/rules-and-limits.md, Text people type).
 */
export const personSchema = z.strictObject({ handle: z.string(), displayName: z.string() });
export type Person = z.infer<typeof personSchema>;
