import { describe, expect, it } from "vitest";
import { runsInTurns, scriptsInLcp } from "./lighthouse.ts";

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
