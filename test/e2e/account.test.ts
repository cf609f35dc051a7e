import { expect, test, waitForHydration } from "./fixtures.ts";

test.describe("signing in", () => {
  test("a new user creates an account, is signed in, signs out and signs in again", async ({ page, problems }) => {
    problems.allow(/status of 401/);
    const handle = `new_${Date.now().toString(36)}`;
    await page.goto("/login?mode=register&next=%2Ftransfer");
    await waitForHydration(page);
    await page.getByLabel("Handle").fill(handle);
    await page.getByLabel("Display name").fill("Zhang Min");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create your account" }).click();
    // The new account's recovery codes come first, once (test/e2e/account-safety.test.ts).
    await page.getByRole("button", { name: "I have saved them" }).click();

    await expect(page).toHaveURL(/\/transfer$/);
    await expect(page.locator(".account-name")).toHaveText("Zhang Min");
    await expect(page.locator(".account-balance")).toHaveText("¥0.00");
    await page.screenshot({ path: "test-results/screens/signed-in-after-register-1280x720.png" });

    // The token survives a reload: start-up finds it and the session call accepts it.
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator(".account-name")).toHaveText("Zhang Min");

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();

    await page.goto("/login");
    await waitForHydration(page);
    await page.getByLabel("Handle").fill(handle);
    await page.getByLabel("Password").fill("not the password!");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("That handle and password do not match an account.");
    await expect(page.getByRole("alert")).toBeFocused();

    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Hello, Zhang Min" })).toBeVisible();
  });

  test("a taken handle is named at its field", async ({ page, problems }) => {
    problems.allow(/status of 409/);
    await page.goto("/login?mode=register");
    await waitForHydration(page);
    await page.getByLabel("Handle").fill("li_wei");
    await page.getByLabel("Display name").fill("Another Li");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create your account" }).click();
    await expect(page.getByText("That handle is taken. Choose another.")).toBeVisible();
    await expect(page.getByLabel("Handle")).toBeFocused();
    await expect(page.getByLabel("Handle")).toHaveAttribute("aria-invalid", "true");
  });
});
