import { e2eBaseUrl, seededUser } from "./e2e-env.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";

test("a sign-in link signs in once: the browser keeps a new token, and the link then stops working", async ({ page, browser, request }) => {
  const made = await request.post(`${e2eBaseUrl}/api/user/sign-in-link`, { headers: { Authorization: `Bearer ${seededUser.token}` } });
  expect(made.status()).toBe(201);
  const { path } = ((await made.json()) as { data: { path: string } }).data;
  const linkToken = new URL(path, e2eBaseUrl).searchParams.get("token");

  await page.goto(path);
  await waitForHydration(page);
  await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);
  expect(new URL(page.url()).search).toBe("");
  const kept = await page.evaluate(() => localStorage.getItem("paydesk:token"));
  expect(kept).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(kept).not.toBe(linkToken);
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);

  // The same link on another device: no longer valid.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(path);
  await waitForHydration(otherPage);
  await expect(otherPage.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await other.close();
});

test("a link for another account asks before switching (login CSRF), and says as whom a link signed in", async ({ page, request }) => {
  const handle = `other_${Date.now().toString(36)}`;
  await request.post(`${e2eBaseUrl}/api/user/register`, {
    headers: { "Idempotency-Key": crypto.randomUUID() },
    data: { handle, password: "a long enough password", displayName: "Somebody Else" },
  });
  const login = await request.post(`${e2eBaseUrl}/api/user/login`, { data: { handle, password: "a long enough password" } });
  const otherToken = ((await login.json()) as { data: { token: string } }).data.token;
  const link = async () => {
    const made = await request.post(`${e2eBaseUrl}/api/user/sign-in-link`, { headers: { Authorization: `Bearer ${otherToken}` } });
    return ((await made.json()) as { data: { path: string } }).data.path;
  };

  await page.addInitScript((token) => {
    if (!sessionStorage.getItem("seeded")) {
      localStorage.setItem("paydesk:token", token);
      sessionStorage.setItem("seeded", "1");
    }
  }, seededUser.token);
  await page.goto(await link());
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Switch to another account?" })).toBeFocused();
  await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);
  await expect(page.locator("#main h1")).toBeVisible();
  await page.getByRole("button", { name: `Stay signed in as ${seededUser.displayName} (@${seededUser.handle})` }).click();
  await expect(page.getByRole("heading", { name: "Switch to another account?" })).toHaveCount(0);
  // The question answered, its buttons are gone: focus goes to the page's heading.
  await expect(page.locator("#main h1")).toBeFocused();
  await expect(page.locator(".account-name")).toHaveText(seededUser.displayName);

  await page.goto(await link());
  await waitForHydration(page);
  await page.getByRole("button", { name: "Switch accounts" }).click();
  await expect(page.locator(".account-name")).toHaveText("Somebody Else");
  await expect(page.getByText(`You were signed in with a link as Somebody Else (@${handle}). Not you?`)).toBeVisible();
  await expect(page.locator("#main h1")).toBeFocused();
  const kept = await page.evaluate(() => localStorage.getItem("paydesk:token"));
  expect(kept).not.toBe(seededUser.token);
});
