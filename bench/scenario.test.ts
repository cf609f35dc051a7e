import { describe, expect, it } from "vitest";
import type { LoadResult } from "./load.ts";
import { runScenariosInRounds, type Scenario } from "./scenario.ts";

function resultOf(rps: number): LoadResult {
  return {
    requests: rps,
    elapsedS: 1,
    bytesPerResponse: 1,
    rps,
    latencyMs: { mean: 10_000 / rps, p50: 10_000 / rps, p90: 0, p99: 0, max: 0 },
    statusCodes: { 200: rps },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    autocannon: { rpsAverage: rps, p50: 0, p99: 0 },
  };
}

/** A scenario whose loads reach the given req/s in turn (the warm-up first), logging each call. */
function scripted(key: string, rps: number[], log: string[], checks: boolean[] = [true, true]): Scenario<string, LoadResult> {
  let load = 0;
  let check = 0;
  return {
    key,
    label: key,
    url: `http://127.0.0.1/${key}`,
    check: async () => {
      const ok = checks[check++] ?? true;
      log.push(`${key} check ${ok}`);
      return { ok, detail: ok ? "fine" : "wrong answer" };
    },
    load: async (seconds) => {
      log.push(`${key} load ${seconds.toFixed(2)}`);
      return resultOf(rps[load++] ?? 0);
    },
  };
}

describe("runScenariosInRounds", () => {
  it("warms every scenario, loads them in turns round after round, and keeps each one's middle round by req/s", async () => {
    const log: string[] = [];
    const results = await runScenariosInRounds([scripted("a", [1, 300, 100, 200], log), scripted("b", [1, 50, 70, 60], log)], 3, {
      warmUpS: 2,
      durationS: 6,
    });
    // Warm-ups first (2 s each), then a b a b a b (2 s each: 6 s in 3 rounds).
    expect(log.filter((line) => line.includes("load"))).toEqual(["a", "b", "a", "b", "a", "b", "a", "b"].map((key) => `${key} load 2.00`));
    expect(results.map((r) => r.result?.rps)).toEqual([200, 60]);
    expect(results[0]?.rounds).toEqual([
      { rps: 300, p50Ms: 10_000 / 300 },
      { rps: 100, p50Ms: 100 },
      { rps: 200, p50Ms: 50 },
    ]);
    expect(results.every((r) => r.checkBefore.ok && r.checkAfter?.ok)).toBe(true);
  });

  it("loads no scenario whose sample is wrong, and records a check that fails after the loads", async () => {
    const log: string[] = [];
    const [refused, broken] = await runScenariosInRounds(
      [scripted("refused", [1, 1, 1, 1], log, [false]), scripted("broken", [1, 5, 6, 7], log, [true, false])],
      3,
      { warmUpS: 1, durationS: 3 },
    );
    expect(log.filter((line) => line.startsWith("refused load"))).toEqual([]);
    expect(refused?.result).toBeUndefined();
    expect(broken?.result?.rps).toBe(6);
    expect(broken?.checkAfter).toEqual({ ok: false, detail: "wrong answer" });
  });
});
