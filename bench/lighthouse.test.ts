import { describe, expect, it } from "vitest";
import { scriptsInLcp } from "./lighthouse.ts";

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
