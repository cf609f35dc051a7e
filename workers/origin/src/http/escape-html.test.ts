import { describe, expect, it } from "vitest";
import { escapeHtml } from "./escape-html";

describe("escapeHtml", () => {
  it("turns & < > \" ' into character references and leaves everything else", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;Tom &#38; Jerry&#60;/a&#62;",
    );
    expect(escapeHtml("充值 ¥13.00 — NOTPAY")).toBe("充值 ¥13.00 — NOTPAY");
    expect(escapeHtml("&#60;")).toBe("&#38;#60;");
  });
});
