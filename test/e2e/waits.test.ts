/**
 * A refusal that says how long to wait says it as the answer's Retry-After does, in the
 * page's language (app/messages/errors.ts): the redeem lock after five wrong codes.
 */
import type { Page } from "@playwright/test";
import { rechargeMessages } from "#app/messages/recharge";
import { expect, test } from "./fixtures.ts";
import { contextFor, newPerson, open } from "./journey-kit.ts";

async function tryCode(page: Page, code: string) {
  const recharge = rechargeMessages.en;
  await page.getByLabel(recharge.code, { exact: true }).fill(code);
  await page.getByRole("button", { name: recharge.redeem }).click();
}

test("five wrong codes lock redeeming, and the page says for how long", async ({ page, problems }) => {
  problems.allow(/status of (422|429)/);
  const person = await newPerson("wrong_codes", "Zhou Jie");
  await contextFor(page.context(), person, "en");
  await open(page, "/recharge");
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await tryCode(page, `ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`);
    await expect(page.locator("#redeem-code-error, [role=alert]").first()).toBeVisible();
  }
  await tryCode(page, "ZZZZ-ZZZZ-ZZZZ-ZZZ6");
  await expect(page.getByText("Too many wrong codes. Try again in 10 minutes.")).toBeVisible();
});

test("in Simplified Chinese too", async ({ page, problems }) => {
  problems.allow(/status of (422|429)/);
  const person = await newPerson("wrong_codes_zh", "Zhou Jie");
  await contextFor(page.context(), person, "zh-CN");
  await open(page, "/recharge");
  const recharge = rechargeMessages["zh-CN"];
  for (let attempt = 1; attempt <= 6; attempt += 1) {
    await page.getByLabel(recharge.code, { exact: true }).fill(`ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`);
    await page.getByRole("button", { name: recharge.redeem }).click();
    if (attempt < 6) await expect(page.getByRole("alert").or(page.locator(".field-error")).first()).toBeVisible();
  }
  await expect(page.getByText("错误的充值码次数过多，请10分钟后再试。")).toBeVisible();
});
