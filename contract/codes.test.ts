import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeCode, redeemCodeBodySchema } from "./codes";

describe("a typed prepaid code", () => {
  it("passes the published pattern exactly when the origin can read it as a code", () => {
    const symbol = fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcilouz".split(""));
    // Mostly 14 to 18 symbols with separators between some, near the edge of what is a code.
    const nearlyCodes = fc
      .array(fc.tuple(symbol, fc.constantFrom("", "", "", "-", " ", "\t")), { minLength: 14, maxLength: 18 })
      .map((parts) => parts.flat().join(""))
      .filter((code) => code.length <= 40);
    const typed = fc.oneof(nearlyCodes, fc.string({ unit: fc.constantFrom(..."0123456789ABCUabu -".split("")), maxLength: 40 }));
    fc.assert(
      fc.property(typed, (code) => {
        expect(redeemCodeBodySchema.safeParse({ code }).success).toBe(normalizeCode(code) !== null);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each(["ABCD-EFGH-JKMN-PQRS", "abcd efgh jkmn pqrs", "ILO0ILO0ILO0ILO0", " 0123456789ABCDEF "])("%s is one", (code) => {
    expect(redeemCodeBodySchema.safeParse({ code }).success).toBe(true);
  });

  it.each(["ABCD-EFGH-JKMN-PQRU", "ABCD-EFGH-JKMN-PQR", "ABCD-EFGH-JKMN-PQRST"])("%s is not", (code) => {
    expect(redeemCodeBodySchema.safeParse({ code }).success).toBe(false);
  });
});
