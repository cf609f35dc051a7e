import { devices, type Page } from "@playwright/test";
import { e2ePort, seededUser, shortLinkHost } from "./e2e-env.ts";
import { expect, test, waitForHydration, type PaydeskWindow } from "./fixtures.ts";

/** A device that holds a token: only then does start-up ask who is signed in. */
const storedToken = (page: Page) => page.addInitScript((token) => localStorage.setItem("paydesk:token", token), seededUser.token);

test.describe("start-up", () => {
  test("posts the session with the bearer token and credentials before hydrating, then shows the user", async ({ page, context }) => {
    await context.addCookies([{ name: "edge_probe", value: "1", url: `http://127.0.0.1:${e2ePort}` }]);
    const observed: { hydratedBefore?: string; headers?: Record<string, string>; body?: string | null; method?: string } = {};
    await page.route("**/api/user/session", async (route) => {
      const request = route.request();
      observed.method = request.method();
      observed.headers = await request.allHeaders();
      observed.body = request.postData();
      // Held for a moment: hydration must wait for this answer.
      await new Promise((resolve) => setTimeout(resolve, 400));
      observed.hydratedBefore = await page.evaluate(() => document.documentElement.dataset.hydrated ?? "no");
      await route.continue();
    });

    await page.goto(`/?token=${seededUser.token}`);
    await waitForHydration(page);

    expect(observed.method).toBe("POST");
    expect(observed.hydratedBefore).toBe("no");
    expect(observed.headers?.authorization).toBe(`Bearer ${seededUser.token}`);
    expect(observed.headers?.["content-type"]).toBe("application/json");
    expect(observed.headers?.cookie).toContain("edge_probe=1");
    expect(observed.body ?? null).toBeNull();

    // The sign-in link's token is adopted and removed from the address bar.
    expect(new URL(page.url()).search).toBe("");
    expect(await page.evaluate(() => localStorage.getItem("paydesk:token"))).toBe(seededUser.token);
    await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);
    await expect(page.locator(".account-balance")).toHaveText("¥123.45");
    await expect(page.getByRole("heading", { name: `Hello, ${seededUser.displayName}` })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as PaydeskWindow).paydesk?.user)).toMatchObject({ handle: seededUser.handle });
  });

  test("stores the visit's and the first referrer", async ({ page }) => {
    await page.goto("/help", { referer: "https://search.example/q?paydesk" });
    await waitForHydration(page);
    const stored = await page.evaluate(() => ({
      visit: sessionStorage.getItem("paydesk:referrer:visit"),
      firstTouch: localStorage.getItem("paydesk:referrer:first-touch"),
    }));
    expect(stored).toEqual({ visit: "https://search.example/q?paydesk", firstTouch: "https://search.example/q?paydesk" });
  });

  test("sets isMobile under a phone's user agent, and not on a desktop", async ({ browser }) => {
    const phone = await browser.newContext({ ...devices["Pixel 7"] });
    const phonePage = await phone.newPage();
    await phonePage.goto("/");
    await waitForHydration(phonePage);
    expect(await phonePage.evaluate(() => (window as unknown as PaydeskWindow).paydesk?.isMobile)).toBe(true);
    await expect(phonePage.locator(".app-shell")).toHaveAttribute("data-device", "mobile");
    await phone.close();

    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const desktopPage = await desktop.newPage();
    await desktopPage.goto("/");
    await waitForHydration(desktopPage);
    expect(await desktopPage.evaluate(() => (window as unknown as PaydeskWindow).paydesk?.isMobile)).toBe(false);
    await expect(desktopPage.locator(".app-shell")).toHaveAttribute("data-device", "desktop");
    await desktop.close();
  });

  test("sets isShortLinkHost on a configured short-link host only", async ({ page }) => {
    await page.goto(`http://${shortLinkHost}:${e2ePort}/`);
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as PaydeskWindow).paydesk?.isShortLinkHost)).toBe(true);
    await page.goto("/");
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as PaydeskWindow).paydesk?.isShortLinkHost)).toBe(false);
  });

  test("hydrates when the session call fails, and says the service is unreachable", async ({ page, problems }) => {
    await storedToken(page);
    problems.allow(/Failed to load resource/);
    await page.route("**/api/user/session", (route) => route.abort("connectionrefused"));
    await page.goto("/order");
    await waitForHydration(page);
    await expect(page.getByRole("alert").first()).toContainText("cannot reach its service");
    await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  });

  test("hydrates when the edge answers that the origin is down", async ({ page, problems }) => {
    await storedToken(page);
    problems.allow(/status of 502/);
    await page.route("**/api/user/session", (route) =>
      route.fulfill({ status: 502, contentType: "application/json", body: '{"code":"ORIGIN_UNAVAILABLE"}' }),
    );
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.locator(".notice-warning")).toContainText("cannot reach its service");
    await expect(page.getByRole("link", { name: "Help" })).toBeVisible();
  });

  test("hydrates after the 8 s time-out when the session call hangs", async ({ page }) => {
    await storedToken(page);
    await page.route("**/api/user/session", () => {
      // Never answered.
    });
    const started = Date.now();
    await page.goto("/");
    await waitForHydration(page);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(7_500);
    expect(waited).toBeLessThan(20_000);
    await expect(page.locator(".notice-warning")).toBeVisible();
  });

  test("without a token: no session call, and the signed-out content is in the server's HTML", async ({ page, browser }) => {
    const sessionCalls: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/user/session")) sessionCalls.push(request.url());
    });
    await page.goto("/task");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByRole("link", { name: "Create an account" })).toBeVisible();
    expect(sessionCalls).toEqual([]);

    // Without JavaScript at all, the server's HTML alone shows it, and no spinner.
    const still = await browser.newContext({ javaScriptEnabled: false });
    const plain = await still.newPage();
    await plain.goto("/task");
    await expect(plain.getByRole("heading", { name: "Sign in to continue" })).toBeVisible();
    await expect(plain.locator(".spinner")).toBeHidden();
    await still.close();
  });

  test("with a token, the loading state shows until the session is known, never the signed-out content", async ({ page }) => {
    await storedToken(page);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/user/session", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/task");
    await expect(page.locator(".spinner")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeHidden();
    release();
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "Sign in to continue" })).toBeHidden();
    await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);
  });

  test("no CSP violation: zod validates the forms without eval", async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener("securitypolicyviolation", (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`),
      );
    });
    await page.goto("/login");
    await waitForHydration(page);
    // A form checked in the browser by its contract schema: zod builds and runs its parsers.
    await page.getByLabel("Handle").fill("x");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByText("A handle has 3 to 32 lower-case letters, digits or underscores.")).toBeVisible();
    await storedToken(page);
    await page.goto("/transfer");
    await waitForHydration(page);
    await expect(page.getByLabel("Amount (¥)")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  });
});
