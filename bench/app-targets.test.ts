import { describe, expect, it } from "vitest";
import { type BenchFigures, cpuReadings, type LoadKey, startupShares } from "./app-targets.ts";
import type { LoadResult } from "./load.ts";
import type { Startup } from "./startup.ts";

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

function startup(worker: string, medianMs: number, cpuMedianMs: number | null, floorOf?: string): Startup {
  return {
    worker,
    ...(floorOf ? { floorOf } : {}),
    path: "/",
    runsMs: [medianMs],
    medianMs,
    minMs: medianMs,
    cpuRunsMs: cpuMedianMs === null ? [] : [cpuMedianMs],
    cpuMedianMs,
    statuses: [200],
  };
}

describe("start-ups over their configuration floors", () => {
  it("gives each worker's code share, and that share beside the anchor's", () => {
    const shares = startupShares([
      startup("anchor", 300, 125),
      startup("anchor floor", 210, 95, "anchor"),
      startup("origin", 400, 211),
      startup("origin floor", 250, 138, "origin"),
    ]);
    expect(shares).toEqual([
      {
        worker: "anchor",
        floorMs: 210,
        overFloorMs: 90,
        floorCpuMs: 95,
        overFloorCpuMs: 30,
        overAnchorShareMs: null,
        overAnchorShareCpuMs: null,
      },
      {
        worker: "origin",
        floorMs: 250,
        overFloorMs: 150,
        floorCpuMs: 138,
        overFloorCpuMs: 73,
        overAnchorShareMs: 60,
        overAnchorShareCpuMs: 43,
      },
    ]);
  });

  it("leaves out a worker whose floor was not measured, and CPU figures where either side has none", () => {
    const shares = startupShares([
      startup("anchor", 300, null),
      startup("anchor floor", 210, 95, "anchor"),
      startup("edge", 350, 170),
      { ...startup("edge floor", 0, null, "edge"), medianMs: null },
    ]);
    expect(shares).toEqual([
      {
        worker: "anchor",
        floorMs: 210,
        overFloorMs: 90,
        floorCpuMs: 95,
        overFloorCpuMs: null,
        overAnchorShareMs: null,
        overAnchorShareCpuMs: null,
      },
    ]);
  });
});
