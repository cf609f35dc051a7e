import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { wechatOpenidSchema } from "./payments";
import { isWechatOpenid, wechatOpenidMaxLength } from "./value-lists";

describe("isWechatOpenid: the browser's check of a URL's openid, without zod", () => {
  it("accepts exactly what the contract's wechatOpenidSchema accepts", () => {
    const openidish = fc.stringMatching(/^[0-9A-Za-z_-]{0,140}$/);
    const anything = fc.string({ maxLength: 140, unit: "grapheme" });
    fc.assert(
      fc.property(fc.oneof(openidish, anything), (value) => {
        expect(isWechatOpenid(value)).toBe(wechatOpenidSchema.safeParse(value).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it("refuses a missing, an empty, an over-long and a foreign openid", () => {
    expect(isWechatOpenid("oUpF8uMuAJO_M2pxb1Q9zNjWeS6o")).toBe(true);
    expect(isWechatOpenid(null)).toBe(false);
    expect(isWechatOpenid("")).toBe(false);
    expect(isWechatOpenid("a".repeat(wechatOpenidMaxLength))).toBe(true);
    expect(isWechatOpenid("a".repeat(wechatOpenidMaxLength + 1))).toBe(false);
    expect(isWechatOpenid("openid with spaces")).toBe(false);
    expect(isWechatOpenid("ｏｐｅｎｉｄ")).toBe(false);
  });
});
