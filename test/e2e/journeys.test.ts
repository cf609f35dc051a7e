/**
 * The browser journeys of issue #4: the built app, the reference origin and local D1,
 * at a phone's and a desktop's size, with axe-core on every screen they pass.
 */
import type { Page } from "@playwright/test";
import { formatDateTime, formatMoney, formatSignedMoney } from "#app/i18n/format";
import type { Language } from "#app/i18n/languages";
import { errorMessages } from "./error-messages.ts";
import { walletOverviewMessages } from "#app/messages/wallet-overview";
import { recoveryCodeMessages } from "#app/messages/recovery-codes";
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { loginMessages } from "#app/messages/login";
import { orderPageMessages } from "#app/messages/order-page";
import { payPageMessages } from "#app/messages/pay-page";
import { orderMessages } from "#app/messages/orders";
import { paymentMessages } from "#app/messages/payment";
import { rechargeMessages } from "#app/messages/recharge";
import { supportMessages } from "#app/messages/support";
import { ticketMessages } from "#app/messages/ticket";
import { taskMessages } from "#app/messages/tasks";
import { formMessages } from "#app/messages/forms";
import { transferMessages } from "#app/messages/transfer";
import { e2eAdminToken } from "./e2e-env.ts";
import { expect, test } from "./fixtures.ts";
import {
  api,
  balances,
  contextFor,
  expectAccessible,
  fund,
  issueCode,
  chinaDateTime,
  newPerson,
  open,
  password,
  shot,
  uniqueHandle,
  viewports,
  type Person,
} from "./journey-kit.ts";

const headerBalance = (page: Page) => page.getByTestId("header-balance");

for (const viewport of viewports) {
  test.describe(`journeys at ${viewport.name}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const language of ["en", "zh-CN"] as const satisfies Language[]) {
      test(`[${language}] a new user registers, redeems a code and sends money to a second user, who sees it`, async ({
        page,
        browser,
        problems,
      }) => {
        problems.allow(/status of 401/);
        const login = loginMessages[language];
        const recharge = rechargeMessages[language];
        const transfer = transferMessages[language];
        const home = walletOverviewMessages[language];
        const money = (fen: number) => formatMoney(fen, language);
        const friend = await newPerson("friend", "Zhou Yu");
        await contextFor(page.context(), null, language);

        const handle = uniqueHandle("new");
        await open(page, "/login?mode=register");
        await expect(page.locator("html")).toHaveAttribute("lang", language);
        await expectAccessible(page);
        await page.getByLabel(login.handle, { exact: true }).fill(handle);
        await page.getByLabel(login.displayName, { exact: true }).fill("Chen Jing");
        await page.getByLabel(login.password, { exact: true }).fill(password);
        await page.getByRole("button", { name: login.registerTitle }).click();
        // The new account's recovery codes, shown once (test/e2e/account-safety.test.ts).
        await page.getByRole("button", { name: recoveryCodeMessages[language].savedCodes }).click();
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(home.hello("Chen Jing"));
        await expect(headerBalance(page)).toHaveText(money(0));
        await expect(page.getByText(home.noEntries)).toBeVisible();
        await expectAccessible(page);
        await shot(page, "register-home", viewport, language);

        const code = await issueCode(5_000);
        await page
          .getByRole("navigation", { name: layoutMessages[language].mainNavigation })
          .getByRole("link", { name: layoutMessages[language].nav.recharge })
          .click();
        await expect(page.getByRole("heading", { name: recharge.redeemTitle })).toBeVisible();
        await page.getByLabel(recharge.code, { exact: true }).fill(code.toLowerCase());
        await page.getByRole("button", { name: recharge.redeem }).click();
        await expect(page.getByText(recharge.redeemed(money(5_000)))).toBeVisible();
        await expect(headerBalance(page)).toHaveText(money(5_000));
        await expectAccessible(page);
        await shot(page, "redeemed", viewport, language);

        await open(page, "/transfer");
        await page.getByLabel(transfer.recipient, { exact: true }).fill(friend.handle);
        await page.getByLabel(transfer.amount, { exact: true }).fill("12.34");
        await page.getByLabel(transfer.note, { exact: true }).fill("Dinner 晚饭");
        await page.getByRole("button", { name: transfer.review }).click();
        await expect(page.getByRole("heading", { name: transfer.confirmTitle })).toBeFocused();
        await expect(page.getByText(friend.displayName, { exact: true })).toBeVisible();
        await expectAccessible(page);
        await shot(page, "transfer-confirm", viewport, language);
        await page.getByRole("button", { name: transfer.send }).click();
        await expect(page.getByRole("heading", { name: transfer.receiptTitle })).toBeFocused();
        await expect(page.getByText(transfer.receiptLead(money(1_234), `${friend.displayName} (@${friend.handle})`))).toBeVisible();
        await expect(headerBalance(page)).toHaveText(money(3_766));
        await expectAccessible(page);
        await shot(page, "transfer-receipt", viewport, language);

        const friendContext = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
        await contextFor(friendContext, friend, language);
        const friendPage = await friendContext.newPage();
        await open(friendPage, "/");
        await expect(friendPage.getByTestId("balance-available")).toHaveText(money(1_234));
        await expect(friendPage.getByRole("list", { name: home.recent }).getByText(formatSignedMoney(1_234, language))).toBeVisible();
        await expectAccessible(friendPage);
        await shot(friendPage, "recipient-home", viewport, language);
        await friendContext.close();
      });
    }

    test("a poster pays a task's budget from the wallet; a worker claims and submits; the poster approves", async ({ page, browser }) => {
      const language = "en";
      const text = taskMessages[language];
      const pay = paymentMessages[language];
      const poster = await newPerson("poster", "Wang Fang");
      const worker = await newPerson("worker", "Liu Yang");
      await fund(poster, 10_000);
      await contextFor(page.context(), poster, language);

      const title = `Photograph a shop front ${uniqueHandle("t")}`;
      await open(page, "/task?tab=posted");
      await page.getByLabel(text.taskTitle, { exact: true }).fill(title);
      await page.getByLabel(text.description, { exact: true }).fill("Take a clear photo of the shop front and post the link.");
      await page.getByLabel(text.rewardField, { exact: true }).fill("5");
      await page.getByLabel(text.slots, { exact: true }).fill("2");
      const deadline = chinaDateTime(48);
      await page.getByLabel(text.deadlineField, { exact: true }).fill(deadline);
      await expectAccessible(page);
      await page.getByRole("button", { name: text.post }).click();
      await expect(page).toHaveURL(/\/pay\?order=ord_/);
      await expect(page.getByRole("heading", { name: payPageMessages[language].payTitle })).toBeVisible();
      await expectAccessible(page);
      await shot(page, "task-checkout", viewport, language);
      await page.getByRole("button", { name: pay.payNow }).click();
      await expect(page).toHaveURL(/\/pay_success\?order=ord_/);
      await expect(page.getByRole("heading", { name: pay.paid })).toBeVisible();
      await expect(page.getByText(pay.paidTask)).toBeVisible();
      await expect(headerBalance(page)).toHaveText(formatMoney(9_000, language));
      await expectAccessible(page);
      await shot(page, "task-paid", viewport, language);
      expect(await balances(poster)).toEqual({ available: 9_000, held: 1_000 });

      // The worker is abroad: the deadline reads as typed, in China Standard Time, with the zone named.
      const workerContext = await browser.newContext({
        viewport: { width: viewport.width, height: viewport.height },
        timezoneId: "Europe/Berlin",
      });
      await contextFor(workerContext, worker, language);
      const workerPage = await workerContext.newPage();
      await open(workerPage, "/task");
      const card = workerPage.getByRole("listitem").filter({ hasText: title });
      await expect(card.getByText(text.slotsLeft(2, 2))).toBeVisible();
      const shown = formatDateTime(`${deadline}:00+08:00`, language, 60);
      expect(shown).toContain("GMT+8");
      await expect(card.locator("time")).toHaveText(shown);
      // The moment itself: the typed time read as China Standard Time.
      await expect(card.locator("time")).toHaveAttribute("datetime", new Date(`${deadline}:00+08:00`).toISOString());
      // Who will check the work and pay: the display name, and the handle that tells two Wang Fangs apart.
      await expect(card.getByText(`${text.postedBy} Wang Fang (@${poster.handle})`)).toBeVisible();
      await expectAccessible(workerPage);
      // Each task's buttons name their task: a list of them does not read "Claim this task" over and over.
      await card.getByRole("button", { name: text.onTask(text.claim, title), exact: true }).click();
      await expect(workerPage).toHaveURL(/\/task\?tab=mine/);
      await expect(workerPage.getByText(text.claimed)).toBeVisible();
      const claim = workerPage.getByRole("listitem").filter({ hasText: title });
      await claim.getByLabel(text.proof, { exact: true }).fill("Done: photo taken at 10:00.");
      await claim.getByLabel(text.proofUrl, { exact: true }).fill("https://example.com/photo.jpg");
      await expectAccessible(workerPage);
      await shot(workerPage, "task-submit", viewport, language);
      await claim.getByRole("button", { name: text.onTask(text.submit, title), exact: true }).click();
      await expect(claim.getByText(text.claimStatus.submitted)).toBeVisible();

      await open(page, "/check");
      const submission = page.getByRole("listitem").filter({ hasText: title });
      await expect(submission.getByText("Done: photo taken at 10:00.")).toBeVisible();
      await expect(submission.getByText(`${text.doneBy} Liu Yang (@${worker.handle})`)).toBeVisible();
      await expectAccessible(page);
      await shot(page, "check-queue", viewport, language);
      await submission
        .getByRole("button", { name: text.onTask(text.approve, text.submissionOf(title, worker.handle)), exact: true })
        .click();
      await expect(page.getByText(text.checkEmpty)).toBeVisible();
      expect(await balances(poster)).toEqual({ available: 9_000, held: 500 });
      expect(await balances(worker)).toEqual({ available: 500, held: 0 });

      await open(workerPage, "/task?tab=mine");
      await expect(workerPage.getByRole("listitem").filter({ hasText: title }).getByText(text.claimStatus.approved)).toBeVisible();
      await expect(headerBalance(workerPage)).toHaveText(formatMoney(500, language));
      await workerContext.close();
    });

    test("a rejected submission reopens the slot", async ({ page }) => {
      const language = "en";
      const text = taskMessages[language];
      const poster = await newPerson("poster", "Wang Fang");
      const worker = await newPerson("worker", "Liu Yang");
      await fund(poster, 1_000);
      const deadline = new Date(Date.now() + 48 * 3600 * 1000).toISOString();
      const title = `Check a translation ${uniqueHandle("t")}`;
      const { order, task } = await api<{ order: { id: string }; task: { id: string } }>("POST", "/api/tasks", {
        token: poster.token,
        body: { title, description: "Read the page and fix mistakes.", reward: 300, slots: 1, deadline },
      });
      await api("POST", `/api/orders/${order.id}/pay`, { token: poster.token, body: { method: "wallet" } });
      const claim = await api<{ id: string }>("POST", `/api/tasks/${task.id}/claims`, { token: worker.token, body: {} });
      await api("POST", `/api/claims/${claim.id}/submit`, { token: worker.token, body: { text: "I fixed nothing." } });

      await contextFor(page.context(), poster, language);
      await open(page, "/task?tab=posted");
      await expect(page.getByRole("listitem").filter({ hasText: title }).getByText(text.slotsLeft(0, 1))).toBeVisible();
      await open(page, "/check");
      const submission = page.getByRole("listitem").filter({ hasText: title });
      await submission.getByRole("button", { name: text.reject }).click();
      await expect(submission.getByText(text.fields.reason)).toBeVisible();
      await expect(submission.getByLabel(text.rejectReason, { exact: true })).toBeFocused();
      await submission.getByLabel(text.rejectReason, { exact: true }).fill("Nothing was fixed.");
      await submission.getByRole("button", { name: text.reject }).click();
      await expect(page.getByText(text.checkEmpty)).toBeVisible();
      await open(page, "/task?tab=posted");
      await expect(page.getByRole("listitem").filter({ hasText: title }).getByText(text.slotsLeft(1, 1))).toBeVisible();
      await expectAccessible(page);
      await shot(page, "rejected-slot-reopened", viewport, language);
      expect(await balances(worker)).toEqual({ available: 0, held: 0 });
      expect(await balances(poster)).toEqual({ available: 700, held: 300 });
    });

    test("a worker gives up a claim before submitting: its place reopens for others", async ({ page }) => {
      const language = "zh-CN";
      const text = taskMessages[language];
      const poster = await newPerson("poster", "Wang Fang");
      const worker = await newPerson("worker", "Liu Yang");
      await fund(poster, 1_000);
      const deadline = new Date(Date.now() + 48 * 3600 * 1000).toISOString();
      const title = `Count the chairs ${uniqueHandle("t")}`;
      const { order, task } = await api<{ order: { id: string }; task: { id: string } }>("POST", "/api/tasks", {
        token: poster.token,
        body: { title, description: "Count the chairs in the hall.", reward: 300, slots: 1, deadline },
      });
      await api("POST", `/api/orders/${order.id}/pay`, { token: poster.token, body: { method: "wallet" } });
      await api("POST", `/api/tasks/${task.id}/claims`, { token: worker.token, body: {} });

      await contextFor(page.context(), worker, language);
      await open(page, "/task?tab=mine");
      const claim = page.getByRole("listitem").filter({ hasText: title });
      const giveUp = claim.getByRole("button", { name: text.onTask(text.giveUp, title), exact: true });
      // The button says what cannot be undone, not only its name.
      await expect(giveUp).toHaveAccessibleDescription(text.giveUpHint);
      await expectAccessible(page);
      await shot(page, "claim-to-give-up", viewport, language);
      await giveUp.click();
      await expect(claim.getByText(text.claimStatus.withdrawn)).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: text.givenUp })).toBeAttached();
      await expect(claim.getByLabel(text.proof, { exact: true })).toHaveCount(0);
      await expectAccessible(page);
      await shot(page, "claim-given-up", viewport, language);
      const posted = await api<{ id: string; slotsLeft: number }[]>("GET", "/api/tasks?tab=posted", { token: poster.token });
      expect(posted).toEqual([expect.objectContaining({ id: task.id, slotsLeft: 1 })]);
    });

    test("a poster's tasks come 100 a page, with links to older and back to the newest", async ({ page }) => {
      const language = "en";
      const text = taskMessages[language];
      const poster = await newPerson("poster", "Wang Fang");
      const deadline = new Date(Date.now() + 48 * 3600 * 1000).toISOString();
      const prefix = uniqueHandle("p");
      // 101 tasks awaiting their budgets, posted one after another: the first is the oldest.
      for (let index = 0; index < 101; index += 1) {
        await api("POST", "/api/tasks", {
          token: poster.token,
          body: { title: `${prefix} task ${index}`, description: "Paged.", reward: 100, slots: 1, deadline },
        });
      }
      await contextFor(page.context(), poster, language);
      await open(page, "/task?tab=posted");
      const cards = page.locator(".task-card");
      await expect(cards).toHaveCount(100);
      await expect(cards.first()).toContainText(`${prefix} task 100`);
      await expect(page.getByRole("link", { name: text.newest, exact: true })).toHaveCount(0);
      await page.getByRole("link", { name: text.older, exact: true }).click();
      await expect(page).toHaveURL(/\/task\?tab=posted&before=tsk_/);
      await expect(cards).toHaveCount(1);
      await expect(cards.first()).toContainText(`${prefix} task 0`);
      await expect(page.getByRole("link", { name: text.older, exact: true })).toHaveCount(0);
      await expectAccessible(page);
      await shot(page, "posted-older-page", viewport, language);
      await page.getByRole("link", { name: text.newest, exact: true }).click();
      await expect(cards).toHaveCount(100);
    });

    test("an order is created and cancelled", async ({ page }) => {
      const language = "en";
      const text = orderMessages[language];
      const pay = paymentMessages[language];
      const person = await newPerson("buyer", "Zhao Lei");
      await contextFor(page.context(), person, language);
      // This journey runs in the dark scheme: axe checks its contrast too.
      await page.emulateMedia({ colorScheme: "dark" });
      await open(page, "/recharge");
      await page.getByLabel(rechargeMessages[language].amount, { exact: true }).fill("20");
      await page.getByRole("button", { name: rechargeMessages[language].createOrder }).click();
      await expect(page).toHaveURL(/\/pay\?order=ord_/);
      await expect(page.getByText(pay.walletNotForRecharge)).toBeVisible();
      await expect(page.locator(".summary .amount-large")).toHaveText(formatMoney(2_000, language));
      await expectAccessible(page);
      await shot(page, "recharge-checkout", viewport, language);

      await open(page, "/order");
      await expect(page.getByRole("list", { name: text.list }).getByText(text.status.pending)).toBeVisible();
      await expectAccessible(page);
      await page.getByRole("list", { name: text.list }).getByRole("link").first().click();
      await expect(page.getByRole("heading", { name: orderPageMessages[language].detailTitle })).toBeVisible();
      await page.getByRole("button", { name: text.cancel }).click();
      await expect(page.getByText(`${text.status.closed} (${text.closeReason.cancelled})`).first()).toBeVisible();
      await expect(page.getByRole("button", { name: text.cancel })).toHaveCount(0);
      await expectAccessible(page);
      await shot(page, "order-cancelled", viewport, language);

      await open(page, "/order?status=closed");
      await expect(page.getByRole("list", { name: text.list }).getByRole("listitem")).toHaveCount(1);
    });

    test("a support ticket is opened and the operator's reply appears", async ({ page }) => {
      const language = "en";
      const text = supportMessages[language];
      const ticketText = ticketMessages[language];
      const person = await newPerson("asker", "Sun Li");
      await contextFor(page.context(), person, language);
      await open(page, "/support");
      await expect(page.getByText(text.noTickets)).toBeVisible();
      await page.getByLabel(ticketText.category, { exact: true }).selectOption("payment");
      await page.getByLabel(ticketText.subject, { exact: true }).fill("Where is my recharge?");
      await page.getByLabel(ticketText.message, { exact: true }).fill("I paid ¥20.00 an hour ago.");
      await expectAccessible(page);
      await page.getByRole("button", { name: ticketText.open }).click();
      await page.getByRole("link", { name: text.opened }).click();
      await expect(page.getByRole("heading", { name: "Where is my recharge?" })).toBeVisible();
      const ticketId = new URL(page.url()).searchParams.get("id")!;

      await api("POST", `/api/admin/support/tickets/${ticketId}/messages`, {
        token: e2eAdminToken,
        body: { message: "It arrived: your balance shows it now." },
      });
      await page.reload();
      await expect(page.getByText("It arrived: your balance shows it now.")).toBeVisible();
      await expect(page.getByText(text.operator, { exact: false })).toBeVisible();
      await expect(page.getByText(text.status.answered)).toBeVisible();
      await page.getByLabel(text.reply, { exact: true }).fill("Thank you!");
      await page.getByRole("button", { name: text.send }).click();
      await expect(page.getByText("Thank you!")).toBeVisible();
      await expectAccessible(page);
      await shot(page, "support-thread", viewport, language);
    });

    test("a transfer whose answer was lost, reviewed and sent again, moves the money once", async ({ page, problems }) => {
      problems.allow(/Failed to load resource/);
      const language = "en";
      const transfer = transferMessages[language];
      const sender = await newPerson("sender", "Qian Wen");
      const friend = await newPerson("friend", "Zhou Yu");
      await fund(sender, 5_000);
      await contextFor(page.context(), sender, language);
      // The first send reaches the origin and commits; its answer never reaches the page.
      let lost = false;
      await page.route("**/api/transfers", async (route) => {
        if (lost) return route.continue();
        lost = true;
        await route.fetch();
        await route.abort("connectionreset");
      });

      await open(page, "/transfer");
      await page.getByLabel(transfer.recipient, { exact: true }).fill(friend.handle);
      await page.getByLabel(transfer.amount, { exact: true }).fill("10");
      await page.getByRole("button", { name: transfer.review }).click();
      await page.getByRole("button", { name: transfer.send }).click();
      await expect(page.getByRole("alert")).toHaveText(errorMessages[language].ORIGIN_UNAVAILABLE);
      // Back to the details, nothing changed, reviewed and sent again: the same request.
      await page.getByRole("button", { name: transfer.change }).click();
      // The button pressed is gone: focus goes to the first field, not back to the page's start.
      await expect(page.getByLabel(transfer.recipient, { exact: true })).toBeFocused();
      await page.getByRole("button", { name: transfer.review }).click();
      await page.getByRole("button", { name: transfer.send }).click();
      await expect(page.getByRole("heading", { name: transfer.receiptTitle })).toBeVisible();
      expect(await balances(sender)).toEqual({ available: 4_000, held: 0 });
      expect(await balances(friend)).toEqual({ available: 1_000, held: 0 });
      await page.getByRole("button", { name: transfer.another }).click();
      await expect(page.getByLabel(transfer.recipient, { exact: true })).toBeFocused();
      await expect(page.getByLabel(transfer.recipient, { exact: true })).toHaveValue("");
    });

    test("each error path shows its message", async ({ page, problems }) => {
      problems.allow(/status of (4\d\d|502)/);
      const language = "en";
      const errors = errorMessages[language];
      const recharge = rechargeMessages[language];
      const transfer = transferMessages[language];
      const person: Person = await newPerson("careful", "Gao Min");
      await fund(person, 1_000);
      await contextFor(page.context(), person, language);

      await open(page, "/recharge");
      await page.getByLabel(recharge.code, { exact: true }).fill("AAAA-BBBB-CCCC-DDDD");
      await page.getByRole("button", { name: recharge.redeem }).click();
      await expect(page.getByRole("alert").or(page.locator(".field-error"))).toContainText(errors.CODE_NOT_VALID);
      await page.getByLabel(recharge.code, { exact: true }).fill("not a code");
      await page.getByRole("button", { name: recharge.redeem }).click();
      await expect(page.getByText(recharge.fields.code)).toBeVisible();
      await expect(page.getByLabel(recharge.code, { exact: true })).toBeFocused();
      await expectAccessible(page);
      await shot(page, "error-wrong-code", viewport, language);

      await open(page, "/transfer");
      await page.getByLabel(transfer.recipient, { exact: true }).fill("nobody_has_this_handle");
      await page.getByLabel(transfer.amount, { exact: true }).fill("1");
      await page.getByRole("button", { name: transfer.review }).click();
      await expect(page.getByText(errors.RECIPIENT_NOT_FOUND)).toBeVisible();
      await expect(page.getByLabel(transfer.recipient, { exact: true })).toBeFocused();
      await shot(page, "error-unknown-recipient", viewport, language);

      await page.getByLabel(transfer.recipient, { exact: true }).fill("li_wei");
      await page.getByLabel(transfer.amount, { exact: true }).fill("50000.01");
      await page.getByRole("button", { name: transfer.review }).click();
      await expect(page.getByText(formMessages[language].amountOutside("¥0.01", "¥50,000.00"))).toBeVisible();
      await expect(page.getByLabel(transfer.amount, { exact: true })).toBeFocused();
      await shot(page, "error-over-limit", viewport, language);

      await page.getByLabel(transfer.amount, { exact: true }).fill("20");
      await page.getByRole("button", { name: transfer.review }).click();
      await page.getByRole("button", { name: transfer.send }).click();
      await expect(page.getByRole("alert")).toHaveText(errors.INSUFFICIENT_FUNDS);
      await expect(page.getByRole("alert")).toBeFocused();
      await expectAccessible(page);
      await shot(page, "error-insufficient", viewport, language);
      expect(await balances(person)).toEqual({ available: 1_000, held: 0 });

      // The origin down: the edge answers 502 ORIGIN_UNAVAILABLE for every API call.
      await page.route("**/api/**", (route) =>
        route.fulfill({ status: 502, contentType: "application/json", body: '{"code":"ORIGIN_UNAVAILABLE"}' }),
      );
      await open(page, "/order");
      await expect(page.getByRole("banner")).toBeVisible();
      await expect(page.getByText(layoutMessages[language].unreachable)).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: errors.ORIGIN_UNAVAILABLE })).toBeVisible();
      await expectAccessible(page);
      await shot(page, "error-origin-down", viewport, language);
    });
  });
}
