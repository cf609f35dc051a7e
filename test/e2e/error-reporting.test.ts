import { sentrySinkPort } from "./e2e-env.ts";
import { clearEnvelopes, envelopesMentioning, expect, test, waitForHydration } from "./fixtures.ts";

test.describe("error reporting in the browser", () => {
  test.beforeEach(async () => clearEnvelopes());

  test("with a DSN, the SDK chunk loads once and an error arrives as an envelope", async ({ page, problems }) => {
    problems.allow(/Failed to load resource/);
    const sdkChunks: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/sentry-browser-/.test(request.url())) sdkChunks.push(request.url());
    });
    await page.goto("/");
    await waitForHydration(page);
    expect(sdkChunks).toHaveLength(1);

    await page.route(/\/assets\/support-[^/]+\.js$/, (route) => route.abort("failed"));
    await page.getByRole("link", { name: "Support" }).first().click();
    await page.waitForEvent("load");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Support" }).first().click();
    await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).toBeVisible();
    const envelopes = await envelopesMentioning("Loading chunk support failed");
    expect(envelopes.length).toBeGreaterThan(0);
    expect(envelopes[0]?.path).toMatch(/^\/api\/1\/envelope\//);
  });

  test("without a DSN, nothing is loaded or sent", async ({ page, problems }) => {
    problems.allow(/Failed to load resource/);
    // The same page, configured without a DSN (the config block the root loader renders).
    await page.route(/\/(\?.*)?$/, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/"sentryDsn":"[^"]*"/, '"sentryDsn":null');
      await route.fulfill({ response, body: html });
    });
    const offending: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/sentry-browser-/.test(request.url()) || request.url().includes(`:${sentrySinkPort}/`)) {
        offending.push(request.url());
      }
    });
    await page.goto("/");
    await waitForHydration(page);

    await page.route(/\/assets\/transfer-[^/]+\.js$/, (route) => route.abort("failed"));
    await page.getByRole("link", { name: "Transfer" }).click();
    await page.waitForEvent("load");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Transfer" }).click();
    await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).toBeVisible();
    await page.waitForTimeout(1_000);
    expect(offending).toEqual([]);
    expect(await envelopesMentioning("Loading chunk transfer failed", 1_500)).toEqual([]);
  });
});
