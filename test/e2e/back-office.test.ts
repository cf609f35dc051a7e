/**
 * What a person sees of the back office's actions (docs/decisions/013-account-locks.md,
 * 015-operator-refunds.md, 048-failed-wechat-refunds.md): an admin locks and unlocks them; a
 * finance operator refunds a wallet payment, and one above the threshold waits for a second
 * operator; a WeChat Pay refund that failed goes back to the wallet, one paid out as well is
 * settled (060), past the threshold with a second operator (072), and one parked for another
 * amount is settled as WeChat Pay says it ended (070-parked-refunds-settled.md).
 */
import type { Page } from "@playwright/test";
import type { Language } from "#app/i18n/languages";
import { chinaDayOf, formatDateTime, formatMoney, formatSignedMoney } from "#app/i18n/format";
import { errorMessages } from "./error-messages.ts";
import { walletMessages } from "#app/messages/wallet";
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { opsMessages } from "#app/messages/ops";
import { orderMessages } from "#app/messages/orders";
import { transferMessages } from "#app/messages/transfer";
import { wechatPaidOutMessages } from "#app/messages/wechat-paid-out";
import { seededOperators, seededUser } from "./e2e-env.ts";
import { expect, test } from "./fixtures.ts";
import {
  api,
  balances,
  downloadedText,
  contextFor,
  expectAccessible,
  fund,
  newPerson,
  open,
  openAs,
  type Person,
  shot,
  viewports,
} from "./journey-kit.ts";

const [admin, finance, support, secondAdmin] = seededOperators;
const headerBalance = (page: Page) => page.getByTestId("header-balance");
const idOf = async (person: Person) => (await api<{ id: string }>("POST", "/api/user/session", { token: person.token })).id;
const reason = { reason: "The person asked on ticket 42." };

/** A task budget of `slots` × `reward` fen paid from the person's wallet; its order's id. */
async function walletPaidTaskOrder(person: Person, reward: number, slots: number): Promise<string> {
  return (await walletPaidTask(person, reward, slots)).orderId;
}

async function walletPaidTask(person: Person, reward: number, slots: number): Promise<{ orderId: string; taskId: string }> {
  await fund(person, reward * slots);
  const { order, task } = await api<{ order: { id: string }; task: { id: string } }>("POST", "/api/tasks", {
    token: person.token,
    body: {
      title: "Photograph a shop front",
      description: "Take one clear photo of the shop's front.",
      reward,
      slots,
      deadline: new Date(Date.now() + 48 * 3600_000).toISOString(),
    },
  });
  await api("POST", `/api/orders/${order.id}/pay`, { token: person.token, body: { method: "wallet" } });
  return { orderId: order.id, taskId: task.id };
}

// Both sizes, one language each: together they cover both languages.
const runs = [
  { viewport: viewports[0], language: "zh-CN" },
  { viewport: viewports[1], language: "en" },
] as const satisfies { viewport: (typeof viewports)[number]; language: Language }[];

for (const { viewport, language } of runs) {
  test.describe(`back office actions at ${viewport.name} [${language}]`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const money = (fen: number) => formatMoney(fen, language);

    test("an admin locks a person: every page says so and no money moves; unlocked, it moves again", async ({ page, problems }) => {
      problems.allow(/status of 403/);
      const person = await newPerson("locked", "Guo Lin");
      await fund(person, 5_000);
      const id = await idOf(person);
      await api("POST", `/api/ops/people/${id}/lock`, { token: admin.token, body: reason });

      await contextFor(page.context(), person, language);
      await open(page, "/");
      const notice = page.getByTestId("locked-notice");
      await expect(notice.getByRole("heading", { name: layoutMessages[language].lockedTitle })).toBeVisible();
      await expect(notice.getByRole("link", { name: layoutMessages[language].lockedContact })).toHaveAttribute("href", "/support");
      await expectAccessible(page);
      await shot(page, "locked-home", viewport, language);

      const transfer = transferMessages[language];
      await open(page, "/transfer");
      await page.getByLabel(transfer.recipient, { exact: true }).fill(seededUser.handle);
      await page.getByLabel(transfer.amount, { exact: true }).fill("10");
      await page.getByRole("button", { name: transfer.review }).click();
      await page.getByRole("button", { name: transfer.send }).click();
      await expect(page.getByText(errorMessages[language].ACCOUNT_LOCKED)).toBeVisible();
      await shot(page, "locked-transfer", viewport, language);
      expect(await balances(person)).toEqual({ available: 5_000, held: 0 });

      await api("POST", `/api/ops/people/${id}/unlock`, { token: admin.token, body: reason });
      await open(page, "/");
      await expect(page.getByTestId("locked-notice")).toHaveCount(0);
      await expect(headerBalance(page)).toHaveText(money(5_000));
    });

    test("a finance operator refunds a wallet payment; above the threshold a second operator approves first", async ({ page }) => {
      const person = await newPerson("refunded", "Song Jia");
      // Three slots of ¥1,000.00: one slot is at the threshold, two are above it.
      const orderId = await walletPaidTaskOrder(person, 100_000, 3);
      const made = await api<{ status: string }>("POST", `/api/ops/orders/${orderId}/refunds`, {
        token: finance.token,
        body: { amount: 100_000, ...reason },
      });
      expect(made.status).toBe("approved");
      const waiting = await api<{ id: string; status: string }>("POST", `/api/ops/orders/${orderId}/refunds`, {
        token: finance.token,
        body: { amount: 200_000, ...reason },
      });
      expect(waiting.status).toBe("awaiting_approval");
      expect(await balances(person)).toEqual({ available: 100_000, held: 200_000 });

      await contextFor(page.context(), person, language);
      const orders = orderMessages[language];
      await open(page, `/order?id=${orderId}`);
      const refunds = page.getByTestId("order-refunds");
      await expect(refunds.getByRole("listitem")).toHaveCount(1);
      await expect(refunds).toContainText(money(100_000));
      await expect(refunds).toContainText(orders.refundStatus.succeeded);
      await expect(headerBalance(page)).toHaveText(money(100_000));

      // The asker cannot approve their own; the second operator does, and the money moves.
      await expect(api("POST", `/api/ops/refunds/${waiting.id}/approve`, { token: finance.token, body: {} })).rejects.toThrow(
        /SECOND_OPERATOR_REQUIRED/,
      );
      await api("POST", `/api/ops/refunds/${waiting.id}/approve`, { token: admin.token, body: {} });
      await page.reload();
      await expect(refunds.getByRole("listitem")).toHaveCount(2);
      await expect(refunds).toContainText(money(200_000));
      await expect(headerBalance(page)).toHaveText(money(300_000));
      await expectAccessible(page);
      await shot(page, "order-refunded", viewport, language);

      await open(page, "/");
      await expect(page.getByText(walletMessages[language].kind.refund).first()).toBeVisible();
      await shot(page, "home-refunded", viewport, language);
    });
  });
}

for (const { viewport, language } of runs) {
  test.describe(`WeChat Pay refunds from the console at ${viewport.name} [${language}]`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const ops = opsMessages[language];
    const money = (fen: number) => formatMoney(fen, language);

    test("a finance operator refunds a WeChat Pay payment through the simulator; asking WeChat Pay finds it done; the person sees it", async ({
      page,
      browser,
    }) => {
      const person = await newPerson("wx_refunded", "Lu Fang");
      const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 3_000 } });
      await api("POST", `/api/orders/${order.id}/pay`, { token: person.token, body: { method: "wechat", flow: "native" } });
      await api("POST", "/api/payments/wechat/simulator/pay", { token: person.token, body: { orderId: order.id } });
      // WeChat Pay's notification credits the wallet.
      await expect.poll(() => balances(person), { timeout: 15_000 }).toEqual({ available: 3_000, held: 0 });

      await contextFor(page.context(), finance, language);
      await open(page, `/ops/orders/${order.id}`);
      await expect(page.getByTestId("ops-refundable")).toContainText(money(3_000));
      await page.getByLabel(ops.refundAmount).fill("12");
      await page.getByLabel(ops.refundReason).fill("Charged twice for one thing.");
      await page.getByRole("button", { name: ops.refund, exact: true }).click();
      await expect(page.getByTestId("ops-refund-made")).toHaveText(ops.refundMade);
      expect(await balances(person)).toEqual({ available: 1_800, held: 0 });
      await expect(page.getByTestId("ops-refundable")).toContainText(money(1_800));

      // The simulator finishes the refund a few seconds later; asking WeChat Pay sees it
      // (its notification may have told the origin already: then it is simply succeeded).
      await page.waitForTimeout(3_500);
      await page.getByRole("button", { name: ops.askWechatPay }).click();
      const asked = page.getByTestId("ops-asked");
      await expect(asked).toContainText(ops.askOutcome.answered ?? "");
      await expect(page.getByTestId("ops-order-refunds")).toContainText(
        new RegExp(`RO[0-9a-f]{32} · ${ops.atWechatPay(ops.wechatRefundState.succeeded)}`),
      );
      await expectAccessible(page);
      await shot(page, "ops-order-wechat-refund", viewport, language);

      // The person sees the refund on the order page and the balance.
      const personPage = await openAs(browser, person, language, viewport, `/order?id=${order.id}`);
      const refunds = personPage.getByTestId("order-refunds");
      await expect(refunds.getByRole("listitem")).toHaveCount(1);
      await expect(refunds).toContainText(money(1_200));
      await expect(refunds).toContainText(orderMessages[language].refundStatus.succeeded);
      await expect(headerBalance(personPage)).toHaveText(money(1_800));
      await personPage.context().close();
    });

    test("a WeChat Pay refund that fails (the payer's card was cancelled) is returned to the wallet from the console; the person sees it; paid out later as well, it is settled", async ({
      page,
      browser,
    }) => {
      const person = await newPerson("wx_returned", "Qian Li");
      const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 2_000 } });
      await api("POST", `/api/orders/${order.id}/pay`, { token: person.token, body: { method: "wechat", flow: "native" } });
      await api("POST", "/api/payments/wechat/simulator/pay", {
        token: person.token,
        body: { orderId: order.id, refundOutcome: "ABNORMAL" },
      });
      await expect.poll(() => balances(person), { timeout: 15_000 }).toEqual({ available: 2_000, held: 0 });
      await api("POST", `/api/ops/orders/${order.id}/refunds`, { token: finance.token, body: { amount: 2_000, ...reason } });
      expect(await balances(person)).toEqual({ available: 0, held: 0 });
      // The simulator ends the refund ABNORMAL a few seconds later and says so.
      await expect
        .poll(
          async () =>
            (await api<{ orderId: string; status: string }[]>("GET", "/api/ops/wechat-refunds", { token: finance.token })).find(
              (refund) => refund.orderId === order.id,
            )?.status,
          { timeout: 20_000 },
        )
        .toBe("abnormal");

      await contextFor(page.context(), finance, language);
      await open(page, "/ops/refunds");
      const listed = page.getByTestId("ops-refunds-needing-a-hand").getByRole("listitem").filter({ hasText: person.handle });
      await expect(listed).toContainText(ops.wechatRefundState.abnormal);
      await expectAccessible(page);
      await shot(page, "ops-refunds-needing-a-hand", viewport, language);
      await listed.getByRole("link", { name: ops.openOrder }).click();
      await expect(page).toHaveURL(new RegExp(`/ops/orders/${order.id}$`));
      const refunds = page.getByTestId("ops-order-wechat-refunds");
      await expect(refunds).toContainText(ops.wechatRefundState.abnormal);
      await page.getByLabel(ops.returnReason).fill("Her card was cancelled; she asked for the wallet on ticket 9.");
      await page.getByRole("button", { name: ops.returnToWallet }).click();
      await expect(refunds).toContainText(ops.returnedTo(person.displayName));
      await expect(page.getByTestId("ops-order-refunds")).toContainText(ops.atWechatPay(ops.returnedTo(person.displayName)));
      await expect(page.getByRole("button", { name: ops.returnToWallet })).toHaveCount(0);
      expect(await balances(person)).toEqual({ available: 2_000, held: 0 });
      // The cron asks WeChat Pay about it again, from an hour after the return (decision 071).
      const [asked] = (
        await api<{ refunds: { returned: { nextAskAt: string | null } | null }[] }>("GET", `/api/ops/orders/${order.id}`, {
          token: finance.token,
        })
      ).refunds;
      await expect(page.getByTestId("ops-refund-next-ask")).toHaveText(
        ops.nextAsk(formatDateTime(asked?.returned?.nextAskAt ?? "not asked", language)),
      );
      await expectAccessible(page);
      await shot(page, "ops-order-refund-returned", viewport, language);

      // The person reads that WeChat Pay could not refund it and the money is in the wallet.
      const personPage = await openAs(browser, person, language, viewport, `/order?id=${order.id}`);
      await expect(personPage.getByTestId("order-refunds")).toContainText(orderMessages[language].refundStatus.returned);
      await expect(headerBalance(personPage)).toHaveText(money(2_000));
      await personPage.context().close();

      // Someone at WeChat Pay's merchant platform pays the abnormal refund out to her new card as
      // well (the simulator's stand-in); WeChat Pay notifies it, and she has the money twice.
      const [returned] = (await api<{ refunds: { outRefundNo: string }[] }>("GET", `/api/ops/orders/${order.id}`, { token: finance.token }))
        .refunds;
      expect(returned).toBeDefined();
      await api("POST", `/api/payments/wechat/simulator/merchant-platform/refunds/${returned?.outRefundNo}/pay-out`, {
        token: finance.token,
        body: {},
      });
      await expect
        .poll(
          async () =>
            (
              await api<{ orderId: string; returned: { lateSuccessAt: string | null } | null }[]>("GET", "/api/ops/wechat-refunds", {
                token: finance.token,
              })
            ).find((refund) => refund.orderId === order.id)?.returned?.lateSuccessAt ?? null,
          { timeout: 20_000 },
        )
        .not.toBeNull();
      await page.reload();
      await expect(refunds).toContainText(ops.lateSuccessTo("招商银行借记卡0403"));
      const settle = page.getByRole("form", { name: new RegExp(ops.settlePaidTwice) });
      await settle.getByRole("button", { name: ops.settlePaidTwice }).click();
      await expect(settle.locator(".field-error").first()).toHaveText(ops.chooseHow);
      // Where WeChat Pay says the money went, for the operator to judge by.
      await expect(refunds).toContainText(ops.lateSuccessTo("招商银行借记卡0403"));
      await expectAccessible(page);
      await shot(page, "ops-order-paid-twice", viewport, language);
      await settle.getByLabel(ops.settleHow).selectOption("take_back");
      await settle.getByLabel(ops.settleReason).fill("Her bank paid her too; she agreed on ticket 9 that we take it back.");
      await settle.getByRole("button", { name: ops.settlePaidTwice }).click();
      await expect(page.getByTestId("ops-paid-twice-settled")).toContainText(ops.settledTakeBack(finance.displayName));
      await expect(refunds).not.toContainText(ops.lateSuccessTo("招商银行借记卡0403"));
      await expect(page.getByRole("button", { name: ops.settlePaidTwice })).toHaveCount(0);
      expect(await balances(person)).toEqual({ available: 0, held: 0 });
      await expectAccessible(page);
      await shot(page, "ops-order-paid-twice-settled", viewport, language);
      await open(page, "/ops/refunds");
      await expect(page.getByTestId("ops-refunds-needing-a-hand").getByRole("listitem").filter({ hasText: person.handle })).toHaveCount(0);
    });

    test("a large double payment Paydesk is to bear waits for a second operator, who approves it on the order's page", async ({
      page,
      browser,
    }) => {
      // ¥1,500.00: past the refunds' threshold, so the refund itself waits for a second operator too.
      const person = await newPerson("wx_borne", "Zhou Min");
      const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 150_000 } });
      await api("POST", `/api/orders/${order.id}/pay`, { token: person.token, body: { method: "wechat", flow: "native" } });
      await api("POST", "/api/payments/wechat/simulator/pay", {
        token: person.token,
        body: { orderId: order.id, refundOutcome: "ABNORMAL" },
      });
      await expect.poll(() => balances(person), { timeout: 15_000 }).toEqual({ available: 150_000, held: 0 });
      const refund = await api<{ id: string }>("POST", `/api/ops/orders/${order.id}/refunds`, {
        token: finance.token,
        body: { amount: 150_000, ...reason },
      });
      await api("POST", `/api/ops/refunds/${refund.id}/approve`, { token: admin.token, body: {} });
      const wechatRefund = () =>
        api<{ orderId: string; outRefundNo: string; status: string; returned: { lateSuccessAt: string | null } | null }[]>(
          "GET",
          "/api/ops/wechat-refunds",
          { token: finance.token },
        ).then((listed) => listed.find((item) => item.orderId === order.id));
      await expect.poll(async () => (await wechatRefund())?.status, { timeout: 20_000 }).toBe("abnormal");
      const outRefundNo = (await wechatRefund())?.outRefundNo;
      await api("POST", `/api/ops/wechat-refunds/${outRefundNo}/return-to-wallet`, { token: finance.token, body: reason });
      await api("POST", `/api/payments/wechat/simulator/merchant-platform/refunds/${outRefundNo}/pay-out`, {
        token: finance.token,
        body: {},
      });
      await expect.poll(async () => (await wechatRefund())?.returned?.lateSuccessAt ?? null, { timeout: 20_000 }).not.toBeNull();

      // Finance chooses to bear it: past the threshold, that is asked, not done.
      await contextFor(page.context(), finance, language);
      await open(page, `/ops/orders/${order.id}`);
      const settle = page.getByRole("form", { name: new RegExp(ops.settlePaidTwice) });
      await expect(settle).toContainText(ops.settleThreshold(money(100_000)));
      await settle.getByLabel(ops.settleHow).selectOption("bear");
      await settle.getByLabel(ops.settleReason).fill("She has spent it; not worth chasing, ticket 31.");
      await settle.getByRole("button", { name: ops.settlePaidTwice }).click();
      await expect(page.getByTestId("ops-settle-done")).toHaveText(ops.settlementWaitsNow);
      await expect(page.getByTestId("ops-settlement-waiting")).toContainText(
        ops.settlementWaiting(ops.settlementHow.bear, finance.displayName),
      );
      await expect(page.getByText(ops.settlementAskedByYou)).toBeVisible();
      await expect(page.getByRole("button", { name: ops.approve })).toHaveCount(0);
      expect(await balances(person)).toEqual({ available: 150_000, held: 0 });
      await expectAccessible(page);
      await shot(page, "ops-order-settlement-waiting", viewport, language);
      // Whoever asked may take it back before anyone decides; the form opens again.
      await page.getByRole("button", { name: ops.withdrawSettlement }).click();
      // Inside the refund's line: the page's live region says the same words for a while.
      await expect(page.getByTestId("ops-wechat-refund").getByText(ops.settlementWithdrawnNow)).toBeVisible();
      await expect(page.getByTestId("ops-settlement-withdrawn")).toContainText(ops.settlementWithdrawn(finance.displayName));
      await settle.getByLabel(ops.settleHow).selectOption("bear");
      await settle.getByLabel(ops.settleReason).fill("She has spent it; not worth chasing, ticket 31.");
      await settle.getByRole("button", { name: ops.settlePaidTwice }).click();
      await expect(page.getByTestId("ops-settlement-waiting")).toBeVisible();

      // A second operator sees it waiting for them, and approves it: Paydesk bears the payout.
      const second = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(second, admin, language);
      const checker = await second.newPage();
      await open(checker, "/ops/refunds");
      await expect(checker.getByRole("link", { name: new RegExp(ops.nav.refunds) }).getByTestId("ops-nav-count")).toBeVisible();
      await open(checker, `/ops/orders/${order.id}`);
      await checker.getByRole("button", { name: ops.approve }).click();
      await expect(checker.getByTestId("ops-wechat-refund").getByText(ops.settlementApproved)).toBeVisible();
      await expect(checker.getByTestId("ops-paid-twice-settled")).toContainText(ops.settledBear(finance.displayName));
      await expect(checker.getByTestId("ops-paid-twice-settled")).toContainText(ops.settlementApprovedBy(admin.displayName));
      await expectAccessible(checker);
      await shot(checker, "ops-order-settlement-approved", viewport, language);
      await second.close();
      expect(await balances(person)).toEqual({ available: 150_000, held: 0 });
    });

    test("a WeChat Pay refund paid out for less than asked is parked, then settled from the console as WeChat Pay says; the rest is in the wallet", async ({
      page,
      browser,
    }) => {
      const person = await newPerson("wx_parked", "Sun Mei");
      const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 2_000 } });
      await api("POST", `/api/orders/${order.id}/pay`, { token: person.token, body: { method: "wechat", flow: "native" } });
      // The simulator's anomaly (docs/decisions/070-parked-refunds-settled.md): this payer's
      // refunds end paid out for 15.00, whatever was asked.
      await api("POST", "/api/payments/wechat/simulator/pay", { token: person.token, body: { orderId: order.id, refundAmount: 1_500 } });
      await expect.poll(() => balances(person), { timeout: 15_000 }).toEqual({ available: 2_000, held: 0 });
      await api("POST", `/api/ops/orders/${order.id}/refunds`, { token: finance.token, body: { amount: 2_000, ...reason } });
      expect(await balances(person)).toEqual({ available: 0, held: 0 });
      // The simulator ends the refund a few seconds later; its notification, for another amount,
      // is refused. Asked about (the cron asks every minute; here the operator's "ask now"), the
      // refund is parked.
      await expect
        .poll(
          async () =>
            (
              await api<{ notifications: { eventType: string; outcome: string }[] }>("GET", `/api/ops/orders/${order.id}`, {
                token: finance.token,
              })
            ).notifications.find((notification) => notification.eventType === "REFUND.SUCCESS")?.outcome,
          { timeout: 20_000 },
        )
        .toBe("amount_mismatch");
      await api("POST", `/api/ops/orders/${order.id}/ask-wechat-pay`, { token: finance.token, body: {} });
      const [parked] = (await api<{ refunds: { parked: boolean }[] }>("GET", `/api/ops/orders/${order.id}`, { token: finance.token }))
        .refunds;
      expect(parked?.parked).toBe(true);

      await contextFor(page.context(), finance, language);
      await open(page, `/ops/orders/${order.id}`);
      const refunds = page.getByTestId("ops-order-wechat-refunds");
      await expect(refunds).toContainText(ops.parked);
      const settle = page.getByRole("form", { name: new RegExp(ops.settleParked) });
      await expect(settle).toContainText(ops.settleParkedHint(person.displayName));
      await expectAccessible(page);
      await shot(page, "ops-order-refund-parked", viewport, language);
      await settle.getByLabel(ops.settleParkedReason).fill("The merchant platform shows 15.00 refunded to her card.");
      await settle.getByRole("button", { name: ops.settleParked }).click();
      const settled = page.getByTestId("ops-other-amount-settled");
      await expect(settled).toContainText(ops.otherAmountSettled(money(1_500), finance.displayName));
      await expect(settled).toContainText(ops.otherAmountRest(money(500)));
      await expect(refunds).not.toContainText(ops.parked);
      await expect(page.getByRole("button", { name: ops.settleParked })).toHaveCount(0);
      expect(await balances(person)).toEqual({ available: 500, held: 0 });
      await expectAccessible(page);
      await shot(page, "ops-order-refund-parked-settled", viewport, language);

      // The person: the refund reached them (15.00 through WeChat Pay, 5.00 in the wallet).
      const personPage = await openAs(browser, person, language, viewport, `/order?id=${order.id}`);
      const personRefunds = personPage.getByTestId("order-refunds");
      await expect(personRefunds).toContainText(orderMessages[language].refundStatus.succeeded);
      const split = wechatPaidOutMessages[language].less(money(1_500), money(500));
      await expect(personRefunds).toContainText(split);
      await expect(headerBalance(personPage)).toHaveText(money(500));
      await expectAccessible(personPage);
      await shot(personPage, "order-refund-paid-out-otherwise", viewport, language);
      await personRefunds
        .getByRole("link", { name: orderMessages[language].refundReceipt(orderMessages[language].refundTo.wechat) })
        .click();
      await expect(personPage.getByTestId("receipt")).toContainText(wechatPaidOutMessages[language].label);
      await expect(personPage.getByTestId("receipt")).toContainText(split);
      await shot(personPage, "receipt-refund-paid-out-otherwise", viewport, language);
      await personPage.context().close();
      await open(page, "/ops/refunds");
      await expect(page.getByTestId("ops-refunds-needing-a-hand").getByRole("listitem").filter({ hasText: person.handle })).toHaveCount(0);
    });
  });
}

for (const { viewport, language } of runs) {
  test.describe(`the back office console at ${viewport.name} [${language}]`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const money = (fen: number) => formatMoney(fen, language);
    const ops = opsMessages[language];

    test("a signed-in person without a role meets the ordinary 404 page at /ops", async ({ page, problems }) => {
      problems.allow(/status of 404/);
      const person = await newPerson("no_role", "Wu Fang");
      await contextFor(page.context(), person, language);
      for (const path of ["/ops", "/ops/people", "/ops/refunds"]) {
        await open(page, path);
        await expect(page.getByRole("heading", { level: 1, name: layoutMessages[language].notFoundTitle })).toBeVisible();
        await expect(page.getByRole("navigation", { name: ops.navigation })).toHaveCount(0);
      }
      await expectAccessible(page);
      await shot(page, "ops-not-an-operator", viewport, language);
    });

    test("the overview says so when the origin enforces other money limits than the pages state", async ({ page }) => {
      // An origin deployed with its own MONEY_LIMITS while this edge states the defaults.
      const tighter = {
        recharge: { min: 100, max: 500_000 },
        transfer: { min: 1, max: 2_000, perDay: 5_000 },
        taskReward: { min: 10, max: 100_000 },
      };
      await page.route("**/api/limits", (route) => route.fulfill({ json: { code: "SUCCESS", data: tighter } }));
      await contextFor(page.context(), admin, language);
      await open(page, "/ops");
      await expect(page.getByTestId("ops-limits")).toContainText(`${money(1)} – ${money(2_000)}`);
      await expect(page.getByTestId("ops-limits-differ")).toHaveText(ops.limitsDiffer);
      await expectAccessible(page);
    });

    test("the overview says so when the origin applies other time limits than the pages state, or gives no locks", async ({
      page,
      problems,
    }) => {
      problems.allow(/status of 500/);
      // An origin deployed with its own TIME_LIMITS while this edge states the product's, and
      // one whose LOCKS it cannot read.
      // The product's times but for a session's idle days: a difference in those alone is told too.
      const shorter = { order: { payMinutes: 30 }, claim: { submitHours: 24, autoApproveHours: 72 }, session: { idleDays: 7 } };
      await page.route("**/api/time-limits", (route) => route.fulfill({ json: { code: "SUCCESS", data: shorter } }));
      const fewer = { slots: { max: 50 }, deadline: { minHours: 24, maxDays: 7 } };
      await page.route("**/api/task-limits", (route) => route.fulfill({ json: { code: "SUCCESS", data: fewer } }));
      const shorterTexts = {
        task: { title: 80, description: 2_000 },
        proof: { text: 2_000 },
        transfer: { note: 60 },
        support: { message: 4_000 },
      };
      await page.route("**/api/text-limits", (route) => route.fulfill({ json: { code: "SUCCESS", data: shorterTexts } }));
      await page.route("**/api/locks", (route) =>
        route.fulfill({ status: 500, json: { code: "INTERNAL_ERROR", message: "Something went wrong on our side." } }),
      );
      await contextFor(page.context(), admin, language);
      await open(page, "/ops");
      await expect(page.getByTestId("ops-times")).toContainText(language === "en" ? "7 days" : "7 天");
      await expect(page.getByTestId("ops-times-differ")).toHaveText(ops.timesDiffer);
      await expect(page.getByTestId("ops-tasks")).toContainText(ops.tasks.slotsRange("50"));
      await expect(page.getByTestId("ops-tasks-differ")).toHaveText(ops.tasksDiffer);
      await expect(page.getByTestId("ops-texts")).toContainText(ops.texts.characters("60"));
      await expect(page.getByTestId("ops-texts-differ")).toHaveText(ops.textsDiffer);
      await expect(page.getByTestId("ops-locks-unreadable")).toHaveText(ops.locksUnreadable);
      await expect(page.getByTestId("ops-limits")).toBeVisible();
      await expectAccessible(page);
    });

    test("the overview stands, and says no money moves, when the origin cannot read its money limits", async ({ page, problems }) => {
      problems.allow(/status of 500/);
      await page.route("**/api/limits", (route) =>
        route.fulfill({ status: 500, json: { code: "INTERNAL_ERROR", message: "Something went wrong on our side." } }),
      );
      await contextFor(page.context(), admin, language);
      await open(page, "/ops");
      await expect(page.getByTestId("ops-limits-unreadable")).toHaveText(ops.limitsUnreadable);
      await expect(page.getByTestId("ops-ledger")).toHaveText(ops.ledgerWhole);
      await expectAccessible(page);
    });

    test("an admin finds a person, locks and unlocks them from the console", async ({ page }) => {
      const person = await newPerson("console_lock", "Lin Xia");
      await fund(person, 2_500);
      await api("POST", "/api/support/tickets", {
        token: person.token,
        body: { category: "account", subject: "My phone was stolen", message: "Please stop my account." },
      });
      const { orderId: taskOrder, taskId } = await walletPaidTask(person, 300, 2);
      // A reward paid from the task's escrow: a line that moves only held money.
      const worker = await newPerson("console_worker", "Wu Fan");
      const claim = await api<{ id: string }>("POST", `/api/tasks/${taskId}/claims`, { token: worker.token });
      await api("POST", `/api/claims/${claim.id}/submit`, { token: worker.token, body: { text: "Photo sent." } });
      await api("POST", `/api/claims/${claim.id}/approve`, { token: person.token });
      await contextFor(page.context(), admin, language);
      await open(page, "/ops");
      await expect(page.getByRole("heading", { level: 1, name: ops.overviewTitle })).toBeVisible();
      await expect(page.locator(".skip-link")).toHaveText(layoutMessages[language].skipToContent);
      await expect(page.getByTestId("ops-ledger")).toHaveText(ops.ledgerWhole);
      await expect(page.getByTestId("ops-volume-chart")).toBeVisible();
      // Today's money stands over today, the last of the window's 31 places (20 units each in a
      // 620-wide picture), under the window's last date.
      const lastBar = page.getByTestId("ops-volume-chart").locator("rect").last();
      await expect(lastBar).toHaveAttribute("x", "602");
      const lastDay = await lastBar.getAttribute("data-day");
      expect([chinaDayOf(Date.now()), chinaDayOf(Date.now() - 60_000)]).toContain(lastDay);
      await expect(page.locator(".ops-chart-ends span").last()).toHaveText(lastDay?.slice(5) ?? "");
      // The limits the origin enforces, which are the ones the pages state (decision 053).
      await expect(page.getByTestId("ops-limits")).toContainText(`${money(1)} – ${money(5_000_000)}`);
      await expect(page.getByTestId("ops-limits")).toContainText(money(10_000_000));
      await expect(page.getByText(ops.limitsAgree)).toBeVisible();
      // The locks and time limits the origin applies: here the product's (decisions 054, 055).
      const minutes = (count: number) => (language === "en" ? `${count} minutes` : `${count} 分钟`);
      await expect(page.getByTestId("ops-locks")).toContainText(ops.lockRule(10, minutes(15), minutes(15)));
      await expect(page.getByTestId("ops-locks")).toContainText(ops.lockRule(5, minutes(10), minutes(10)));
      await expect(page.getByTestId("ops-times")).toContainText(minutes(30));
      await expect(page.getByTestId("ops-times")).toContainText(language === "en" ? "30 days" : "30 天");
      await expect(page.getByTestId("ops-tasks")).toContainText(ops.tasks.slotsRange("1,000"));
      await expect(page.getByTestId("ops-tasks")).toContainText(
        ops.tasks.deadlineRange(language === "en" ? "1 hour" : "1 小时", language === "en" ? "30 days" : "30 天"),
      );
      await expect(page.getByText(ops.tasksAgree)).toBeVisible();
      await expect(page.getByTestId("ops-texts")).toContainText(ops.texts.characters("140"));
      await expect(page.getByText(ops.textsAgree)).toBeVisible();
      await expect(page.getByText(ops.timesAgree)).toBeVisible();
      await expectAccessible(page);
      await shot(page, "ops-overview", viewport, language);
      await open(page, `/ops/people?q=${person.handle}`);
      await expect(page.getByTestId("ops-operator")).toContainText(admin.displayName);
      await expectAccessible(page);
      await shot(page, "ops-people", viewport, language);
      await page.getByRole("link", { name: `Lin Xia (@${person.handle})` }).click();
      await expect(page.getByRole("heading", { level: 1, name: `Lin Xia (@${person.handle})` })).toBeVisible();
      await expect(page.getByTestId("ops-person-facts")).toContainText(money(2_500));
      await expect(page.getByTestId("ops-person-tickets")).toContainText("My phone was stolen");
      await expect(page.getByTestId("ops-tasks-posted")).toContainText("Photograph a shop front");
      await expect(page.getByTestId("ops-tasks-posted").getByRole("link", { name: taskOrder })).toBeVisible();
      // The person's orders are named as the person's own pages name them: by kind, in Chinese.
      const orderTitle =
        language === "en" ? "Budget for the task “Photograph a shop front”: 2 × ¥3.00" : orderMessages[language].kind.task_budget;
      await expect(page.getByRole("link", { name: orderTitle, exact: true })).toHaveAttribute("href", `/ops/orders/${taskOrder}`);
      // The reward paid from the task's escrow moved held money only: shown as such, not as +¥0.00.
      const rewardPaid = page.getByRole("listitem").filter({ hasText: walletMessages[language].kind.task_reward_paid });
      await expect(rewardPaid).toContainText(`${formatSignedMoney(-300, language)} ${walletMessages[language].heldChange}`);
      await expect(page.getByRole("main")).not.toContainText(formatSignedMoney(0, language));

      await page.getByLabel(ops.reason).fill("The person reported a stolen phone.");
      await page.getByRole("button", { name: ops.lock }).click();
      const accountForm = page.getByRole("form", { name: ops.account });
      await expect(accountForm.getByRole("status")).toHaveText(ops.done.lock);
      await expect(page.getByTestId("ops-lock-state")).toContainText(ops.locked);
      await expectAccessible(page);
      await shot(page, "ops-person-locked", viewport, language);
      expect((await api<{ locked?: boolean }>("POST", "/api/user/session", { token: person.token })).locked).toBe(true);

      await page.getByLabel(ops.reason).fill("The phone was found.");
      await page.getByRole("button", { name: ops.unlock }).click();
      await expect(accountForm.getByRole("status")).toHaveText(ops.done.unlock);
      await expect(page.getByTestId("ops-lock-state")).toHaveText(ops.notLocked);
      expect((await api<{ locked?: boolean }>("POST", "/api/user/session", { token: person.token })).locked).toBeUndefined();
    });

    test("a finance operator refunds from the console; above the threshold a second operator approves it there", async ({
      page,
      browser,
    }) => {
      const person = await newPerson("console_refund", "He Jun");
      const orderId = await walletPaidTaskOrder(person, 100_000, 3);
      await contextFor(page.context(), finance, language);
      await open(page, `/ops/orders/${orderId}`);
      await expect(page.getByTestId("ops-refundable")).toContainText(money(300_000));
      // The kind in the reader's words; the origin's own (English) description on a line of its own.
      const facts = page.locator(".ops-facts").first();
      await expect(facts.locator("dt", { hasText: orderMessages[language].kindLabel }).locator("+ dd")).toHaveText(
        orderMessages[language].kind.task_budget,
      );
      await expect(facts.locator("dt", { hasText: ops.payerDescription }).locator("+ dd")).toHaveText(
        "Budget for the task “Photograph a shop front”: 3 × ¥1000.00",
      );
      await page.getByLabel(ops.refundAmount).fill("1000");
      await page.getByLabel(ops.refundReason).fill("One slot was never needed.");
      await page.getByRole("button", { name: ops.refund, exact: true }).click();
      await expect(page.getByTestId("ops-refund-made")).toHaveText(ops.refundMade);
      await page.getByLabel(ops.refundAmount).fill("2000");
      await page.getByLabel(ops.refundReason).fill("The rest of the task is cancelled.");
      await page.getByRole("button", { name: ops.refund, exact: true }).click();
      await expect(page.getByTestId("ops-refund-made")).toHaveText(ops.refundWaiting);
      await expect(page.getByTestId("ops-order-refunds").getByRole("listitem")).toHaveCount(2);
      await expectAccessible(page);
      await shot(page, "ops-order", viewport, language);
      expect(await balances(person)).toEqual({ available: 100_000, held: 200_000 });

      // Whoever asked reads that another operator decides, and has nothing to click (decision 065).
      await open(page, "/ops/refunds");
      const asked = page.getByTestId("ops-approvals").getByRole("listitem").filter({ hasText: "The rest of the task is cancelled." });
      await expect(asked).toContainText(ops.refundAskedByYou);
      await expect(asked.getByRole("button")).toHaveCount(0);
      await expectAccessible(page);
      await shot(page, "ops-refunds-asked", viewport, language);
      // The operator's own order, paid and refundable: no refund form, and a note that says who refunds it.
      const own = await api<{ id: string }>("POST", "/api/orders/recharge", { token: finance.token, body: { amount: 1_000 } });
      await api("POST", `/api/orders/${own.id}/pay`, { token: finance.token, body: { method: "wechat", flow: "native" } });
      await api("POST", "/api/payments/wechat/simulator/pay", { token: finance.token, body: { orderId: own.id } });
      // WeChat Pay's notification marks it paid.
      await expect
        .poll(async () => (await api<{ status: string }>("GET", `/api/orders/${own.id}`, { token: finance.token })).status, {
          timeout: 15_000,
        })
        .toBe("paid");
      await open(page, `/ops/orders/${own.id}`);
      await expect(page.getByTestId("ops-refundable")).toContainText(money(1_000));
      await expect(page.getByTestId("ops-own-order")).toHaveText(ops.ownOrder);
      await expect(page.getByLabel(ops.refundAmount)).toHaveCount(0);
      await expectAccessible(page);

      // The second operator approves it on the refunds page.
      const second = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(second, admin, language);
      const checker = await second.newPage();
      await open(checker, "/ops/refunds");
      // The navigation says that refunds wait for this admin's decision (decision 066); other
      // tests running meanwhile may add theirs, so only that some do is certain.
      await expect(checker.getByRole("link", { name: new RegExp(`^${ops.nav.refunds} \\d+ `) })).toContainText(/\d/);
      const waiting = checker.getByTestId("ops-approvals").getByRole("listitem").filter({ hasText: "The rest of the task is cancelled." });
      await expect(waiting).toHaveCount(1);
      // How the money is paid back, in the reader's words.
      await expect(waiting).toContainText(orderMessages[language].method.wallet);
      await expectAccessible(checker);
      await shot(checker, "ops-refunds", viewport, language);
      await waiting.getByRole("button", { name: ops.approve }).click();
      // Approved, it leaves the queue (the page reads the queue again).
      await expect(waiting).toHaveCount(0);
      expect(await balances(person)).toEqual({ available: 300_000, held: 0 });
      await second.close();
    });
  });
}

for (const { viewport, language } of runs) {
  test.describe(`the back office desks at ${viewport.name} [${language}]`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const ops = opsMessages[language];

    test("a support agent takes a ticket, answers it and hands it to a colleague; the person sees the reply", async ({
      page,
      browser,
      problems,
    }) => {
      const person = await newPerson("asks_help", "Qian Yu");
      const subject = `Where is my refund ${Date.now().toString(36)}`;
      const ticket = await api<{ id: string }>("POST", "/api/support/tickets", {
        token: person.token,
        body: { category: "payment", subject, message: "I was promised a refund." },
      });
      await contextFor(page.context(), support, language);
      await open(page, "/ops/tickets");
      await expect(page.getByTestId("ops-tickets").getByRole("link", { name: subject })).toBeVisible();
      await expectAccessible(page);
      await shot(page, "ops-tickets", viewport, language);
      await page.getByTestId("ops-tickets").getByRole("link", { name: subject }).click();
      await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
      await page.getByRole("button", { name: ops.assignToMe }).click();
      await expect(page.getByText(ops.assignedTo(support.displayName))).toBeVisible();
      await page.getByLabel(ops.replyLabel).fill("Your refund is on its way: two working days.");
      await page.getByRole("button", { name: ops.reply, exact: true }).click();
      await expect(page.getByTestId("ops-thread").getByRole("listitem")).toHaveCount(2);
      await expect(page.getByText(ops.ticketStatus.answered)).toBeVisible();
      await expectAccessible(page);
      await shot(page, "ops-ticket", viewport, language);
      // Handed to a colleague by handle, as people write one; a handle that is no operator is refused, named.
      problems.allow(/status of 422/);
      await page.getByLabel(ops.assignToHandle).fill(person.handle);
      await page.getByRole("button", { name: ops.assignToOther, exact: true }).click();
      await expect(page.locator("#ops-assign-to-error")).toHaveText(errorMessages[language].NOT_AN_OPERATOR);
      await page.getByLabel(ops.assignToHandle).fill(`@${finance.handle.toUpperCase()}`);
      await page.getByRole("button", { name: ops.assignToOther, exact: true }).click();
      await expect(page.getByText(ops.assignedTo(finance.displayName))).toBeVisible();

      const own = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(own, person, language);
      const personPage = await own.newPage();
      await open(personPage, `/support?id=${ticket.id}`);
      await expect(personPage.getByText("Your refund is on its way: two working days.")).toBeVisible();
      await own.close();
    });

    test("a finance operator issues a batch, downloads its codes once, and voids what was not redeemed", async ({ page }) => {
      const note = `Spring fair ${Date.now().toString(36)}`;
      await contextFor(page.context(), finance, language);
      await open(page, "/ops/codes");
      await page.getByLabel(ops.codeValue).fill("20");
      await page.getByLabel(ops.codeCount).fill("2");
      await page.getByLabel(ops.codeExpiry).fill(new Date(Date.now() + 14 * 24 * 3600_000).toISOString().slice(0, 10));
      await page.getByLabel(ops.codeNote).fill(note);
      await page.getByRole("button", { name: ops.issue, exact: true }).click();
      const issued = page.getByTestId("ops-issued-codes");
      await expect(issued.getByRole("listitem")).toHaveCount(2);
      const codes = await issued.getByRole("listitem").allTextContents();
      const downloading = page.waitForEvent("download");
      await issued.getByRole("button", { name: ops.downloadCsv }).click();
      const csv = await downloadedText(await downloading);
      expect(csv.split("\r\n").filter(Boolean)).toEqual([
        "code,value,expires_at",
        ...codes.map((code) => expect.stringContaining(`${code},2000,`)),
      ]);
      await expectAccessible(page);
      await shot(page, "ops-codes-issued", viewport, language);

      // One is redeemed; the void takes the other out of use.
      const person = await newPerson("redeems", "Sun Li");
      await api("POST", "/api/codes/redeem", { token: person.token, body: { code: codes[0] } });
      await page.reload();
      const batch = page.getByTestId("ops-batches").getByRole("listitem").filter({ hasText: note });
      await batch.getByLabel(ops.voidReason).fill("The fair was cancelled.");
      await batch.getByRole("button", { name: ops.voidBatch }).click();
      await expect(batch).toContainText(ops.batchLine(1, 0, 1, 0));
      await expect(api("POST", "/api/codes/redeem", { token: person.token, body: { code: codes[1] } })).rejects.toThrow(/CODE_VOIDED/);
      await shot(page, "ops-codes", viewport, language);
    });

    test("a batch past what one operator may issue alone waits; a second operator approves it; whoever asked issues it", async ({
      page,
      browser,
    }) => {
      const note = `Partner launch ${Date.now().toString(36)}`;
      await contextFor(page.context(), finance, language);
      await open(page, "/ops/codes");
      // ¥2,000.00 in one batch: past the ¥1,000.00 one operator may issue alone in 24 hours.
      await page.getByLabel(ops.codeValue).fill("1000");
      await page.getByLabel(ops.codeCount).fill("2");
      await page.getByLabel(ops.codeExpiry).fill(new Date(Date.now() + 14 * 24 * 3600_000).toISOString().slice(0, 10));
      await page.getByLabel(ops.codeNote).fill(note);
      await page.getByRole("button", { name: ops.issue, exact: true }).click();
      await expect(page.getByTestId("ops-batch-waits")).toHaveText(ops.batchWaits);
      await expect(page.getByTestId("ops-issued-codes")).toHaveCount(0);
      await page.reload();
      const mine = page.getByTestId("ops-batch-requests").getByRole("listitem").filter({ hasText: note });
      await expect(mine).toContainText(ops.yourBatchWaits);
      await expect(mine.getByRole("button", { name: ops.approve })).toHaveCount(0);

      const second = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(second, admin, language);
      const checker = await second.newPage();
      await open(checker, "/ops/codes");
      const waiting = checker.getByTestId("ops-batch-requests").getByRole("listitem").filter({ hasText: note });
      await expect(waiting).toContainText(ops.batchRequestStatus.awaiting_approval);
      await expectAccessible(checker);
      await shot(checker, "ops-code-requests", viewport, language);
      await waiting.getByRole("button", { name: ops.approve }).click();
      // Said once the list, read again, shows it approved.
      await expect(waiting).toContainText(ops.waitsForIssuer(finance.displayName));
      await expect(waiting.getByRole("status")).toHaveText(ops.batchApproved);
      await checker.reload();
      await expect(waiting).toContainText(ops.waitsForIssuer(finance.displayName));
      await expect(waiting.getByRole("button", { name: ops.issueApproved })).toHaveCount(0);
      await second.close();

      await page.reload();
      await mine.getByRole("button", { name: ops.issueApproved }).click();
      const issued = page.getByTestId("ops-approved-issue").getByTestId("ops-issued-codes");
      // The list, read again after the issue, says so; the codes stay on the page.
      await expect(mine).toContainText(ops.batchRequestStatus.issued);
      await expect(issued.getByRole("listitem")).toHaveCount(2);
      const [code] = await issued.getByRole("listitem").allTextContents();
      await expectAccessible(page);
      await shot(page, "ops-code-request-issued", viewport, language);
      const person = await newPerson("redeems_approved", "Zhao Min");
      await api("POST", "/api/codes/redeem", { token: person.token, body: { code } });
      expect(await balances(person)).toEqual({ available: 100_000, held: 0 });
      // Shown once: the page read again offers no second issue.
      await page.reload();
      await expect(mine).toContainText(ops.batchRequestStatus.issued);
      await expect(mine.getByRole("button", { name: ops.issueApproved })).toHaveCount(0);
    });

    test("a finance operator checks the ledger, looks up a transaction and exports the day's entries", async ({ page }) => {
      const person = await newPerson("ledgered", "Ma Rui");
      await fund(person, 1_234);
      const { entries } = await api<{ entries: { id: string }[] }>("GET", "/api/wallet/entries", { token: person.token });
      const txId = entries[0]?.id ?? "";
      await contextFor(page.context(), finance, language);
      await open(page, `/ops/ledger?tx=${txId}`);
      await expect(page.getByTestId("ops-ledger-check")).toContainText(ops.ledgerWhole);
      const tx = page.getByTestId("ops-tx");
      await expect(tx).toContainText(txId);
      await expect(tx.getByRole("listitem")).toHaveCount(2);
      await expect(tx).toContainText(`Ma Rui (@${person.handle})`);
      await expectAccessible(page);
      await shot(page, "ops-ledger", viewport, language);
      // Today and tomorrow in China: the range holds the funding's entries.
      const day = (offset: number) => new Date(Date.now() + 8 * 3600_000 + offset * 24 * 3600_000).toISOString().slice(0, 10);
      await page.getByLabel(ops.exportFrom).fill(day(0));
      await page.getByLabel(ops.exportTo).fill(day(1));
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: ops.downloadCsv }).click();
      const csv = await downloadedText(await downloading);
      const lines = csv
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      expect(lines[0]).toContain("tx_id");
      expect(lines.filter((line) => line.includes(txId))).toHaveLength(2);
    });

    test("a support agent finds a person's orders and opens one", async ({ page }) => {
      const person = await newPerson("orders_of", "Tang Ning");
      const orderId = await walletPaidTaskOrder(person, 500, 2);
      await contextFor(page.context(), support, language);
      await open(page, `/ops/orders?person=${person.handle}`);
      const found = page.getByTestId("ops-orders").getByRole("listitem");
      await expect(found).toHaveCount(1);
      await expectAccessible(page);
      await shot(page, "ops-orders", viewport, language);
      await found.getByRole("link").click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(orderId);

      // A closed order's history says why it closed in the reader's words, not the stored code.
      const cancelled = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 2_000 } });
      await api("POST", `/api/orders/${cancelled.id}/cancel`, { token: person.token });
      await open(page, `/ops/orders/${cancelled.id}`);
      const orders = orderMessages[language];
      await expect(page.getByRole("main")).toContainText(`${orders.historyStatus.closed}${orders.aside(orders.closeReason.cancelled)}`);
    });

    test("an admin asks for a role in the console, a second admin grants it, and it is taken away again", async ({ page, browser }) => {
      const colleague = await newPerson("new_agent", "Xu Wen");
      await contextFor(page.context(), admin, language);
      await open(page, "/ops/operators");
      const grantForm = page.getByRole("form", { name: ops.grantTitle });
      await grantForm.getByLabel(ops.handle, { exact: true }).fill(colleague.handle);
      await grantForm.getByLabel(ops.roleLabel, { exact: true }).selectOption("support");
      await grantForm.getByLabel(ops.reason, { exact: true }).fill("Joins the support team.");
      await grantForm.getByRole("button", { name: ops.grant, exact: true }).click();
      // A raise is asked for: nothing is granted until another admin approves it (decision 063).
      await expect(grantForm.getByRole("status")).toHaveText(ops.roleAsked);
      const request = page
        .getByTestId("ops-role-requests")
        .getByRole("listitem")
        .filter({ hasText: `@${colleague.handle}` });
      await expect(request).toContainText(ops.roleRequestStatus.awaiting_approval);
      await expect(request).toContainText(ops.roleRequestWaits);
      await expect(request.getByRole("button", { name: ops.approve })).toHaveCount(0);
      const operatorCards = page.getByTestId("ops-operators").getByRole("listitem");
      await expect(operatorCards.filter({ hasText: `@${colleague.handle}` })).toHaveCount(0);

      const second = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(second, secondAdmin, language);
      const secondPage = await second.newPage();
      await open(secondPage, "/ops/operators");
      const waiting = secondPage
        .getByTestId("ops-role-requests")
        .getByRole("listitem")
        .filter({ hasText: `@${colleague.handle}` });
      await waiting.getByLabel(ops.decisionNote).fill("Confirmed with the support lead.");
      await expectAccessible(secondPage);
      await waiting.getByRole("button", { name: ops.approve }).click();
      await expect(waiting.getByRole("status")).toHaveText(ops.roleApproved);
      const granted = secondPage
        .getByTestId("ops-operators")
        .getByRole("listitem")
        .filter({ hasText: `@${colleague.handle}` });
      await expect(granted).toContainText(ops.role.support);
      await expect(granted).toContainText(ops.approvedBy(secondAdmin.handle));
      await shot(secondPage, "ops-operators", viewport, language);
      await second.close();

      const theirs = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(theirs, colleague, language);
      const colleaguePage = await theirs.newPage();
      await open(colleaguePage, "/ops");
      await expect(colleaguePage.getByTestId("ops-operator")).toContainText(colleague.displayName);

      await open(page, "/ops/operators");
      const card = operatorCards.filter({ hasText: `@${colleague.handle}` });
      await expect(card).toContainText(ops.grantedBy(admin.handle));
      await card.getByLabel(ops.reason, { exact: true }).fill("Moved to another team.");
      await card.getByRole("button", { name: ops.revoke }).click();
      await expect(card).toHaveCount(0);
      await open(colleaguePage, "/ops");
      await expect(colleaguePage.getByRole("heading", { level: 1, name: layoutMessages[language].notFoundTitle })).toBeVisible();
      await theirs.close();
    });

    test("an admin filters the audit trail and downloads it as CSV", async ({ page }) => {
      const person = await newPerson("audited", "Zhao Ming");
      const id = await idOf(person);
      await api("POST", `/api/ops/people/${id}/lock`, { token: admin.token, body: { reason: "Audit trail test." } });
      await api("POST", `/api/ops/people/${id}/unlock`, { token: admin.token, body: { reason: "Audit trail test." } });
      await contextFor(page.context(), admin, language);
      await open(page, `/ops/audit?objectId=${id}`);
      const rows = page.getByTestId("ops-audit").getByRole("listitem");
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText("person.unlock");
      await expectAccessible(page);
      await shot(page, "ops-audit", viewport, language);
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: ops.downloadCsv }).click();
      const csv = await downloadedText(await downloading);
      const lines = csv
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      expect(lines).toHaveLength(3);
      expect(lines.slice(1).join("\n")).toContain("person.lock");
    });
  });
}
