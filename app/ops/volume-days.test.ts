import { describe, expect, it } from "vitest";
import { volumeByDay, volumeWindowDays } from "./volume-days";

describe("the overview's days of volume", () => {
  // 2026-11-26 17:00 UTC is already 2026-11-27 in China Standard Time.
  const now = Date.parse("2026-11-26T17:00:00Z");

  it("gives every day of the window its own place, quiet days included, summing the kinds", () => {
    const days = volumeByDay(
      [
        { day: "2026-10-28", kind: "code_redeem", amount: 100, transactions: 1 },
        { day: "2026-11-10", kind: "code_redeem", amount: 500, transactions: 1 },
        { day: "2026-11-10", kind: "transfer", amount: 250, transactions: 2 },
        { day: "2026-11-27", kind: "transfer", amount: 75, transactions: 1 },
      ],
      now,
    );
    expect(days).toHaveLength(volumeWindowDays);
    expect(days[0]).toEqual({ day: "2026-10-28", amount: 100 });
    expect(days.at(-1)).toEqual({ day: "2026-11-27", amount: 75 });
    expect(days.find(({ day }) => day === "2026-11-10")?.amount).toBe(750);
    expect(days.filter(({ amount }) => amount > 0)).toHaveLength(3);
    // One day after another, with none left out.
    const dates = days.map(({ day }) => Date.parse(day));
    expect(dates.slice(1).map((date, index) => date - (dates[index] ?? 0))).toEqual(Array(volumeWindowDays - 1).fill(86_400_000));
  });

  it("ends on the origin's newest day when this clock is behind it", () => {
    const days = volumeByDay([{ day: "2026-11-28", kind: "transfer", amount: 30, transactions: 1 }], now);
    expect(days.at(-1)).toEqual({ day: "2026-11-28", amount: 30 });
    expect(days[0]?.day).toBe("2026-10-29");
  });
});
