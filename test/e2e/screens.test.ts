/**
 * Screen behaviour beyond the journeys: the language switcher, keyboard-only use, the
 * WeChat Pay "not configured" state, and signing out clearing what was personal.
 */
import { homeMessages } from "#app/messages/home";
import { walletOverviewMessages } from "#app/messages/wallet-overview";
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { loginMessages } from "#app/messages/login";
import { paymentMessages } from "#app/messages/payment";
import { rechargeMessages } from "#app/messages/recharge";
import { formatMoney } from "#app/i18n/format";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { api, contextFor, expectAccessible, issueCode, newPerson, open, password } from "./journey-kit.ts";

test("the language switcher renders the same page in Chinese, and the choice stays", async ({ page }) => {
  await open(page, "/help?from=switcher");
  await page.getByRole("navigation", { name: layoutMessages.en.language }).getByRole("link", { name: "简体中文" }).click();
  await waitForHydration(page);
  await expect(page).toHaveURL(/\/help\?from=switcher$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { level: 1, name: "帮助" })).toBeVisible();
  await page
    .getByRole("navigation", { name: layoutMessages["zh-CN"].mainNavigation })
    .getByRole("link", { name: layoutMessages["zh-CN"].nav.task })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "任务" })).toBeVisible();
  await expectAccessible(page);
  await open(page, "/tos");
  await expect(page.getByRole("heading", { level: 1, name: "服务条款" })).toBeVisible();
  await page.getByRole("link", { name: "English" }).click();
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "Terms of service" })).toBeVisible();
});

test("signing in and redeeming a code work with the keyboard alone", async ({ page, problems }) => {
  problems.allow(/status of 401/);
  const person = await newPerson("keys", "Jiang Tao");
  const text = loginMessages.en;
  const recharge = rechargeMessages.en;
  await open(page, "/login");
  const tabTo = async (label: string) => {
    for (let presses = 0; presses < 40; presses += 1) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? "");
      if (focused === label) return;
    }
    throw new Error(`Tab never reached ${label}`);
  };
  await tabTo(text.handle);
  await page.keyboard.type(person.handle);
  await tabTo(text.password);
  await page.keyboard.type(password);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1, name: walletOverviewMessages.en.hello("Jiang Tao") })).toBeVisible();

  // Focus moved to the new page's heading; Tab goes on from there.
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();
  await page.goto("/recharge");
  await waitForHydration(page);
  await tabTo(recharge.code);
  await page.keyboard.type(await issueCode(800));
  await page.keyboard.press("Enter");
  await expect(page.getByText(recharge.redeemed(formatMoney(800, "en")))).toBeVisible();
});

test("with WeChat Pay not configured, /wechat_pay says so and offers another way to pay", async ({ page }) => {
  const person = await newPerson("nowx", "Lu Yan");
  const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_000 } });
  await contextFor(page.context(), person, "en");
  // An origin without WeChat Pay answers its configuration like this.
  await page.route("**/api/payments/wechat/config", (route) =>
    route.fulfill({
      contentType: "application/json",
      body: JSON.stringify({ code: "SUCCESS", data: { configured: false, flows: [], jsapiAppId: null, simulator: false } }),
    }),
  );
  await open(page, `/wechat_pay?order=${order.id}`);
  await expect(page.getByRole("alert")).toHaveText(paymentMessages.en.wechatNotConfigured);
  await expect(page.getByRole("link", { name: paymentMessages.en.wechatOther })).toHaveAttribute("href", `/pay?order=${order.id}`);
  await expectAccessible(page);
});

test("signing out clears every personal view", async ({ page }) => {
  const person = await newPerson("leaver", "Bai Xue");
  await contextFor(page.context(), person, "en");
  await open(page, "/order");
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await page.getByRole("button", { name: layoutMessages.en.signOut }).click();
  await expect(page.getByRole("heading", { level: 1, name: homeMessages.en.heroTitle })).toBeVisible();
  await expect(page.getByTestId("header-balance")).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole("link", { name: layoutMessages.en.signInOrCreate })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("paydesk:token"))).toBe("");
});
