import { describe, expect, it } from "vitest";
import { type BenchFigures, cpuReadings, type LoadKey } from "./app-targets.ts";
import type { LoadResult } from "./load.ts";

function scenario(key: LoadKey, serverCpuMsPerRequest: number | undefined, checkOk = true): BenchFigures["scenarios"][number] {
  const result: LoadResult = {
    requests: 1000,
    elapsedS: 2,
    bytesPerResponse: 1,
    rps: 500,
    latencyMs: { mean: 20, p50: 20, p90: 0, p99: 0, max: 0 },
    statusCodes: { 200: 1000 },
    non2xx: 0,
    errors: 0,
    timeouts: 0,
    serverCpuMsPerRequest,
    autocannon: { rpsAverage: 500, p50: 20, p99: 0 },
  };
  return { key, label: key, url: `http://127.0.0.1/${key}`, checkBefore: { ok: checkOk, detail: "" }, result };
}

describe("the load targets read by server CPU per request", () => {
  it("gives the throughput ratio the CPU allows, other side over Paydesk's", () => {
    const readings = cpuReadings([
      scenario("cachedPage", 2),
      scenario("sameSizeStatic", 1.5),
      scenario("floorPage", 1.9),
      scenario("uncachedPage", 5),
      scenario("anchorSsr", 3),
    ]);
    expect(readings).toEqual([
      { comparison: "cached page vs same-size static", paydeskMs: 2, otherMs: 1.5, ratio: 0.75 },
      { comparison: "cached page vs floor worker", paydeskMs: 2, otherMs: 1.9, ratio: 0.95 },
      { comparison: "uncached /help vs anchor SSR", paydeskMs: 5, otherMs: 3, ratio: 0.6 },
    ]);
  });

  it("reads nothing from a load without a CPU figure or with a failed check", () => {
    expect(cpuReadings([scenario("sessionProxied", 4), scenario("sessionDirect", undefined)])).toEqual([]);
    expect(cpuReadings([scenario("sessionProxied", 4), scenario("sessionDirect", 2, false)])).toEqual([]);
  });
});
