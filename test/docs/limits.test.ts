import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { doors } from "../../workers/origin/src/limits/doors.ts";

const root = path.resolve(import.meta.dirname, "../..");
const wranglerToml = readFileSync(path.join(root, "workers/origin/wrangler.toml"), "utf8");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The origin's `[[ratelimits]]` bindings: name → limit per period. */
function rateLimitBindings(): Map<string, { limit: number; period: number }> {
  const bindings = new Map<string, { limit: number; period: number }>();
  for (const block of wranglerToml.split("[[ratelimits]]").slice(1)) {
    const name = /^name = "([A-Z_]+)"/m.exec(block)?.[1];
    const simple = /^simple = \{ limit = (\d+), period = (\d+) \}/m.exec(block);
    if (name && simple) bindings.set(name, { limit: Number(simple[1]), period: Number(simple[2]) });
  }
  return bindings;
}

describe("the limits README lists", () => {
  const bindings = rateLimitBindings();
  const rows = readme.split("\n").filter((line) => line.startsWith("| ") && line.includes("`LIMIT_"));

  it.each(Object.entries(doors))("%s: its binding, per-minute count and daily limits, as configured", (_, door) => {
    const binding = bindings.get(door.burst);
    expect(binding, `${door.burst} in workers/origin/wrangler.toml`).toBeDefined();
    expect(binding?.period).toBe(60);
    const row = rows.find((line) => line.includes(`\`${door.burst}\``));
    expect(row, `a README row for ${door.burst}`).toBeDefined();
    const cells = row?.split("|").map((cell) => cell.trim()) ?? [];
    expect(cells[4]).toBe(`${binding?.limit} per ${door.burstBy}`);
    const perDay = "perDay" in door ? door.perDay : {};
    const daily = Object.entries(perDay).map(([by, count]) => `${count} per ${by}`);
    expect(cells[5]).toBe(daily.join(", "));
  });

  it("no binding that no door uses", () => {
    expect([...bindings.keys()].sort()).toEqual([...new Set(Object.values(doors).map((door) => door.burst))].sort());
  });
});
