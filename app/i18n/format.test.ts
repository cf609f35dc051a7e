import { describe, expect, it } from "vitest";
import { formatDateTime, formatMoney, formatSignedMoney, parseYuan } from "./format";

describe("money formatting", () => {
  it("shows fen as yuan with two decimals in both languages", () => {
    expect(formatMoney(1234567, "en")).toBe("¥12,345.67");
    expect(formatMoney(5, "zh-CN")).toBe("¥0.05");
    expect(formatSignedMoney(-100, "en")).toBe("−¥1.00");
    expect(formatSignedMoney(250, "zh-CN")).toBe("+¥2.50");
  });
});

describe("time formatting", () => {
  // 16:05 UTC is 00:05 the next day in China Standard Time, the day the statement lists it under.
  const iso = "2026-11-25T16:05:00.000Z";

  it("shows a moment in China Standard Time to a reader there, without the zone", () => {
    expect(formatDateTime(iso, "en", 8 * 60)).toBe("Nov 26, 2026, 12:05 AM");
    expect(formatDateTime(iso, "zh-CN", 8 * 60)).toBe("2026年11月26日 00:05");
  });

  it("names the zone to a reader elsewhere, still in China Standard Time", () => {
    expect(formatDateTime(iso, "en", 0)).toBe("Nov 26, 2026, 12:05 AM GMT+8");
    expect(formatDateTime(iso, "zh-CN", -5 * 60)).toBe("2026年11月26日 GMT+8 00:05");
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
