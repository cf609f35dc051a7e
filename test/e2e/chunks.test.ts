import { clearEnvelopes, envelopesMentioning, expect, test, waitForHydration } from "./fixtures.ts";

test.describe("chunk loading", () => {
  test.beforeEach(async () => clearEnvelopes());

  // Pages inline the app's styles; the printed receipt (and the back office) still link a
  // sheet of their own.
  test("a route stylesheet that fails reloads once, then explains and is reported", async ({ page, problems }) => {
    problems.allow(/Failed to load resource/);
    await page.route(/\/assets\/receipt-[^/]+\.css$/, (route) => route.abort("failed"));
    let documentLoads = 0;
    page.on("request", (request) => {
      if (request.resourceType() === "document") documentLoads += 1;
    });
    await page.goto("/wallet/receipts/transfer/tx_any");
    await expect(page.getByRole("heading", { name: "This page could not load its design" })).toBeVisible();
    expect(documentLoads).toBe(2);
    await expect(page.getByRole("button", { name: "Reload the page" })).toBeVisible();
    const reports = await envelopesMentioning("CssChunkLoadError");
    expect(JSON.stringify(reports)).toContain("Loading CSS chunk failed");
  });

  test("a route chunk that fails after a deploy reloads once, then explains and is reported", async ({ page, problems }) => {
    problems.allow(/Failed to load resource/);
    await page.goto("/");
    await waitForHydration(page);
    await page.route(/\/assets\/check-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: "Not found" }));

    await page.getByRole("link", { name: "Check" }).click();
    // The one automatic reload, on the page the user was on.
    await page.waitForEvent("load");
    await waitForHydration(page);
    expect(new URL(page.url()).pathname).toBe("/");

    await page.getByRole("link", { name: "Check" }).click();
    await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).toBeVisible();
    const reports = await envelopesMentioning("ChunkLoadError");
    expect(JSON.stringify(reports)).toContain("Loading chunk check failed");

    // Reload is offered and works once the chunk is back.
    await page.unroute(/\/assets\/check-[^/]+\.js$/);
    await page.getByRole("button", { name: "Reload the page" }).click();
    await waitForHydration(page);
    await page.getByRole("link", { name: "Check" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Check submissions" })).toBeVisible();
  });

  test("a route chunk that has not loaded after 120 000 ms fails with a chunk-load error", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    await waitForHydration(page);
    let requested = () => {};
    const chunkRequested = new Promise<void>((resolve) => {
      requested = resolve;
    });
    await page.route(/\/assets\/check-[^/]+\.js$/, () => {
      // Held forever: a stalled connection.
      requested();
    });
    await page.getByRole("link", { name: "Check" }).click();
    // The time limit starts when the chunk is asked for: the clock moves only from then on
    // (on a busy machine the click's import() can come after a clock moved at once).
    await chunkRequested;
    await page.clock.runFor(119_000);
    await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).not.toBeVisible();
    await page.clock.runFor(1_500);
    await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).toBeVisible();
    const reports = await envelopesMentioning("timeout: /assets/check-");
    expect(reports.length).toBeGreaterThan(0);
  });

  test("an app chunk that fails on the first visit reloads once, then explains; the next start reports it", async ({ page, problems }) => {
    problems.allow(/Failed to load resource/);
    await page.route(/\/assets\/root-[^/]+\.js$/, (route) => route.abort("failed"));
    let documentLoads = 0;
    page.on("request", (request) => {
      if (request.resourceType() === "document") documentLoads += 1;
    });
    await page.goto("/help");
    await expect(page.getByRole("heading", { name: "Paydesk could not finish loading" })).toBeVisible();
    expect(documentLoads).toBe(2);
    await expect(page.getByRole("button", { name: "Reload the page" })).toBeFocused();

    await page.unroute(/\/assets\/root-[^/]+\.js$/);
    await page.getByRole("button", { name: "Reload the page" }).click();
    await waitForHydration(page);
    const reports = await envelopesMentioning("initial-load");
    expect(JSON.stringify(reports)).toContain("ChunkLoadError");
  });
});
