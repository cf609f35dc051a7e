import { describe, expect, it } from "vitest";
import { textPattern, userText } from "./text";

const name = userText({ min: 1, max: 64, tooShort: "Enter a name.", tooLong: "Too long." });
const note = userText({ min: 0, max: 140, tooShort: "", tooLong: "Too long." });
const message = userText({ min: 1, max: 4_000, multiline: true, tooShort: "Write something.", tooLong: "Too long." });

const refusal = (schema: typeof name, value: string) => {
  const result = schema.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

// docs/rules-and-limits.md, "Text people type".
describe("text people type", () => {
  it.each([
    ["a lone surrogate", "\ud800".repeat(10)],
    ["a right-to-left override", "Alice\u202Eecila"],
    ["a zero-width space", "Ali\u200Bce"],
    ["a byte order mark", "\uFEFFAlice"],
    ["a NUL", "Alice\u0000"],
    ["a tab", "Ali\tce"],
    ["a line break in a one-line field", "Alice\nBob"],
    ["a C1 control", "Alice\u0085"],
    ["a line separator", "Alice\u2028Bob"],
    ["a paragraph separator", "Alice\u2029Bob"],
  ])("refuses %s", (_, value) => {
    expect(refusal(name, value)).toMatch(/control, format and invisible/);
  });

  it.each([
    ["spaces", "   "],
    ["a Hangul filler", "\u3164"],
    ["a braille blank", "\u2800\u2800"],
    ["an ideographic space", "\u3000\u3000"],
    ["nothing", ""],
  ])("refuses a name of %s as empty", (_, value) => {
    expect(refusal(name, value)).toBe("Enter a name.");
  });

  it("keeps line breaks in a multi-line field, and nothing else invisible", () => {
    expect(message.parse("Line one\nLine two")).toBe("Line one\nLine two");
    expect(refusal(message, "Line one\r\nLine two")).toMatch(/line breaks are fine/);
    // Line and paragraph separators, as some editors paste line breaks, are stored as the newlines they are.
    expect(message.parse("Line one\u2028Line two\u2029Line three")).toBe("Line one\nLine two\nLine three");
  });

  it("stores a field that may be empty as empty when it shows nothing", () => {
    expect(note.parse("\u3164\u3164")).toBe("");
    expect(note.parse("\u2800 \u115F")).toBe("");
    expect(note.parse("\u3164Lunch")).toBe("\u3164Lunch");
  });

  it("counts code points, not UTF-16 units", () => {
    expect(note.parse("😀".repeat(140))).toHaveLength(280);
    expect(refusal(note, "😀".repeat(141))).toBe("Too long.");
  });

  it("counts the text as sent: one letter and 4,000 spaces is over a 4,000 limit", () => {
    expect(refusal(message, `a${" ".repeat(4_000)}`)).toBe("Too long.");
    expect(message.parse(`a${" ".repeat(3_999)}`)).toBe("a");
  });

  it("stores the NFC form, trimmed", () => {
    expect(name.parse("  Cafe\u0301  ")).toBe("Café");
  });

  it("refuses text whose NFC form outgrows the limit (composition exclusions expand)", () => {
    // U+0958 DEVANAGARI LETTER QA is two code points in NFC.
    expect(refusal(note, "\u0958".repeat(140))).toBe("Too long.");
  });

  it("publishes the pattern it checks with", () => {
    const samples = ["Alice", "Alice\u202E", "  ", "\u3164", "a\nb", "\ud800", "名字", "😀", "a\u2028b", "\u2029"];
    for (const multiline of [false, true]) {
      for (const visible of [false, true]) {
        const published = new RegExp(textPattern({ multiline, visible }), "u");
        const schema = userText({ min: visible ? 1 : 0, max: 100, multiline, tooShort: "short", tooLong: "long" });
        for (const sample of samples)
          expect({ sample, ok: schema.safeParse(sample).success }).toEqual({ sample, ok: published.test(sample) });
      }
    }
  });
});
