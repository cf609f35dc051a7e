import { mkdirSync } from "node:fs";
import { seededUser } from "./e2e-env.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { expectAccessible } from "./journey-kit.ts";

const routes: { path: string; name: string; heading: string | RegExp; status?: number }[] = [
  { path: "/", name: "home", heading: "Your wallet for orders, transfers and paid tasks" },
  { path: "/login", name: "login", heading: "Sign in" },
  { path: "/task", name: "task", heading: "Tasks" },
  { path: "/check", name: "check", heading: "Check submissions" },
  { path: "/pay?order=ord_123", name: "pay", heading: "Checkout" },
  { path: "/wechat_pay?order=ord_123", name: "wechat_pay", heading: "Pay with WeChat Pay" },
  { path: "/pay_success?order=ord_123", name: "pay_success", heading: "Payment result" },
  { path: "/code", name: "code", heading: "Recharge" },
  { path: "/recharge", name: "recharge", heading: "Recharge" },
  { path: "/order", name: "order", heading: "Orders" },
  { path: "/transfer", name: "transfer", heading: "Send money" },
  { path: "/help", name: "help", heading: "Help" },
  { path: "/tos", name: "tos", heading: "Terms of service" },
  { path: "/contact", name: "contact", heading: "Contact us" },
  { path: "/support", name: "support", heading: "Support" },
  { path: "/account", name: "account", heading: "Your account" },
  { path: "/wallet", name: "wallet", heading: "Statement" },
  { path: "/wallet/receipts/transfer/trf_1", name: "receipt", heading: "Receipt" },
  { path: "/no/such/page", name: "not-found", heading: "Page not found", status: 404 },
];

const viewports = [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
];

mkdirSync("test-results/screens", { recursive: true });

for (const viewport of viewports) {
  test.describe(`every route at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    for (const route of routes) {
      test(`${route.path} renders in the layout`, async ({ page, problems }) => {
        // Chrome logs the document's own 404 status.
        if (route.status === 404) problems.allow(/status of 404/);
        const response = await page.goto(route.path);
        expect(response?.status()).toBe(route.status ?? 200);
        await waitForHydration(page);
        await expect(page.getByRole("heading", { level: 1, name: route.heading, exact: true })).toBeVisible();
        await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
        await expect(page.getByRole("contentinfo")).toBeVisible();
        await expectAccessible(page);
        await page.screenshot({ path: `test-results/screens/${route.name}-${viewport.width}x${viewport.height}.png`, fullPage: true });
      });
    }
  });
}

test.describe("signed-out and loading states", () => {
  test("a personal screen shows a spinner in its HTML, then asks a signed-out visitor to sign in", async ({ page }) => {
    await page.route("**/api/user/session", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.goto("/transfer", { waitUntil: "commit" });
    await expect(page.getByRole("main").locator(".spinner")).toContainText("Checking your session");
    await waitForHydration(page);
    const signIn = page.getByRole("link", { name: "Sign in or create an account" });
    await expect(signIn).toHaveAttribute("href", "/login?next=%2Ftransfer");
  });

  test("a signed-in user sees the screen, not the sign-in prompt", async ({ page }) => {
    await page.goto(`/transfer?token=${seededUser.token}`);
    await waitForHydration(page);
    await expect(page.getByLabel("Recipient's handle")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in or create an account" })).toHaveCount(0);
    await page.screenshot({ path: "test-results/screens/transfer-signed-in-1280x800.png" });
  });

  test("a navigation shows the spinner while the next page loads", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await page.route("**/help.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole("link", { name: "Help" }).click();
    await expect(page.getByText("Loading the page…")).toBeAttached();
    await expect(page.getByRole("heading", { level: 1, name: "Help" })).toBeVisible();
    await expect(page.getByText("Loading the page…")).not.toBeAttached();
  });
});

test("files the asset server answers alone carry the security headers too", async ({ request }) => {
  for (const path of ["/favicon.svg"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["content-security-policy"]).toBe("default-src 'none'; style-src 'unsafe-inline'");
  }
});

test("hashed assets are immutable for a year", async ({ page, request }) => {
  await page.goto("/");
  const script = await page.locator('link[rel="modulepreload"]').first().getAttribute("href");
  const response = await request.get(script ?? "");
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
});
