/**
 * The statement and receipts of issue #11 (docs/decisions/026-statement-and-receipts.md) in
 * the browser: filtering the statement, its CSV downloaded and read back line by line, and a
 * receipt printed to PDF with Chromium and read back with poppler's pdftotext; axe-core on
 * every screen, screenshots at a phone's width in Chinese and a desktop's in English.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { walletExportColumns } from "#contract/wallet";
import { formatMoney } from "#app/i18n/format";
import type { Language } from "#app/i18n/languages";
import { walletOverviewMessages } from "#app/messages/wallet-overview";
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { orderMessages } from "#app/messages/orders";
import { transferMessages } from "#app/messages/transfer";
import { receiptMessages } from "#app/messages/receipt";
import { walletMessages } from "#app/messages/wallet";
import { errorMessages } from "./error-messages.ts";
import { expect, test } from "./fixtures.ts";
import { api, contextFor, downloadedText, expectAccessible, fund, newPerson, open, type Person, shot, viewports } from "./journey-kit.ts";

const cases = [
  { viewport: viewports[0], language: "zh-CN" },
  { viewport: viewports[1], language: "en" },
] as const satisfies { viewport: (typeof viewports)[number]; language: Language }[];

const outputDir = "test-results/statement";
mkdirSync(outputDir, { recursive: true });

const send = (from: Person, to: Person, amount: number, note = "") =>
  api<{ id: string }>("POST", "/api/transfers", { token: from.token, body: { toHandle: to.handle, amount, note } });

const lines = (page: Page) => page.getByTestId("statement-line");

for (const { viewport, language } of cases) {
  test.describe(`the statement at ${viewport.name} in ${language}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("lists every entry with its balance, filters them, and downloads the CSV of what was done", async ({ page, problems }) => {
      // The export answered 502 at the end (a refusal only the origin can give), which Chrome logs.
      problems.allow(/status of 502/);
      const text = walletMessages[language];
      const money = (fen: number) => formatMoney(fen, language);
      const me = await newPerson("stmt", language === "zh-CN" ? "王小明" : "Wang Xiaoming");
      const friend = await newPerson("stmtf", "Zhou Yu");
      await fund(me, 10_000);
      const lunch = await send(me, friend, 1_234, "Lunch, 午饭");
      await send(friend, me, 500);
      await send(me, friend, 100, "=1+1");
      await contextFor(page.context(), me, language);

      await open(page, "/");
      await page.getByRole("link", { name: walletOverviewMessages[language].seeStatement }).click();
      await expect(page).toHaveURL(/\/wallet$/);
      await expect(
        page
          .getByRole("navigation", { name: layoutMessages[language].mainNavigation })
          .getByRole("link", { name: layoutMessages[language].nav.wallet }),
      ).toHaveAttribute("aria-current", "page");
      await expect(lines(page)).toHaveCount(4);
      // Newest first, each with the balance right after it.
      await expect(page.getByTestId("balance-after")).toHaveText([9_166, 9_266, 8_766, 10_000].map((fen) => text.balanceAfter(money(fen))));
      await expect(lines(page).first()).toContainText(`(@${friend.handle})`);
      await expect(page.getByTestId("months-chart")).toBeVisible();
      await expectAccessible(page);
      await shot(page, "statement", viewport, language);

      // Only money out.
      await page.getByLabel(text.directionLabel).selectOption("out");
      await page.getByRole("button", { name: text.apply }).click();
      await expect(page).toHaveURL(/direction=out/);
      await expect(lines(page)).toHaveCount(2);
      await expect(page.getByTestId("balance-after")).toHaveText([9_166, 8_766].map((fen) => text.balanceAfter(money(fen))));
      // Only prepaid codes.
      await page.getByLabel(text.directionLabel).selectOption("");
      await page.getByLabel(text.kindLabel).selectOption("code_redeem");
      await page.getByRole("button", { name: text.apply }).click();
      await expect(lines(page)).toHaveCount(1);
      await expect(lines(page)).toHaveAttribute("data-kind", "code_redeem");
      await page.getByRole("link", { name: text.clear }).click();
      await expect(lines(page)).toHaveCount(4);
      await expect(page.getByLabel(text.kindLabel)).toHaveValue("");
      // A range that ends before it begins is refused by the browser, before anything is sent.
      await page.getByLabel(text.fromLabel, { exact: true }).first().fill("2030-01-02");
      await page.getByLabel(text.toLabel, { exact: true }).first().fill("2030-01-01");
      await page.getByRole("button", { name: text.apply }).click();
      await expect(page).toHaveURL(/\/wallet$/);
      expect(
        await page
          .getByLabel(text.toLabel, { exact: true })
          .first()
          .evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow),
      ).toBe(true);

      // The CSV of this month so far (the form's default range), read back line by line.
      const downloading = page.waitForEvent("download");
      await page.getByRole("button", { name: text.download }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^paydesk-statement-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
      await expect(page.getByText(text.downloaded)).toBeVisible();
      const csv = await downloadedText(download);
      expect(csv.startsWith("\uFEFF")).toBe(true);
      const records = csv.slice(1).split("\r\n");
      expect(records.pop()).toBe("");
      expect(records[0]).toBe(walletExportColumns.join(","));
      const time = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+08:00`;
      const friendCells = `${friend.handle},Zhou Yu`;
      expect(records.slice(1)).toEqual([
        expect.stringMatching(new RegExp(`^${time},code_redeem,,,,,100\\.00,10000,0,100\\.00,10000,tx_`)),
        expect.stringMatching(new RegExp(`^${time},transfer_out,${friendCells},"Lunch, 午饭",,-12\\.34,-1234,0,87\\.66,8766,tx_`)),
        expect.stringMatching(new RegExp(`^${time},transfer_in,${friendCells},,,5\\.00,500,0,92\\.66,9266,tx_`)),
        expect.stringMatching(new RegExp(`^${time},transfer_out,${friendCells},'=1\\+1,,-1\\.00,-100,0,91\\.66,9166,tx_`)),
      ]);

      // The range's own rules are checked on the page, in the reader's words, before asking.
      const exports: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/wallet/export")) exports.push(request.url());
      });
      const to = page.getByLabel(text.toLabel, { exact: true }).last();
      await to.fill("2020-01-01");
      await page.getByRole("button", { name: text.download }).click();
      await expect(page.getByRole("alert")).toHaveText(text.toBeforeFrom);
      await expect(to).toHaveAttribute("aria-invalid", "true");
      const from = page.getByLabel(text.fromLabel, { exact: true }).last();
      await from.fill("2024-01-01");
      await to.fill("2025-01-01");
      await page.getByRole("button", { name: text.download }).click();
      await expect(page.getByRole("alert")).toHaveText(text.rangeTooLong(366));
      // A date field takes a five-digit year, which the origin cannot read.
      await from.evaluate((input: HTMLInputElement) => {
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, "20245-01-01");
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await page.getByRole("button", { name: text.download }).click();
      await expect(page.getByRole("alert")).toHaveText(text.dateInvalid);
      await expect(from).toHaveAttribute("aria-invalid", "true");
      await from.fill("2024-01-01");
      expect(exports).toEqual([]);
      // A refusal only the origin can give says the download failed, and why.
      await page.route("**/api/wallet/export?*", (route) =>
        route.fulfill({ status: 502, contentType: "application/json", body: JSON.stringify({ code: "ORIGIN_UNAVAILABLE" }) }),
      );
      await to.fill("2024-12-31");
      await page.getByRole("button", { name: text.download }).click();
      await expect(page.getByRole("alert")).toHaveText(`${text.exportFailed} ${errorMessages[language].ORIGIN_UNAVAILABLE}`);
      expect(lunch.id).toMatch(/^trf_/);
    });

    test("prints a transfer's receipt to one A4 page without the layout, for both sides", async ({ page, browser }) => {
      const text = receiptMessages[language];
      const money = (fen: number) => formatMoney(fen, language);
      const me = await newPerson("rcpt", "Li Wei");
      const friend = await newPerson("rcptf", language === "zh-CN" ? "周瑜" : "Zhou Yu");
      await fund(me, 5_000);
      const sent = await send(me, friend, 2_345, "Rent");
      await contextFor(page.context(), me, language);

      await open(page, "/wallet");
      await page
        .getByRole("link", {
          name: walletMessages[language].receiptFor(
            `${walletMessages[language].kind.transfer_out} ${friend.displayName} (@${friend.handle})`,
          ),
        })
        .click();
      await expect(page).toHaveURL(new RegExp(`/wallet/receipts/transfer/${sent.id}$`));
      const receipt = page.getByTestId("receipt");
      await expect(receipt.getByRole("heading", { name: text.heading.transfer })).toBeVisible();
      await expect(receipt).toContainText(money(2_345));
      await expect(receipt).toContainText(`Li Wei (@${me.handle})`);
      await expect(receipt).toContainText(`${friend.displayName} (@${friend.handle})`);
      await expect(receipt).toContainText(sent.id);
      await expectAccessible(page);
      await shot(page, "receipt", viewport, language);

      const pdfPath = `${outputDir}/receipt-${viewport.name}-${language}.pdf`;
      await page.pdf({ path: pdfPath, format: "A4", printBackground: true });
      const info = execFileSync("pdfinfo", [pdfPath], { encoding: "utf8" });
      expect(info).toMatch(/Pages:\s+1\n/);
      expect(info).toMatch(/Page size:\s+595\.\d+ x 84[12]\.\d+ pts \(A4\)/);
      const printed = execFileSync("pdftotext", ["-layout", pdfPath, "-"], { encoding: "utf8" });
      for (const expected of [text.heading.transfer, money(2_345), me.handle, friend.handle, "Rent", sent.id, text.transaction]) {
        expect(printed).toContain(expected);
      }
      // The layout stays off paper: navigation, footer and the page's own buttons.
      const layout = layoutMessages[language];
      for (const absent of [layout.nav.task, layout.nav.support, layout.skipToContent, text.print, text.back]) {
        expect(printed).not.toContain(absent);
      }

      // The other side reads the same receipt.
      const friendsContext = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(friendsContext, friend, language);
      const friendsPage = await friendsContext.newPage();
      await open(friendsPage, `/wallet/receipts/transfer/${sent.id}`);
      await expect(friendsPage.getByTestId("receipt")).toContainText(`Li Wei (@${me.handle})`);
      await friendsContext.close();
    });
  });
}

test.describe("at 1280x800 in English: pages, and receipts from the order page and the transfer", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("pages the statement 20 lines at a time, the balance carried across pages", async ({ page }) => {
    const text = walletMessages.en;
    const me = await newPerson("stmtp", "Paging Person");
    for (let i = 1; i <= 22; i += 1) await fund(me, i * 100);
    await contextFor(page.context(), me, "en");
    await open(page, "/wallet");
    await expect(lines(page)).toHaveCount(20);
    // The newest line is the 22nd code: ¥1 + ¥2 + … + ¥22 = ¥253.
    await expect(page.getByTestId("balance-after").first()).toHaveText(text.balanceAfter(formatMoney(25_300, "en")));
    await page.getByRole("link", { name: text.older }).click();
    await expect(lines(page)).toHaveCount(2);
    await expect(page.getByTestId("balance-after")).toHaveText([300, 100].map((fen) => text.balanceAfter(formatMoney(fen, "en"))));
    await expect(page.getByRole("link", { name: text.older })).toHaveCount(0);
    await page.getByRole("link", { name: text.newest }).click();
    await expect(lines(page)).toHaveCount(20);
  });

  test("an order's wallet payment opens its receipt; a sent transfer links to its receipt", async ({ page }) => {
    const language = "en";
    const me = await newPerson("rcpto", "Chen Jie");
    const friend = await newPerson("rcptt", "Zhou Yu");
    await fund(me, 20_000);
    const { order } = await api<{ order: { id: string } }>("POST", "/api/tasks", {
      token: me.token,
      body: {
        title: "Proofread a page",
        description: "Read one page and list the typos.",
        reward: 1_000,
        slots: 2,
        deadline: new Date(Date.now() + 48 * 3600 * 1000).toISOString(),
      },
    });
    await api("POST", `/api/orders/${order.id}/pay`, { token: me.token, body: { method: "wallet" } });
    await contextFor(page.context(), me, language);

    await open(page, `/order?id=${order.id}`);
    await page.getByRole("link", { name: orderMessages.en.paymentReceipt(orderMessages.en.method.wallet) }).click();
    const receipt = page.getByTestId("receipt");
    await expect(receipt.getByRole("heading", { name: receiptMessages.en.heading.payment })).toBeVisible();
    await expect(receipt).toContainText("Proofread a page");
    await expect(receipt).toContainText(formatMoney(2_000, language));
    await expect(receipt).toContainText(receiptMessages.en.methodValue.wallet);
    // In Chinese the order is named by its kind: the origin words its description in English.
    const receiptPath = new URL(page.url()).pathname;
    await page.context().addCookies([{ name: "lang", value: "zh-CN", url: page.url() }]);
    await open(page, receiptPath);
    await expect(receipt.getByRole("heading", { name: receiptMessages["zh-CN"].heading.payment })).toBeVisible();
    await expect(receipt).toContainText(receiptMessages["zh-CN"].orderKind.task_budget);
    await expect(receipt).not.toContainText("Budget for the task");
    await page.context().addCookies([{ name: "lang", value: "en", url: page.url() }]);

    const transfer = transferMessages.en;
    await open(page, "/transfer");
    await page.getByLabel(transfer.recipient, { exact: true }).fill(friend.handle);
    await page.getByLabel(transfer.amount, { exact: true }).fill("3.21");
    await page.getByRole("button", { name: transfer.review }).click();
    await page.getByRole("button", { name: transfer.send }).click();
    await page.getByRole("link", { name: transfer.printableReceipt }).click();
    await expect(page.getByTestId("receipt")).toContainText(`Zhou Yu (@${friend.handle})`);
    await expect(page.getByTestId("receipt")).toContainText(formatMoney(321, language));
  });
});
