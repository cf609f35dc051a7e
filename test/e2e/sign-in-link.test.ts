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
