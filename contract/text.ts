import { z } from "zod";
import { blankClasses, onlyBlank, storedText } from "./stored-text";

/*
 * Text people type (docs/rules-and-limits.md, "Text people type"): well-formed Unicode, no
 * control or format characters (Unicode Cc, Cf: bidi overrides, zero-width characters,
 * BOM) nor the line and paragraph separators U+2028 and U+2029 (which break lines where a
 * one-line field is shown), except a newline in multi-line fields (which store those two as
 * newlines), lengths in code points. The published
 * document states the same rules as JSON Schema `pattern`, `minLength` and `maxLength`
 * (ECMA-262 patterns with Unicode semantics), built from the very expressions below.
 */

/** Any code point that is not a control, format, lone-surrogate or line/paragraph-separator character. */
const allowedCharacter = String.raw`[^\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]`;
/** A character that shows. */
const visibleCharacter = String.raw`[^${blankClasses}\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]`;

/** The `pattern` of a text field: its characters, and at least one visible one when it may not be empty. */
export function textPattern({ multiline, visible }: { multiline: boolean; visible: boolean }): string {
  // A multi-line field takes U+2028/U+2029 as the line breaks they are (some editors paste them), stored as \n.
  const character = multiline ? `(?:${allowedCharacter}|\\n|\\u2028|\\u2029)` : allowedCharacter;
  return `^${visible ? `(?=[\\s\\S]*${visibleCharacter})` : ""}${character}*$`;
}

const codePoints = (value: string) => [...value].length;

type TextRule = { min: 0 | 1; max: number; multiline?: boolean; tooShort: string; tooLong: string };

/**
 * A text field people type. Checked as sent (the pattern, lengths in code points), then
 * stored NFC-normalised and trimmed; the normalised text must fit too, since the database's
 * own length checks count it. A field that may not be empty needs a visible character, so
 * a name of spaces or invisible fillers is refused rather than trimmed to nothing; one that
 * may be empty and shows nothing (a note of Hangul fillers, which trim keeps) is stored empty.
 */
export function userText({ min, max, multiline = false, tooShort, tooLong }: TextRule) {
  const pattern = textPattern({ multiline, visible: min > 0 });
  const expression = new RegExp(pattern, "u");
  return z
    .string()
    .refine((value) => codePoints(value) <= max && codePoints(value.normalize("NFC")) <= max, tooLong)
    .refine((value) => codePoints(value) >= min, tooShort)
    .refine((value) => expression.test(value), {
      error: (issue) =>
        min > 0 && typeof issue.input === "string" && onlyBlank.test(issue.input)
          ? tooShort
          : `Remove the control, format and invisible characters from this text${multiline ? " (line breaks are fine)" : ""}.`,
    })
    .transform((value) => storedText(value, { multiline }))
    .meta({
      pattern,
      minLength: min,
      maxLength: max,
      description: `${multiline ? "Multi-line text" : "Text"}: well-formed Unicode without control or format characters${
        multiline ? " (line feeds, U+2028 and U+2029 allowed; the last two stored as line feeds)" : " or U+2028/U+2029"
      }${min > 0 ? ", with at least one visible character" : ""}; at most ${max} code points as sent and after NFC normalisation; stored NFC-normalised and trimmed${
        min > 0 ? "" : ", and empty when it shows nothing"
      }.`,
    });
}
