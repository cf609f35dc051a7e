import { devBaseUrl } from "./e2e-env.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";

test.describe("npm run dev", () => {
  test("serves the pages, route data and the origin with its local D1", async ({ request }) => {
    const page = await request.get(`${devBaseUrl}/help`);
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("What is the difference between available and held money?");

    const data = await request.get(`${devBaseUrl}/__serverLoader?route=tos&url=/tos`);
    expect(await data.json()).toMatchObject({ sections: expect.any(Array) });

    // An unknown token is looked up in D1: 401 proves the database and its migrations are there.
    const session = await request.post(`${devBaseUrl}/api/user/session`, {
      headers: { Authorization: "Bearer tok_unknown_0123456789abcdef" },
    });
    expect(session.status()).toBe(401);
    expect(await session.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });

  test("hydrates a page in the browser", async ({ page, problems }) => {
    // Vite's dev server optimises dependencies on first use and may say so.
    problems.allow(/\[vite\]/);
    await page.goto(`${devBaseUrl}/tos`);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Terms of service" })).toBeVisible();
  });
});
