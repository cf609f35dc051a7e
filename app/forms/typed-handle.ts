/** A handle as people write one: " @Li_Wei" is li_wei (handles are lower case: docs/rules-and-limits.md, Sign-in). */
export function typedHandle(text: string): string {
  return text.trim().replace(/^@/, "").toLowerCase();
}
