import { describe, expect, it } from "vitest";
import { observedRace, raceText, runsInTurns, scriptsInLcp } from "./lighthouse.ts";

const network = (resourceType: string, url: string, transferSize: number) => ({
  type: "network",
  request: { resourceType, url, transferSize },
});

describe("the scripts a run's simulated LCP waited for", () => {
  it("are the script requests in the LCP graph, by path, largest first", () => {
    const graph = new Map<unknown, unknown>([
      [network("Document", "https://127.0.0.1:8443/help", 10_000), {}],
      [{ type: "cpu", childEvents: [] }, {}],
      [network("Script", "https://127.0.0.1:8443/assets/entry.client-A.js", 10_175), {}],
      [network("Script", "https://127.0.0.1:8443/assets/framework-B.js", 107_000), {}],
      [network("Image", "https://127.0.0.1:8443/favicon.svg", 300), {}],
    ]);
    expect(scriptsInLcp(new Map([["pessimisticLargestContentfulPaint", graph]]))).toEqual([
      "/assets/framework-B.js",
      "/assets/entry.client-A.js",
    ]);
  });

  it("are none when the page painted first, and unknown when the run simulated no LCP", () => {
    const paintedFirst = new Map<unknown, unknown>([[network("Document", "https://127.0.0.1:8443/", 1_600), {}]]);
    expect(scriptsInLcp(new Map([["pessimisticLargestContentfulPaint", paintedFirst]]))).toEqual([]);
    expect(scriptsInLcp(new Map([["optimisticFirstContentfulPaint", paintedFirst]]))).toBeNull();
  });
});

describe("the race a run's browser ran between the first paint and the scripts", () => {
  const page = "https://127.0.0.1:8443/help";
  const start = 5_000_000; // µs on the trace's clock
  const at = (ms: number) => start + ms * 1000;
  const request = (id: string, url: string, ms: number) => ({
    name: "ResourceSendRequest",
    ts: at(ms),
    args: { data: { requestId: id, url } },
  });
  const finish = (id: string, ms: number) => ({
    name: "ResourceFinish",
    ts: at(ms) + 300,
    args: { data: { requestId: id, finishTime: at(ms) / 1e6 } },
  });
  const trace = [
    // Lighthouse's blank page first, then the page measured.
    {
      name: "navigationStart",
      ts: start - 90_000,
      args: { frame: "F", data: { isLoadingMainFrame: true, documentLoaderURL: "about:blank" } },
    },
    { name: "navigationStart", ts: start, args: { frame: "F", data: { isLoadingMainFrame: true, documentLoaderURL: page } } },
    request("1", page, 0),
    request("2", "https://127.0.0.1:8443/assets/entry.client-A.js", 24),
    request("3", "https://127.0.0.1:8443/assets/framework-B.js", 25),
    request("4", "https://127.0.0.1:8443/favicon.svg", 150),
    request("5", "https://127.0.0.1:8443/assets/gone-C.js", 26),
    finish("1", 20),
    finish("2", 62.24),
    finish("4", 160),
    { name: "ResourceFinish", ts: at(70), args: { data: { requestId: "5", finishTime: 0 } } },
    { name: "largestContentfulPaint::Candidate", ts: at(75.7), args: { frame: "other" } },
    { name: "largestContentfulPaint::Candidate", ts: at(80.1), args: { frame: "F" } },
    { name: "largestContentfulPaint::Candidate", ts: at(83.2), args: { frame: "F" } },
    finish("3", 110.6),
  ];

  it("reads, after the page's own navigation, its LCP (the last candidate) and when each of its scripts finished, in ms", () => {
    expect(observedRace(trace, page)).toEqual({
      paintMs: 83.2,
      scripts: [
        { path: "/assets/entry.client-A.js", finishedMs: 62.2 },
        { path: "/assets/framework-B.js", finishedMs: 110.6 },
      ],
    });
  });

  it("is unknown without the page's navigation or its paint", () => {
    expect(observedRace(trace, "https://127.0.0.1:9999/help")).toBeNull();
    expect(
      observedRace(
        trace.filter((e) => e.name !== "largestContentfulPaint::Candidate" || e.ts === at(75.7)),
        page,
      ),
    ).toBeNull();
  });

  it("says how the race went", () => {
    const race = observedRace(trace, page)!;
    expect(raceText(race)).toBe("LCP painted at 83 ms, 1 script loaded before it (the last at 62), the next at 111");
    expect(raceText({ paintMs: 60, scripts: race.scripts })).toBe("LCP painted at 60 ms, no script loaded before it, the next at 62");
    expect(raceText({ paintMs: 120, scripts: race.scripts })).toBe(
      "LCP painted at 120 ms, 2 scripts loaded before it (the last at 111), none after it",
    );
  });
});

describe("the pages' Lighthouse runs", () => {
  it("are taken in turns: every page's first run, then every page's second", async () => {
    const order: string[] = [];
    const outcomes = await runsInTurns(["/", "/help", "anchor /"], 3, async (page, run) => {
      order.push(`${page} ${run}`);
      return `${page}#${run}`;
    });
    expect(order).toEqual(["/ 1", "/help 1", "anchor / 1", "/ 2", "/help 2", "anchor / 2", "/ 3", "/help 3", "anchor / 3"]);
    expect(outcomes).toEqual([
      { runs: ["/#1", "/#2", "/#3"] },
      { runs: ["/help#1", "/help#2", "/help#3"] },
      { runs: ["anchor /#1", "anchor /#2", "anchor /#3"] },
    ]);
  });

  it("leave out a page whose run failed, keeping its runs so far and its error, and go on with the others", async () => {
    const order: string[] = [];
    const outcomes = await runsInTurns(["/", "/help"], 3, async (page, run) => {
      order.push(`${page} ${run}`);
      if (page === "/" && run === 2) throw new Error("timed out");
      return run;
    });
    expect(order).toEqual(["/ 1", "/help 1", "/ 2", "/help 2", "/help 3"]);
    expect(outcomes[0]).toEqual({ runs: [1], error: new Error("timed out") });
    expect(outcomes[1]).toEqual({ runs: [1, 2, 3] });
  });
});
