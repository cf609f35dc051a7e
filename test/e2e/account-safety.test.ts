/**
 * A person keeps their account safe (docs/decisions/024-account-safety.md): recovery codes
 * after sign-up, a password change that ends the other session, a new password with a
 * recovery code, one with the recovery link two admins issue from the console, and a browser
 * that signed in before still signing in while a stranger's failures lock the handle
 * (docs/decisions/061-known-devices.md).
 */
import type { Browser, Page } from "@playwright/test";
import type { Language } from "#app/i18n/languages";
import { accountMessages } from "#app/messages/account";
import { recoverMessages } from "#app/messages/recover";
import { recoveryCodeMessages } from "#app/messages/recovery-codes";
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { loginMessages } from "#app/messages/login";
import { opsMessages } from "#app/messages/ops";
import { e2eBaseUrl, seededOperators } from "./e2e-env.ts";
import { errorMessages } from "./error-messages.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import {
  api,
  contextFor,
  downloadedText,
  expectAccessible,
  newPerson,
  open,
  password,
  type Person,
  shot,
  uniqueHandle,
  viewports,
} from "./journey-kit.ts";

const [admin, , , secondAdmin] = seededOperators;
const codePattern = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

// Both sizes, one language each: together they cover both languages.
const runs = [
  { viewport: viewports[0], language: "zh-CN" },
  { viewport: viewports[1], language: "en" },
] as const satisfies { viewport: (typeof viewports)[number]; language: Language }[];

/** A second device: its own browser context, signed in as that phone would (the session keeps the browser it signed in with). */
async function secondDevice(browser: Browser, person: Person, language: Language): Promise<Page> {
  const userAgent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
  const context = await browser.newContext({ userAgent });
  const signedIn = await fetch(`${e2eBaseUrl}/api/user/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "User-Agent": userAgent },
    body: JSON.stringify({ handle: person.handle, password }),
  });
  const { data } = (await signedIn.json()) as { data: { token: string } };
  await contextFor(context, { ...person, token: data.token }, language);
  return context.newPage();
}

const signedInName = (page: Page) => page.locator(".account-name");

for (const { viewport, language } of runs) {
  test.describe(`account safety at ${viewport.name} [${language}]`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    const text = accountMessages[language];
    const codesText = recoveryCodeMessages[language];
    const recover = recoverMessages[language];

    test("a new account sees its ten recovery codes once, downloads them, then goes on", async ({ page }) => {
      const login = loginMessages[language];
      const handle = uniqueHandle("codes");
      await contextFor(page.context(), null, language);
      await open(page, "/login?mode=register&next=%2Ftransfer");
      await page.getByLabel(login.handle, { exact: true }).fill(handle);
      await page.getByLabel(login.displayName, { exact: true }).fill("Qian Yu");
      await page.getByLabel(login.password, { exact: true }).fill(password);
      await page.getByRole("button", { name: login.registerTitle }).click();

      const list = page.getByTestId("recovery-codes");
      await expect(list.getByRole("listitem")).toHaveCount(10);
      const codes = await list.getByRole("listitem").allInnerTexts();
      for (const code of codes) expect(code.trim()).toMatch(codePattern);
      await expect(page.getByRole("heading", { name: codesText.codesList })).toBeFocused();
      await expectAccessible(page);
      await shot(page, "recovery-codes-after-sign-up", viewport, language);

      const downloading = page.waitForEvent("download");
      await page.getByRole("link", { name: codesText.downloadCodes }).click();
      const file = await downloadedText(await downloading);
      expect(file.split("\n").filter((line) => codePattern.test(line))).toEqual(codes.map((code) => code.trim()));

      await page.getByRole("button", { name: codesText.savedCodes }).click();
      await expect(page).toHaveURL(/\/transfer$/);
      // The account page knows the set without ever showing it again.
      await open(page, "/account");
      await expect(page.getByTestId("recovery-codes-status")).toContainText(text.codesRemaining(10));
      await expect(page.getByTestId("recovery-codes")).toHaveCount(0);

      // A new set made on /account: shown once, and once kept, focus returns to the section.
      await page.locator("#account-codes-password").fill(password);
      await page.getByRole("button", { name: text.makeCodes }).click();
      await expect(page.getByRole("heading", { name: codesText.codesList })).toBeFocused();
      await page.getByRole("button", { name: codesText.savedCodes }).click();
      await expect(page.getByRole("heading", { name: text.codesTitle })).toBeFocused();
      await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
    });

    test("changing the password on /account signs the other device out, and the new password signs in", async ({
      page,
      browser,
      problems,
    }) => {
      problems.allow(/status of 422/);
      const person = await newPerson("pwchange", "Ma Lan");
      const phone = await secondDevice(browser, person, language);
      await open(phone, "/");
      await expect(signedInName(phone)).toHaveText("Ma Lan");

      await contextFor(page.context(), person, language);
      await open(page, "/");
      await signedInName(page).click();
      await expect(page).toHaveURL(/\/account$/);
      await waitForHydration(page);
      const sessions = page.getByTestId("account-sessions").getByRole("listitem");
      // Signed in through the API (newPerson), then on the phone.
      await expect(sessions.filter({ hasText: "Chrome on Android" })).toHaveCount(1);
      await expect(sessions.filter({ hasText: text.thisDevice })).toHaveCount(1);
      await expectAccessible(page);
      await shot(page, "account", viewport, language);

      // A wrong current password is named at its field, and nothing changes.
      await page.getByLabel(text.currentPassword, { exact: true }).fill("not the password at all");
      await page.getByLabel(text.newPassword, { exact: true }).fill("a brand new passphrase");
      await page.getByRole("button", { name: text.changePassword }).click();
      await expect(page.getByLabel(text.currentPassword, { exact: true })).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel(text.currentPassword, { exact: true })).toBeFocused();

      await page.getByLabel(text.currentPassword, { exact: true }).fill(password);
      await page.getByLabel(text.newPassword, { exact: true }).fill("a brand new passphrase");
      await page.getByRole("button", { name: text.changePassword }).click();
      // One other session ended; no passkey to mention.
      await expect(page.getByText(/^(Your password is changed\.|密码已更改)/)).toHaveText(text.passwordChanged(1, 0));
      await expect(sessions).toHaveCount(1);
      await expect(sessions.first()).toContainText(text.thisDevice);
      await shot(page, "account-password-changed", viewport, language);

      // The other device learns it is signed out on its next visit.
      await phone.reload();
      await waitForHydration(phone);
      await expect(phone.getByRole("banner").getByRole("link", { name: layoutMessages[language].signIn, exact: true })).toBeVisible();
      await phone.context().close();

      await expect(api("POST", "/api/user/login", { body: { handle: person.handle, password } })).rejects.toThrow(/INVALID_CREDENTIALS/);
      await api("POST", "/api/user/login", { body: { handle: person.handle, password: "a brand new passphrase" } });

      // This browser proved the password: it is the account's known device now, and a
      // stranger's failures do not lock it out (docs/decisions/061-known-devices.md).
      for (let attempt = 0; attempt < 10; attempt += 1)
        await expect(api("POST", "/api/user/login", { body: { handle: person.handle, password: "a stranger's guess" } })).rejects.toThrow(
          /INVALID_CREDENTIALS/,
        );
      await expect(api("POST", "/api/user/login", { body: { handle: person.handle, password: "a brand new passphrase" } })).rejects.toThrow(
        /SIGN_IN_LOCKED/,
      );
      await page.getByRole("button", { name: layoutMessages[language].signOut, exact: true }).click();
      await open(page, "/login");
      await page.getByLabel(loginMessages[language].handle, { exact: true }).fill(person.handle);
      await page.getByLabel(loginMessages[language].password, { exact: true }).fill("a brand new passphrase");
      await page.getByRole("main").getByRole("button", { name: loginMessages[language].signInTitle, exact: true }).click();
      await expect(signedInName(page)).toHaveText("Ma Lan");
    });

    test("/account lists the remembered devices, this one marked, forgets the phone with the password, then this browser, dropping its token", async ({
      page,
      browser,
      problems,
    }) => {
      problems.allow(/status of 422/);
      const login = loginMessages[language];
      const person = await newPerson("devices", "Gu Hua");
      const phone = await secondDevice(browser, person, language);
      await phone.context().close();
      await contextFor(page.context(), null, language);
      await open(page, "/login?next=%2Faccount");
      await page.getByLabel(login.handle, { exact: true }).fill(person.handle);
      await page.getByLabel(login.password, { exact: true }).fill(password);
      await page.getByRole("main").getByRole("button", { name: login.signInTitle, exact: true }).click();
      await expect(page).toHaveURL(/\/account$/);
      await waitForHydration(page);

      // Three proved the password: the API (newPerson), the phone, and this browser.
      const devices = page.getByTestId("account-devices").getByRole("listitem");
      await expect(devices).toHaveCount(3);
      await expect(devices.first()).toContainText(text.thisDevice);
      await expect(devices.filter({ hasText: "Chrome on Android" })).toHaveCount(1);
      await expectAccessible(page);

      // The password is asked again: a wrong one is named at its field, and nothing is forgotten.
      const forgetPhone = page.getByRole("button", { name: text.forgetLabel("Chrome on Android") });
      const passwordField = page.locator("#account-devices-password");
      await passwordField.fill("not the password at all");
      await forgetPhone.click();
      await expect(passwordField).toHaveAttribute("aria-invalid", "true");
      await expect(devices).toHaveCount(3);

      // Enter in the field forgets nothing: there is no telling which device was meant.
      await passwordField.fill(password);
      await passwordField.press("Enter");
      await page.waitForTimeout(500);
      await expect(devices).toHaveCount(3);
      await expect(passwordField).toHaveValue(password);

      await forgetPhone.click();
      await expect(devices).toHaveCount(2);
      // The button pressed left with its device: focus is on the section's heading, and the
      // password is not kept in the field.
      await expect(page.getByRole("heading", { name: text.devicesTitle })).toBeFocused();
      await expect(passwordField).toHaveValue("");
      await expect(devices.filter({ hasText: "Chrome on Android" })).toHaveCount(0);
      await expect(devices.filter({ hasText: text.thisDevice })).toHaveCount(1);
      await shot(page, "account-devices", viewport, language);

      // Forgetting this browser drops the token it keeps, and no other handle's.
      const keptHandles = () =>
        page.evaluate(() => (JSON.parse(localStorage.getItem("paydesk:known-devices") ?? "[]") as [string, string][]).map(([h]) => h));
      expect(await keptHandles()).toContain(person.handle);
      await page.evaluate(() => {
        const kept = JSON.parse(localStorage.getItem("paydesk:known-devices") ?? "[]") as [string, string][];
        localStorage.setItem("paydesk:known-devices", JSON.stringify([["someone_else", "s".repeat(43)], ...kept]));
      });
      await passwordField.fill(password);
      await page.getByRole("button", { name: new RegExp(text.thisDevice) }).click();
      await expect(devices).toHaveCount(1);
      await expect(devices.filter({ hasText: text.thisDevice })).toHaveCount(0);
      expect(await keptHandles()).toEqual(["someone_else"]);
    });

    test("a stranger's failed sign-ins lock the handle for new browsers only: this one, signed in before, still signs in", async ({
      page,
      browser,
    }) => {
      const login = loginMessages[language];
      const person = await newPerson("known", "Lu Xin");
      const signInOn = async (on: Page) => {
        await open(on, "/login");
        await on.getByLabel(login.handle, { exact: true }).fill(person.handle);
        await on.getByLabel(login.password, { exact: true }).fill(password);
        await on.getByRole("main").getByRole("button", { name: login.signInTitle, exact: true }).click();
      };
      await contextFor(page.context(), null, language);
      await signInOn(page);
      await expect(signedInName(page)).toHaveText("Lu Xin");
      await page.getByRole("button", { name: layoutMessages[language].signOut, exact: true }).click();
      await expect(page.getByRole("banner").getByRole("link", { name: layoutMessages[language].signIn, exact: true })).toBeVisible();

      // A stranger who knows the handle fails ten times, as a script would.
      for (let attempt = 0; attempt < 10; attempt += 1)
        await expect(api("POST", "/api/user/login", { body: { handle: person.handle, password: "a stranger's guess" } })).rejects.toThrow(
          /INVALID_CREDENTIALS/,
        );
      await expect(api("POST", "/api/user/login", { body: { handle: person.handle, password } })).rejects.toThrow(/SIGN_IN_LOCKED/);

      // A browser that never signed in with the password is locked out with the rest, and told so.
      const stranger = await browser.newContext();
      await contextFor(stranger, null, language);
      const strangerPage = await stranger.newPage();
      await signInOn(strangerPage);
      const [lockedWords] = errorMessages[language].SIGN_IN_LOCKED.split("{wait}");
      await expect(strangerPage.getByRole("alert")).toContainText(lockedWords ?? "");
      await shot(strangerPage, "login-locked", viewport, language);
      await stranger.close();

      // This browser is a known device: the right password signs it in.
      await signInOn(page);
      await expect(page).toHaveURL(new RegExp(`${e2eBaseUrl}/$`));
      await expect(signedInName(page)).toHaveText("Lu Xin");
    });

    test("a recovery code and the handle set a new password on /recover, and every old session ends", async ({ page }) => {
      const person = await newPerson("recover", "Fang Yi");
      const { codes } = await api<{ codes: string[] }>("POST", "/api/account/recovery-codes", { token: person.token, body: { password } });
      await contextFor(page.context(), null, language);
      await open(page, "/login");
      await page.getByRole("link", { name: loginMessages[language].forgotPassword }).click();
      await expect(page).toHaveURL(/\/recover$/);
      await waitForHydration(page);
      await page.getByLabel(recover.handle, { exact: true }).fill(person.handle);
      // Typed as a person might: lower case, no dashes.
      await page.getByLabel(recover.code, { exact: true }).fill((codes[4] ?? "").replaceAll("-", "").toLowerCase());
      await page.getByLabel(recover.newPassword, { exact: true }).fill("recovered passphrase");
      await expectAccessible(page);
      await shot(page, "recover", viewport, language);
      await page.getByRole("button", { name: recover.setPassword }).click();

      await expect(page.getByText(recover.recovered)).toBeVisible();
      await expect(signedInName(page)).toHaveText("Fang Yi");
      await expect(api("POST", "/api/user/session", { token: person.token })).rejects.toThrow(/UNAUTHENTICATED/);
      await page.getByRole("link", { name: recover.toAccount }).click();
      // The account was taken back: the rest of the set ended with it, and the page says to make new ones.
      await expect(page.getByTestId("recovery-codes-status")).toContainText(text.codesRemaining(0));
      await expect(page.getByText(text.codesLow)).toBeVisible();
    });

    test("one admin asks for a recovery link in the console, another approves it, the first issues it; the person opens it and sets a new password", async ({
      page,
      browser,
    }) => {
      const person = await newPerson("linked", "Tang Wen");
      const { id } = await api<{ id: string }>("POST", "/api/user/session", { token: person.token });
      const ops = opsMessages[language];
      await contextFor(page.context(), { ...person, token: admin.token }, language);
      await open(page, `/ops/people/${id}`);
      await page.getByLabel(ops.recoveryLinkReason, { exact: true }).fill("Video call; their ID card matched");
      await page.getByRole("button", { name: ops.recoveryLinkAsk }).click();
      const requests = page.getByTestId("ops-recovery-requests").getByRole("listitem");
      await expect(requests).toHaveCount(1);
      await expect(requests.first()).toContainText(ops.yourRecoveryLinkWaits);
      // Whoever asked may neither approve it nor issue it yet.
      await expect(requests.first().getByRole("button", { name: ops.approve })).toHaveCount(0);
      await expect(requests.first().getByRole("button", { name: ops.recoveryLinkIssue })).toHaveCount(0);

      // The second admin finds it on the people desk and approves it on the person's page.
      const second = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      await contextFor(second, { ...person, token: secondAdmin.token }, language);
      const secondPage = await second.newPage();
      await open(secondPage, "/ops/people");
      const waiting = secondPage.getByTestId("ops-recovery-links-waiting");
      await waiting.getByRole("link", { name: `Tang Wen (@${person.handle})` }).click();
      await waitForHydration(secondPage);
      const line = secondPage.getByTestId("ops-recovery-requests").getByRole("listitem").first();
      await expect(line).toContainText("Video call; their ID card matched");
      await expectAccessible(secondPage);
      await shot(secondPage, "ops-recovery-link-approve", viewport, language);
      await line.getByRole("button", { name: ops.approve }).click();
      await expect(line).toContainText(ops.recoveryLinkApproved);
      // The approver may not issue it, and never sees the link.
      await expect(line).toContainText(ops.recoveryLinkWaitsForIssuer(admin.displayName));
      await expect(secondPage.getByRole("button", { name: ops.recoveryLinkIssue })).toHaveCount(0);
      await expect(secondPage.getByTestId("ops-recovery-link")).toHaveCount(0);
      await second.close();

      await page.reload();
      await waitForHydration(page);
      await page.getByTestId("ops-recovery-requests").getByRole("button", { name: ops.recoveryLinkIssue }).click();
      const link = await page.getByTestId("ops-recovery-link").innerText();
      expect(link).toMatch(/\/recover\?link=[A-Za-z0-9_-]{43}$/);
      await shot(page, "ops-recovery-link", viewport, language);

      const secret = new URL(link).searchParams.get("link") ?? "";
      const visitor = await browser.newContext();
      await contextFor(visitor, null, language);
      const personPage = await visitor.newPage();
      // This second browser's page is held to what the fixture holds every page to (fixtures.ts):
      // no page error, and no console error but the refused link's 401.
      const personProblems: string[] = [];
      personPage.on("console", (message) => {
        if (["error", "warning"].includes(message.type())) personProblems.push(message.text());
      });
      personPage.on("pageerror", (error) => personProblems.push(error.message));
      await personPage.goto(new URL(link).pathname + new URL(link).search);
      await waitForHydration(personPage);
      await expect(personPage.getByText(recover.linkLead)).toBeVisible();
      await expect(personPage.getByLabel(recover.handle, { exact: true })).toHaveCount(0);
      // The link leaves the address bar and the page at once; the tab holds it,
      // through a reload too (docs/decisions/052-recovery-link-leaves-the-address-bar.md).
      expect(new URL(personPage.url()).search).toBe("");
      expect(await personPage.content()).not.toContain(secret);
      await personPage.reload();
      await waitForHydration(personPage);
      await expect(personPage.getByText(recover.linkLead)).toBeVisible();
      await personPage.getByLabel(recover.newPassword, { exact: true }).fill("set from a link");
      await personPage.getByRole("button", { name: recover.setPassword }).click();
      await expect(personPage.getByText(recover.recovered)).toBeVisible();
      expect(new URL(personPage.url()).search).toBe("");
      // Used, it is let go: opened again, the same link is refused and the form asks for a code.
      expect(await personPage.evaluate(() => Object.values(window.sessionStorage))).not.toContain(secret);
      await personPage.goto(new URL(link).pathname + new URL(link).search);
      await waitForHydration(personPage);
      await personPage.getByLabel(recover.newPassword, { exact: true }).fill("another new password");
      await personPage.getByRole("button", { name: recover.setPassword }).click();
      await expect(personPage.getByRole("alert")).toContainText(errorMessages[language].INVALID_RECOVERY);
      await expect(personPage.getByLabel(recover.handle, { exact: true })).toBeVisible();
      expect(personProblems.filter((text) => !/status of 401/.test(text))).toEqual([]);
      await visitor.close();

      await api("POST", "/api/user/login", { body: { handle: person.handle, password: "set from a link" } });
      const audit = await api<{ rows: { action: string; reason: string | null }[] }>("GET", `/api/ops/audit?objectId=${id}`, {
        token: admin.token,
      });
      expect(audit.rows.map((row) => [row.action, row.reason])).toEqual(
        expect.arrayContaining([
          ["person.recovery_link_request", "Video call; their ID card matched"],
          ["person.recovery_link_approve", null],
          ["person.recovery_link", "Video call; their ID card matched"],
        ]),
      );
    });
  });
}

test("a recovery link cut short is refused in the form's words and let go: the form asks for a code", async ({ page, problems }) => {
  const recover = recoverMessages.en;
  problems.allow(/status of 400/);
  await contextFor(page.context(), null, "en");
  await open(page, "/recover?link=AbCdEfGh");
  expect(new URL(page.url()).search).toBe("");
  await expect(page.getByText(recover.linkLead)).toBeVisible();
  await page.getByLabel(recover.newPassword, { exact: true }).fill("a new password for me");
  await page.getByRole("button", { name: recover.setPassword }).click();
  await expect(page.getByRole("alert")).toContainText(recover.fields.link);
  await expect(page.getByLabel(recover.handle, { exact: true })).toBeVisible();
  // Let go for good: opened again without a link, the tab offers the code's form at once.
  await open(page, "/recover");
  await expect(page.getByLabel(recover.handle, { exact: true })).toBeVisible();
});
