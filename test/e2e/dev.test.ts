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

test.describe("npm run dev with the WeChat Pay simulator", () => {
  test("the QR page offers Simulate scan and pay, which pays the recharge", async ({ page, problems, request }) => {
    problems.allow(/\[vite\]/);
    const handle = `dev_${Date.now().toString(36)}`;
    const password = "a long enough password";
    await request.post(`${devBaseUrl}/api/user/register`, {
      headers: { "Idempotency-Key": crypto.randomUUID() },
      data: { handle, password, displayName: "Dev Payer" },
    });
    const login = await request.post(`${devBaseUrl}/api/user/login`, { data: { handle, password } });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const created = await request.post(`${devBaseUrl}/api/orders/recharge`, {
      headers: { Authorization: `Bearer ${token}`, "Idempotency-Key": crypto.randomUUID() },
      data: { amount: 1_500 },
    });
    const orderId = ((await created.json()) as { data: { id: string } }).data.id;

    await page.addInitScript((value) => window.localStorage.setItem("paydesk:token", value), token);
    await page.goto(`${devBaseUrl}/wechat_pay?order=${orderId}`);
    await waitForHydration(page);
    await expect(page.getByRole("img", { name: /QR code to pay ¥15\.00/ })).toBeVisible({ timeout: 20_000 });
    await page.getByRole("button", { name: "Simulate scan and pay" }).click();
    await expect(page).toHaveURL(new RegExp(`/pay_success\\?order=${orderId}`), { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
    await expect(page.getByTestId("header-balance")).toHaveText("¥15.00");
  });
});
