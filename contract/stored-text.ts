/**
 * How a text people type is stored (docs/rules-and-limits.md, "Text people type"), apart from
 * its schema (contract/text.ts) and without zod: the forms count a deploy's shorter lengths
 * on it before sending, as the origin does (contract/text-limits.ts,
 * docs/decisions/059-deploy-text-limits.md).
 */

/**
 * What shows nothing though it is a character: white space, default-ignorables (U+3164,
 * U+115F, variation selectors…) and the braille blank U+2800, a symbol that draws an empty
 * cell and is neither of the others.
 */
export const blankClasses = String.raw`\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800`;
export const onlyBlank = new RegExp(`^[${blankClasses}]*$`, "u");

/**
 * A text as it is stored: a multi-line field's U+2028/U+2029 as line feeds, NFC-normalised,
 * trimmed, and empty when it shows nothing.
 */
export function storedText(value: string, { multiline }: { multiline: boolean }): string {
  const stored = (multiline ? value.replace(/[\u2028\u2029]/g, "\n") : value).normalize("NFC").trim();
  return onlyBlank.test(stored) ? "" : stored;
}
