import { describe, expect, it } from "vitest";
import { languageCookieHeader, pickLanguage } from "./languages";

const headers = (init: Record<string, string>) => new Headers(init);

describe("pickLanguage", () => {
  it("takes the lang cookie first", () => {
    expect(pickLanguage(headers({ Cookie: "a=1; lang=zh-CN", "Accept-Language": "en-US" }))).toBe("zh-CN");
    expect(pickLanguage(headers({ Cookie: "lang=en", "Accept-Language": "zh-CN" }))).toBe("en");
  });

  it("ignores a cookie naming a language we do not have", () => {
    expect(pickLanguage(headers({ Cookie: "lang=fr", "Accept-Language": "zh-TW,zh;q=0.9" }))).toBe("zh-CN");
  });

  it("follows Accept-Language by weight, skipping languages we lack and q=0", () => {
    expect(pickLanguage(headers({ "Accept-Language": "fr-FR,fr;q=0.9,zh-CN;q=0.8,en;q=0.7" }))).toBe("zh-CN");
    expect(pickLanguage(headers({ "Accept-Language": "en;q=0.5,zh-Hans;q=0.9" }))).toBe("zh-CN");
    expect(pickLanguage(headers({ "Accept-Language": "zh;q=0,en-GB" }))).toBe("en");
  });

  it("falls back to English", () => {
    expect(pickLanguage(headers({}))).toBe("en");
    expect(pickLanguage(headers({ "Accept-Language": "de-DE,ja;q=0.8" }))).toBe("en");
    expect(pickLanguage(headers({ "Accept-Language": ";;,=q" }))).toBe("en");
  });
});

describe("pickLanguage, asked again and again", () => {
  it("answers the same for a header it has seen, beyond its memo's size too, and for long headers", () => {
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 300; i += 1) {
        expect(pickLanguage(headers({ "Accept-Language": `fr-${i},zh;q=0.${(i % 9) + 1}` }))).toBe("zh-CN");
        expect(pickLanguage(headers({ "Accept-Language": `fr-${i},en;q=0.${(i % 9) + 1}` }))).toBe("en");
      }
    }
    const long = `${Array.from({ length: 40 }, (_, i) => `x-${i};q=0.9`).join(",")},zh-CN;q=0.95`;
    expect(long.length).toBeGreaterThan(200);
    expect(pickLanguage(headers({ "Accept-Language": long }))).toBe("zh-CN");
    expect(pickLanguage(headers({ "Accept-Language": long }))).toBe("zh-CN");
    // The cookie still comes first for a header already seen.
    expect(pickLanguage(headers({ Cookie: "lang=en", "Accept-Language": "fr-1,zh;q=0.2" }))).toBe("en");
  });
});

describe("languageCookieHeader", () => {
  it("keeps the choice for a year, site-wide, Secure on https", () => {
    expect(languageCookieHeader("zh-CN", true)).toBe("lang=zh-CN; Path=/; Max-Age=31536000; SameSite=Lax; Secure");
    expect(languageCookieHeader("en", false)).not.toContain("Secure");
  });
});
