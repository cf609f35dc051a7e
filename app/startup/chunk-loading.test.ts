import { afterEach, describe, expect, it, vi } from "vitest";
import { failedModuleUrl } from "./chunk-loading";

const failed = (message: string) => new TypeError(message);

describe("the chunk address a failed import names", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("is read from Chromium's and Firefox's messages, whole even when a name holds '.js'", () => {
    const url = "https://paydesk.test/assets/chart.js-Ab12.js";
    expect(failedModuleUrl(failed(`Failed to fetch dynamically imported module: ${url}`))).toBe(url);
    expect(failedModuleUrl(failed(`error loading dynamically imported module: ${url}`))).toBe(url);
    expect(failedModuleUrl(failed(`Failed to fetch dynamically imported module: ${url}?retry=2`))).toBe(url);
  });

  it("is nothing where the browser names none (Safari), or names what is not one of our chunks", () => {
    vi.stubGlobal("location", new URL("https://paydesk.test/login"));
    expect(failedModuleUrl(failed("Importing a module script failed."))).toBeNull();
    expect(failedModuleUrl(failed("Failed to fetch dynamically imported module: https://elsewhere.test/assets/x-1.js"))).toBeNull();
    expect(failedModuleUrl(failed("Failed to fetch dynamically imported module: https://paydesk.test/api/x.js"))).toBeNull();
    expect(failedModuleUrl("not an error")).toBeNull();
    expect(failedModuleUrl(failed("Failed to fetch dynamically imported module: https://paydesk.test/assets/x-1.js"))).toBe(
      "https://paydesk.test/assets/x-1.js",
    );
  });
});
