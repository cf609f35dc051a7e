import { describe, expect, it } from "vitest";
import {
  type BenchFigures,
  ceilings,
  cpuReadings,
  evaluateTargets,
  type LoadKey,
  lighthouseCeilings,
  startupCeilings,
  startupShares,
} from "./app-targets.ts";
import type { PageResult } from "./lighthouse.ts";
import type { LoadResult } from "./load.ts";
import type { Startup } from "./startup.ts";

function scenario(key: LoadKey, serverCpuMsPerRequest: number | undefined, checkOk = true, rps = 500): BenchFigures["scenarios"][number] {
  const result: LoadResult = {
    requests: 1000,
    elapsedS: 2,
    bytesPerResponse: 1,
    rps,
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
      scenario("anchorTwinSsr", 4),
    ]);
    expect(readings).toEqual([
      { comparison: "cached page vs same-size static", paydeskMs: 2, otherMs: 1.5, ratio: 0.75 },
      { comparison: "cached page vs floor worker", paydeskMs: 2, otherMs: 1.9, ratio: 0.95 },
      { comparison: "uncached /help vs anchor SSR", paydeskMs: 5, otherMs: 3, ratio: 0.6 },
      { comparison: "uncached /help vs its twin's SSR", paydeskMs: 5, otherMs: 4, ratio: 0.8 },
    ]);
  });

  it("reads nothing from a load without a CPU figure or with a failed check", () => {
    expect(cpuReadings([scenario("sessionProxied", 4), scenario("sessionDirect", undefined)])).toEqual([]);
    expect(cpuReadings([scenario("sessionProxied", 4), scenario("sessionDirect", 2, false)])).toEqual([]);
  });
});

describe("the ceilings", () => {
  it("puts the uncached page beside the anchor rendering that page, and that render beside the anchor's own", () => {
    const list = ceilings([
      scenario("uncachedPage", 5, true, 300),
      scenario("anchorSsr", 3, true, 480),
      scenario("anchorTwinSsr", 4, true, 360),
    ]);
    expect(list).toEqual([
      {
        target: "uncached /help SSR",
        floor: "0.75× anchor SSR (its twin of /help, 360 req/s)",
        paydeskVsFloor: "0.83× the twin's req/s",
      },
    ]);
  });

  it("gives no render ceiling when the twin's check failed (no page was captured)", () => {
    expect(ceilings([scenario("uncachedPage", 5), scenario("anchorSsr", 3), scenario("anchorTwinSsr", 4, false)])).toEqual([]);
  });
});

function page(name: string, lcpMs: number): PageResult {
  const scores = { performance: 100, accessibility: 100, "best-practices": 100, seo: 100 };
  const figures = { scores, fcpMs: lcpMs, lcpMs, tbtMs: 0, cls: 0 };
  return { name, url: `https://127.0.0.1/${name}`, runs: [figures], median: figures, failedAudits: [] };
}

describe("Lighthouse beside the anchor and its twin of /help", () => {
  const figures: BenchFigures = {
    scenarios: [],
    sizes: null,
    lighthouse: [page("/help", 990), page("anchor /", 840), page("anchor /twin", 900)],
    anchorPage: "anchor /",
    twinPage: "anchor /twin",
    workerSizes: [],
    startups: [],
  };

  it("judges Paydesk's pages only, the twin being a ceiling", () => {
    const names = evaluateTargets(figures).map((t) => t.name);
    expect(names).toContain("LCP /help");
    expect(names.filter((name) => name.includes("anchor"))).toEqual([]);
  });

  it("prints a ratio that two decimals would round onto its limit with three, beside its verdict", () => {
    const lcp = (ms: number) =>
      evaluateTargets({ ...figures, lighthouse: [page("/login", ms), page("anchor /", 838)] }).find((t) => t.name === "LCP /login");
    expect(lcp(966)).toMatchObject({ actual: "1.153× (966 vs 838 ms)", met: false });
    expect(lcp(963)).toMatchObject({ actual: "1.149× (963 vs 838 ms)", met: true });
    expect(lcp(990)).toMatchObject({ actual: "1.18× (990 vs 838 ms)", met: false });
  });

  it("puts /help's LCP beside the twin's, and the twin's beside the anchor's", () => {
    expect(lighthouseCeilings(figures)).toEqual([
      { target: "LCP /help", floor: "1.07× anchor LCP (its twin of /help, 900 ms)", paydeskVsFloor: "1.10× the twin's LCP" },
    ]);
    expect(lighthouseCeilings({ ...figures, lighthouse: figures.lighthouse.slice(0, 2) })).toEqual([]);
  });
});

function startup(worker: string, medianMs: number, cpuMedianMs: number | null, floorOf?: string): Startup {
  return {
    worker,
    ...(floorOf ? { floorOf } : {}),
    method: "GET",
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

describe("the edge's start-up beside the anchor's twin of /help", () => {
  it("puts the twin beside the anchor, and the edge beside the twin, by wall time and CPU", () => {
    const startups = [
      startup("anchor", 290, 124),
      startup("anchor floor", 195, 94, "anchor"),
      startup("twin", 293, 128),
      startup("edge", 325, 158),
    ];
    expect(startupCeilings(startups)).toEqual([
      {
        target: "edge start-up",
        floor: "+3 ms vs anchor, CPU +4 ms (its twin of /help, 293 ms)",
        paydeskVsFloor: "+32 ms vs the twin, CPU +30 ms",
      },
    ]);
    expect(startupCeilings([startup("anchor", 290, null), startup("twin", 280, null), startup("edge", 325, null)])).toEqual([
      { target: "edge start-up", floor: "-10 ms vs anchor (its twin of /help, 280 ms)", paydeskVsFloor: "+45 ms vs the twin" },
    ]);
    // Without the twin (an older bench's results) there is nothing to put beside.
    expect(startupCeilings(startups.filter((s) => s.worker !== "twin"))).toEqual([]);
  });
});
