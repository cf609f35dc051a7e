/**
 * Text people type is counted in code points, as the contract counts it (docs/rules-and-limits.md,
 * "Text people type"): a field takes as many emoji as its rule allows, though each is two
 * UTF-16 units to the browser, and one more is refused by the form's check, naming the field.
 */
import type { Page } from "@playwright/test";
import { contactMessages } from "#app/messages/contact";
import { loginMessages } from "#app/messages/login";
import { ticketMessages } from "#app/messages/ticket";
import { ticketFieldMessages } from "#app/messages/ticket-fields";
import { transferMessages } from "#app/messages/transfer";
import { expect, test } from "./fixtures.ts";
import { contextFor, newPerson, open, password, uniqueHandle } from "./journey-kit.ts";

const emoji = (count: number) => "😀".repeat(count);
const codePoints = (text: string) => [...text].length;

/** Types `text` as a keyboard or an input method would, which is what a field's maxlength stops. */
async function typeInto(page: Page, label: string, text: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.focus();
  await page.keyboard.insertText(text);
  return field;
}

test("a new account's display name takes 64 emoji, as the rule allows", async ({ page }) => {
  const text = loginMessages.en;
  await contextFor(page.context(), null, "en");
  await open(page, "/login?mode=register");
  await page.getByLabel(text.handle, { exact: true }).fill(uniqueHandle("emoji"));
  const name = await typeInto(page, text.displayName, emoji(64));
  expect(codePoints(await name.inputValue())).toBe(64);
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: text.registerTitle }).click();
  await expect(page.locator(".account-name")).toHaveText(emoji(64));
});

test("the contact form refuses a subject of 121 emoji, naming it, and sends one of 120", async ({ page }) => {
  const text = contactMessages.en;
  const ticket = ticketMessages.en;
  await contextFor(page.context(), null, "en");
  await open(page, "/contact");
  await page.getByLabel(text.yourEmail, { exact: true }).fill("emoji@example.com");
  const subject = await typeInto(page, ticket.subject, emoji(121));
  expect(codePoints(await subject.inputValue())).toBe(121);
  await page.getByLabel(ticket.message, { exact: true }).fill("A subject made of faces.");
  await page.getByRole("button", { name: ticket.open }).click();
  await expect(page.locator("#contact-subject-error")).toHaveText(ticketFieldMessages.en.subject);

  await subject.fill("");
  await typeInto(page, ticket.subject, emoji(120));
  await page.getByRole("button", { name: ticket.open }).click();
  await expect(page.getByText(/reference tkt_/)).toBeVisible();
  await expect(page.locator("#contact-subject-error")).toHaveCount(0);
});

test("a transfer's note takes 140 emoji", async ({ page }) => {
  const person = await newPerson("emoji_note", "Emoji Note");
  await contextFor(page.context(), person, "en");
  await open(page, "/transfer");
  const note = await typeInto(page, transferMessages.en.note, emoji(140));
  expect(codePoints(await note.inputValue())).toBe(140);
});
