/**
 * WeChat Pay in the browser (issue #5): the built app with the reference origin and the
 * WeChat Pay simulator beside it, as in local emulation. The payer's phone is played by
 * the simulator (the QR flow) or by its stand-in cashier page (the H5 flow).
 */
import { formatMoney } from "#app/i18n/format";
import { orderMessages } from "#app/messages/orders";
import { paymentMessages } from "#app/messages/payment";
import { paymentOutcomeMessages } from "#app/messages/payment-outcome";
import { rechargeMessages } from "#app/messages/recharge";
import { errorMessages } from "./error-messages.ts";
import { expect, test } from "./fixtures.ts";
import { api, balances, contextFor, expectAccessible, fund, newPerson, open, openAs, type Person, shot, viewports } from "./journey-kit.ts";

const language = "en";
const text = paymentMessages[language];
const recharge = rechargeMessages[language];
const desktop = viewports[1];
const phone = viewports[0];
const phoneUserAgent =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

/** A task of 3 × ¥8.00 posted through the API: the order for its ¥24.00 budget, waiting to be paid. */
async function taskBudgetOrder(poster: Person, title: string, description: string): Promise<{ id: string }> {
  const deadline = new Date(Date.now() + 48 * 3600 * 1000).toISOString();
  const { order } = await api<{ order: { id: string } }>("POST", "/api/tasks", {
    token: poster.token,
    body: { title, description, reward: 800, slots: 3, deadline },
  });
  return order;
}

test.describe("WeChat Pay on a desktop", () => {
  test.use({ viewport: { width: desktop.width, height: desktop.height } });

  test("a recharge paid by scanning the QR code credits the wallet", async ({ page }) => {
    const person = await newPerson("scanner", "Ma Lin");
    await contextFor(page.context(), person, language);
    await open(page, "/recharge");
    await page.getByLabel(recharge.amount, { exact: true }).fill("30");
    await page.getByRole("button", { name: recharge.createOrder }).click();
    await expect(page).toHaveURL(/\/pay\?order=ord_/);
    const orderId = new URL(page.url()).searchParams.get("order")!;
    await page.getByRole("link", { name: text.wechat, exact: true }).click();

    await expect(page).toHaveURL(/\/wechat_pay\?order=ord_/);
    const qr = page.getByRole("img", { name: text.qrLabel(formatMoney(3_000, language)) });
    await expect(qr).toBeVisible();
    await expect(page.getByRole("timer")).toHaveText(/^(29|30):\d\d$/);
    await expectAccessible(page);
    await shot(page, "wechat-qr", desktop, language);

    // The payer's phone scans and pays.
    await api("POST", "/api/payments/wechat/simulator/pay", { token: person.token, body: { orderId } });
    await expect(page).toHaveURL(new RegExp(`/pay_success\\?order=${orderId}`), { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: text.paid })).toBeVisible();
    await expect(page.getByText(text.paidRecharge(formatMoney(3_000, language)))).toBeVisible();
    await expect(page.getByTestId("header-balance")).toHaveText(formatMoney(3_000, language));
    await expectAccessible(page);
    await shot(page, "wechat-qr-paid", desktop, language);
    expect(await balances(person)).toEqual({ available: 3_000, held: 0 });
  });

  test("a task budget paid with WeChat Pay opens the task with its escrow held", async ({ page }) => {
    const poster = await newPerson("wxposter", "Deng Hui");
    const order = await taskBudgetOrder(poster, "Review a menu translation", "Read the menu and mark mistakes.");
    await contextFor(page.context(), poster, language);
    await open(page, `/pay?order=${order.id}`);
    await page.getByRole("link", { name: text.wechat, exact: true }).click();
    await expect(page.getByRole("img", { name: text.qrLabel(formatMoney(2_400, language)) })).toBeVisible();
    await api("POST", "/api/payments/wechat/simulator/pay", { token: poster.token, body: { orderId: order.id } });
    await expect(page).toHaveURL(/\/pay_success/, { timeout: 20_000 });
    await expect(page.getByText(text.paidTask)).toBeVisible();
    expect(await balances(poster)).toEqual({ available: 0, held: 2_400 });
    await shot(page, "wechat-task-paid", desktop, language);

    await open(page, `/order?id=${order.id}`);
    await expect(page.getByText(orderMessages[language].method.wechat)).toBeVisible();
    await expectAccessible(page);
  });
});

// A payment whose notification comes late is one Paydesk hears of only when it asks WeChat Pay,
// here when the order it paid closes or is paid another way (docs/decisions/074-the-payment-result-says-where-the-money-is.md).
test.describe("The payment result says where the money is", () => {
  test.use({ viewport: { width: desktop.width, height: desktop.height } });
  const outcome = paymentOutcomeMessages[language];

  test("a WeChat Pay payment that lands as its order is cancelled goes back by itself, and the result follows its refund", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const person = await newPerson("latepay", "Tang Wei");
    await contextFor(page.context(), person, language);
    const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 3_000 } });
    await open(page, `/wechat_pay?order=${order.id}`);
    await expect(page.getByRole("img", { name: text.qrLabel(formatMoney(3_000, language)) })).toBeVisible();
    // The payer pays; WeChat Pay's word of it is slow. Meanwhile the order is cancelled elsewhere.
    // WeChat Pay takes 25 s to refund this payer, so the result is seen before and after.
    await api("POST", "/api/payments/wechat/simulator/pay", {
      token: person.token,
      body: { orderId: order.id, notifyAfterSeconds: 600, refundAfterSeconds: 25 },
    });
    await api("POST", `/api/orders/${order.id}/cancel`, { token: person.token });

    await expect(page).toHaveURL(new RegExp(`/pay_success\\?order=${order.id}`), { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: outcome.cancelled })).toBeVisible();
    const returned = page.getByTestId("returned-payment");
    await expect(returned).toContainText(outcome.lateAfterClosed(formatMoney(3_000, language)));
    await expect(returned).toContainText(outcome.refund.pending);
    await expect(page.getByRole("button", { name: text.checkAgain })).toBeVisible();
    // WeChat Pay finishes the refund; the page, still open and checking by itself, shows it.
    await expect(returned).toContainText(outcome.refund.succeeded, { timeout: 45_000 });
    await expect(page.getByRole("button", { name: text.checkAgain })).toHaveCount(0);
    await expect(returned.getByRole("link", { name: outcome.refundReceipt })).toHaveAttribute("href", /^\/wallet\/receipts\/refund\//);
    await expect(page.getByText(outcome.nothingPaid)).toHaveCount(0);
    await expect(page.getByRole("link", { name: outcome.payAgain })).toHaveCount(0);
    expect(await balances(person)).toEqual({ available: 0, held: 0 });
    await expectAccessible(page);
    await shot(page, "pay-result-returned", desktop, language);

    const zh = paymentOutcomeMessages["zh-CN"];
    const inChinese = await openAs(browser, person, "zh-CN", phone, `/pay_success?order=${order.id}`);
    await expect(inChinese.getByRole("heading", { name: zh.cancelled })).toBeVisible();
    await expect(inChinese.getByTestId("returned-payment")).toContainText(zh.lateAfterClosed(formatMoney(3_000, "zh-CN")));
    await expect(inChinese.getByTestId("returned-payment")).toContainText(zh.refund.succeeded);
    await shot(inChinese, "pay-result-returned", phone, "zh-CN");
    await inChinese.context().close();
  });

  test("a WeChat Pay payment that lands after the order was paid from the wallet goes back by itself", async ({ page }) => {
    const poster = await newPerson("twicepay", "Fan Jie");
    await fund(poster, 2_400);
    const order = await taskBudgetOrder(poster, "Check a shop's opening hours", "Call the shop and note its hours.");
    await contextFor(page.context(), poster, language);
    await open(page, `/wechat_pay?order=${order.id}`);
    await expect(page.getByRole("img", { name: text.qrLabel(formatMoney(2_400, language)) })).toBeVisible();
    await api("POST", "/api/payments/wechat/simulator/pay", { token: poster.token, body: { orderId: order.id, notifyAfterSeconds: 600 } });
    await api("POST", `/api/orders/${order.id}/pay`, { token: poster.token, body: { method: "wallet" } });

    await expect(page).toHaveURL(/\/pay_success/, { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: text.paid })).toBeVisible();
    await expect(page.getByText(text.paidTask)).toBeVisible();
    const returned = page.getByTestId("returned-payment");
    await expect(returned).toContainText(outcome.lateAfterPaid(formatMoney(2_400, language)), { timeout: 20_000 });
    await expect(returned).toContainText(outcome.refund.succeeded, { timeout: 20_000 });
    expect(await balances(poster)).toEqual({ available: 0, held: 2_400 });
    await expectAccessible(page);
    await shot(page, "pay-result-paid-twice", desktop, language);
  });

  test("while an order waits the result offers to pay it, and once cancelled says that nothing was paid", async ({ browser }) => {
    const person = await newPerson("waitpay", "Qin Lu");
    const zh = paymentOutcomeMessages["zh-CN"];
    const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_500 } });
    const page = await openAs(browser, person, "zh-CN", phone, `/pay_success?order=${order.id}`);
    await expect(page.getByRole("heading", { name: paymentMessages["zh-CN"].pending })).toBeVisible();
    await expect(page.getByRole("link", { name: zh.payAgain })).toHaveAttribute("href", `/pay?order=${order.id}`);
    await expect(page.getByText(zh.payAgainHint)).toBeVisible();
    await api("POST", `/api/orders/${order.id}/cancel`, { token: person.token });
    // The page keeps checking while the order waits, so it sees the cancellation by itself.
    await expect(page.getByRole("heading", { name: zh.cancelled })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText(zh.nothingPaid)).toBeVisible();
    await expect(page.getByRole("link", { name: zh.payAgain })).toHaveCount(0);
    await expectAccessible(page);
    await shot(page, "pay-result-cancelled", phone, "zh-CN");
    await page.context().close();
  });
});

test.describe("WeChat Pay in a phone's browser", () => {
  test.use({ viewport: { width: phone.width, height: phone.height }, userAgent: phoneUserAgent, isMobile: true, hasTouch: true });

  test("a recharge paid in WeChat through H5 returns to a confirmed result", async ({ page, problems }) => {
    // The simulator's stand-in cashier is a bare HTML page: the browser asks it for a favicon.
    problems.allow(/status of 404/);
    const missing: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 404) missing.push(new URL(response.url()).pathname);
    });
    const person = await newPerson("phone", "Xu Qing");
    await fund(person, 100);
    await contextFor(page.context(), person, language);
    await open(page, "/recharge");
    await page.getByLabel(recharge.amount, { exact: true }).fill("12.5");
    await page.getByRole("button", { name: recharge.createOrder }).click();
    await expect(page).toHaveURL(/\/pay\?order=ord_/);
    await page.getByRole("link", { name: text.wechat, exact: true }).click();
    const open_ = page.getByRole("link", { name: text.openWechat });
    await expect(open_).toBeVisible();
    await expectAccessible(page);
    await shot(page, "wechat-h5", phone, language);

    // WeChat's cashier (the simulator's stand-in) takes the payment and sends the browser back.
    await open_.click();
    await page.getByRole("button", { name: "Pay (simulated)" }).click();
    await expect(page).toHaveURL(/\/pay_success\?order=ord_/);
    await expect(page.getByRole("heading", { name: text.paid })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("header-balance")).toHaveText(formatMoney(1_350, language));
    await shot(page, "wechat-h5-paid", phone, language);
    expect(await balances(person)).toEqual({ available: 1_350, held: 0 });
    expect(missing.filter((path) => path !== "/favicon.ico")).toEqual([]);
  });
});

test.describe("WeChat Pay inside WeChat", () => {
  const wechatUserAgent = `${phoneUserAgent} MicroMessenger/8.0.50(0x1800322c) NetType/WIFI Language/zh_CN`;
  test.use({ viewport: { width: phone.width, height: phone.height }, userAgent: wechatUserAgent, isMobile: true, hasTouch: true });

  test("WeChat's silent sign-in gives the payer's openid, then the page opens WeChat's payment sheet with signed parameters and confirms with the origin", async ({
    page,
  }) => {
    const person = await newPerson("inwx", "He Ping");
    await contextFor(page.context(), person, "zh-CN");
    // WeChat's in-app bridge cannot run here: this stand-in records what the page asks it.
    await page.addInitScript(() => {
      const calls: unknown[] = [];
      (window as unknown as { bridgeCalls: unknown[] }).bridgeCalls = calls;
      (window as unknown as { WeixinJSBridge: unknown }).WeixinJSBridge = {
        invoke: (name: string, params: unknown, callback: (result: { err_msg: string }) => void) => {
          calls.push({ name, params });
          callback({ err_msg: "get_brand_wcpay_request:ok" });
        },
      };
    });
    const visited: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
    });
    const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 2_000 } });
    const zh = paymentMessages["zh-CN"];
    await open(page, `/wechat_pay?order=${order.id}`);
    // Through WeChat's authorize page (the simulator's stand-in), back with a code the page hands on and clears.
    await expect(page.getByRole("button", { name: zh.jsapiOpen })).toBeVisible({ timeout: 20_000 });
    expect(visited.some((url) => url.includes("/connect/oauth2/authorize?") && url.includes("scope=snsapi_base"))).toBe(true);
    expect(visited.some((url) => /\/wechat_pay\?order=ord_[\w-]+&code=\w+&state=[0-9a-f]{64}$/.test(url))).toBe(true);
    await expect(page).toHaveURL(new RegExp(`/wechat_pay\\?order=${order.id}$`));
    await page.getByRole("button", { name: zh.jsapiOpen }).click();
    const calls = (await page.evaluate(
      () => (window as unknown as { bridgeCalls: { name: string; params: Record<string, string> }[] }).bridgeCalls,
    )) as {
      name: string;
      params: Record<string, string>;
    }[];
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe("getBrandWCPayRequest");
    expect(calls[0]!.params).toMatchObject({ signType: "RSA", package: expect.stringMatching(/^prepay_id=/), paySign: expect.any(String) });
    // The sheet said "ok", which proves nothing: the page waits for the origin.
    await expect(page).toHaveURL(/\/wechat_pay/);
    await expectAccessible(page);
    await shot(page, "wechat-jsapi", phone, "zh-CN");
    await api("POST", "/api/payments/wechat/simulator/pay", { token: person.token, body: { orderId: order.id } });
    await expect(page).toHaveURL(/\/pay_success/, { timeout: 20_000 });
    await expect(page.getByRole("heading", { name: zh.paid })).toBeVisible();

    // A second order goes straight to the sheet: the openid is known now.
    const second = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_000 } });
    visited.length = 0;
    await open(page, `/wechat_pay?order=${second.id}`);
    await expect(page.getByRole("button", { name: zh.jsapiOpen })).toBeVisible();
    expect(visited.filter((url) => url.includes("/connect/oauth2/authorize"))).toEqual([]);
  });

  test("a return from WeChat whose sign-in is spent says so and offers to sign in again, without going round by itself", async ({
    page,
    problems,
  }) => {
    // The origin refuses the spent sign-in (422), which Chrome logs.
    problems.allow(/Failed to load resource: the server responded with a status of 422/);
    const person = await newPerson("inwxold", "Lu Fang");
    await contextFor(page.context(), person, language);
    const visited: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) visited.push(request.url());
    });
    const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_500 } });
    // The returned address reopened later (from history): its state was never given, or is used.
    await open(page, `/wechat_pay?order=${order.id}&code=SPENTCODE0123&state=${"0".repeat(64)}`);
    await expect(page.getByRole("alert").filter({ hasText: errorMessages[language].WECHAT_SIGN_IN_EXPIRED })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByRole("button", { name: text.signInAgain })).toBeVisible();
    // The code left the address bar.
    await expect(page).toHaveURL(new RegExp(`/wechat_pay\\?order=${order.id}$`));
    await expectAccessible(page);
    await shot(page, "wechat-sign-in-spent", phone, language);
    // It did not go round to WeChat by itself.
    expect(visited.filter((url) => url.includes("/connect/oauth2/authorize"))).toEqual([]);
    await page.getByRole("button", { name: text.signInAgain }).click();
    await expect(page.getByRole("button", { name: text.jsapiOpen })).toBeVisible({ timeout: 20_000 });

    // A return to an order cancelled meanwhile leaves the address bar too.
    const cancelled = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_000 } });
    await api("POST", `/api/orders/${cancelled.id}/cancel`, { token: person.token });
    await open(page, `/wechat_pay?order=${cancelled.id}&code=LATECODE0123&state=${"1".repeat(64)}`);
    await expect(page.getByRole("alert").filter({ hasText: text.notPayable })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/wechat_pay\\?order=${cancelled.id}$`));
  });

  test("a payment sheet that will not open (another WeChat account) leads to WeChat's sign-in again, and then opens", async ({ page }) => {
    const person = await newPerson("inwxswitch", "Qian Yu");
    await contextFor(page.context(), person, language);
    // The stand-in bridge refuses the first sheet, as WeChat does for another account's openid.
    await page.addInitScript(() => {
      const answers = JSON.parse(sessionStorage.getItem("bridge-answers") ?? '["get_brand_wcpay_request:fail"]') as string[];
      (window as unknown as { WeixinJSBridge: unknown }).WeixinJSBridge = {
        invoke: (_name: string, _params: unknown, callback: (result: { err_msg: string }) => void) => {
          callback({ err_msg: answers.shift() ?? "get_brand_wcpay_request:ok" });
          sessionStorage.setItem("bridge-answers", JSON.stringify(answers));
        },
      };
    });
    const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 1_200 } });
    await open(page, `/wechat_pay?order=${order.id}`);
    await page.getByRole("button", { name: text.jsapiOpen }).click({ timeout: 20_000 });
    await expect(page.getByRole("alert").filter({ hasText: text.sheetFailed })).toBeVisible();
    await expectAccessible(page);
    await shot(page, "wechat-sheet-failed", phone, language);
    await page.getByRole("button", { name: text.signInAgain }).click();
    await expect(page.getByRole("button", { name: text.jsapiOpen })).toBeVisible({ timeout: 20_000 });
    await page.getByRole("button", { name: text.jsapiOpen }).click();
    await expect(page.getByRole("alert").filter({ hasText: text.sheetFailed })).toHaveCount(0);
  });
});
