import { describe, expect, it } from "vitest";
import { formatMoney, formatSignedMoney, parseYuan } from "./format";

describe("money formatting", () => {
  it("shows fen as yuan with two decimals in both languages", () => {
    expect(formatMoney(1234567, "en")).toBe("¥12,345.67");
    expect(formatMoney(5, "zh-CN")).toBe("¥0.05");
    expect(formatSignedMoney(-100, "en")).toBe("−¥1.00");
    expect(formatSignedMoney(250, "zh-CN")).toBe("+¥2.50");
  });
});

describe("parseYuan", () => {
  it("reads what people type as whole fen", () => {
    expect(parseYuan("12")).toBe(1200);
    expect(parseYuan("12.5")).toBe(1250);
    expect(parseYuan(" 0.01 ")).toBe(1);
    expect(parseYuan("12,34")).toBe(1234);
  });

  it("refuses anything that is not an amount of yuan and fen", () => {
    for (const text of ["", "-1", "1.234", "1e3", "abc", "0x10", "12.", ".5", "1 000"]) expect(parseYuan(text)).toBeNull();
  });
});
