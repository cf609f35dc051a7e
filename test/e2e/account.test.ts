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

  test("every field in error is named at once, and focus goes to the first", async ({ page }) => {
    await page.goto("/login?mode=register");
    await waitForHydration(page);
    await page.getByLabel("Handle").fill("No Spaces");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create your account" }).click();
    const handle = page.getByLabel("Handle");
    await expect(handle).toBeFocused();
    await expect(handle).toHaveAccessibleDescription(/A handle has 3 to 32 lower-case letters, digits or underscores\./);
    await expect(page.getByLabel("Display name")).toHaveAccessibleDescription(/Enter the name others will see \(up to 64 characters\)\./);
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(/A password has 10 to 256 characters\./);
    for (const field of ["Handle", "Display name", "Password"])
      await expect(page.getByLabel(field)).toHaveAttribute("aria-invalid", "true");
    // Nothing concerns the form as a whole, so no alert repeats the fields' messages.
    await expect(page.locator("[data-form-alert]")).toHaveCount(0);

    // Mending one field leaves the others named until the next try.
    await handle.fill("mended_handle");
    await page.getByRole("button", { name: "Create your account" }).click();
    await expect(page.getByLabel("Display name")).toBeFocused();
    await expect(handle).not.toHaveAttribute("aria-invalid");
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  });

  test("a password is counted in characters: five emoji are too few, and 200 make an account without being cut short", async ({ page }) => {
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/user/register")) sent.push(request.url());
    });
    await page.goto("/login?mode=register");
    await waitForHydration(page);
    await page.getByLabel("Handle").fill(`emoji_${Date.now().toString(36)}`);
    await page.getByLabel("Display name").fill("Bai Yun");
    const password = page.getByLabel("Password");
    // 10 UTF-16 units, 5 characters: refused by the form itself, as the origin would.
    await password.fill("😀🔑🌙🍵🎋");
    await page.getByRole("button", { name: "Create your account" }).click();
    await expect(password).toHaveAccessibleDescription(/A password has 10 to 256 characters\./);
    expect(sent).toEqual([]);
    // 200 characters of two units each: the field keeps all 400 units.
    const long = "🍵".repeat(200);
    await password.fill(long);
    expect(await password.inputValue()).toBe(long);
    await page.getByRole("button", { name: "Create your account" }).click();
    await page.getByRole("button", { name: "I have saved them" }).click();
    await expect(page.locator(".account-name")).toHaveText("Bai Yun");
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
