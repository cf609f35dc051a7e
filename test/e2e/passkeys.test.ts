/**
 * Passkeys in Chromium (docs/decisions/025-passkeys.md): a person adds one on /account and
 * signs in with it on /login, through Chromium's virtual authenticator (CDP's WebAuthn
 * domain: a CTAP2 platform authenticator with resident keys and user verification). WebAuthn
 * needs a domain as its relying party, so these pages are visited at http://localhost:<port>
 * (serve.ts allows that origin).
 */
import type { CDPSession, Page } from "@playwright/test";
import { e2ePort } from "./e2e-env.ts";
import { expect, test, waitForHydration } from "./fixtures.ts";
import { expectAccessible, newPerson, password, type Person } from "./journey-kit.ts";

const site = `http://localhost:${e2ePort}`;

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${site}${path}`);
  await waitForHydration(page);
}

async function signInWithPassword(page: Page, person: Person, next: string): Promise<void> {
  await open(page, `/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Handle").fill(person.handle);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${next}$`));
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
}

test.describe("passkeys", () => {
  test("added on /account, renamed, then signing in with it on /login after signing out; removed, it signs in no more", async ({
    page,
    problems,
  }) => {
    problems.allow(/status of 401/);
    // A wrong password when adding: 422 WRONG_PASSWORD, shown at the field.
    problems.allow(/status of 422/);
    await page.setViewportSize({ width: 360, height: 740 });
    const person = await newPerson("passkey", "Pass Key");
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    await signInWithPassword(page, person, "/account");
    // The navigation lists the account's page once someone is signed in.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const section = page.getByTestId("passkeys-section");
    await expect(section.getByText("You have no passkeys yet.")).toBeVisible();

    // Adding asks for a name first, and refuses none.
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByText("Give the passkey a name of up to 64 characters.")).toBeVisible();
    await expect(section.getByLabel("Name")).toBeFocused();
    await section.getByLabel("Name").fill("Test phone");
    // Then the password: a session alone, which a thief may hold, adds no passkey.
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByText("Enter your password.")).toBeVisible();
    await expect(section.getByLabel("Password")).toBeFocused();
    await section.getByLabel("Password").fill("not the password");
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByText("That is not your current password.")).toBeVisible();
    expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(0);
    await section.getByLabel("Password").fill(password);
    await section.getByRole("button", { name: "Add a passkey" }).click();
    const item = section.getByRole("listitem").filter({ hasText: "Test phone" });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Not used yet");
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe("localhost");

    await expectAccessible(page);
    await section.screenshot({ path: "test-results/screens/passkeys-section-360x740.png" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: "test-results/screens/account-passkeys-1280x800.png", fullPage: true });

    // Rename, by keyboard: the field takes focus, Enter saves, focus comes back to the buttons.
    await item.getByRole("button", { name: "Rename Test phone" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("New name")).toBeFocused();
    await page.getByLabel("New name").fill("Work phone");
    await page.keyboard.press("Enter");
    const renamed = section.getByRole("listitem").filter({ hasText: "Work phone" });
    await expect(renamed).toBeVisible();
    await expect(renamed.getByRole("button", { name: "Rename Work phone" })).toBeFocused();

    // A passkey outlives a password change (the sign-ins below use it after one): the answer says so.
    await page.getByLabel("Current password", { exact: true }).fill(password);
    await page.getByLabel("New password", { exact: true }).fill("another long passphrase");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Your password is changed." })).toHaveText(
      // The other session is the one newPerson signed in through the API.
      "Your password is changed. 1 other session was signed out. Your passkey still signs in: remove it below if you do not recognise it.",
    );

    // Without presence the virtual authenticator holds the browser's autofill request open,
    // as a person would who has not picked a passkey yet: the page as it waits.
    await signOut(page);
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    await open(page, "/login");
    await expect(page.getByLabel("Handle")).toHaveAttribute("autocomplete", "username webauthn");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: "test-results/screens/login-passkey-1280x800.png", fullPage: true });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: "test-results/screens/login-passkey-360x740.png", fullPage: true });

    // The button: its request replaces the waiting autofill one, and the person is present.
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await page.getByRole("button", { name: "Sign in with a passkey" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${site}/`);
    await expect(page.locator(".account-name")).toHaveText("Pass Key");
    // The session survives a reload like a password's.
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator(".account-name")).toHaveText("Pass Key");

    // The autofill: with the person present, Chromium's authenticator answers the page's
    // conditional request at once, as picking the passkey in the handle's suggestions does.
    await signOut(page);
    await open(page, "/login?next=%2Faccount");
    await expect(page).toHaveURL(`${site}/account`);
    await expect(page.locator(".account-name")).toHaveText("Pass Key");
    await expect(section.getByRole("listitem").filter({ hasText: "Work phone" })).not.toContainText("Not used yet");

    // Removing asks first; "Cancel" keeps it.
    await section.getByRole("button", { name: "Remove Work phone" }).click();
    await expect(section.getByText("Remove “Work phone”? It will no longer sign you in.")).toBeFocused();
    await section.getByRole("button", { name: "Cancel" }).click();
    await expect(section.getByRole("button", { name: "Remove Work phone" })).toBeFocused();
    await section.getByRole("button", { name: "Remove Work phone" }).click();
    await section.getByRole("button", { name: "Yes, remove it" }).click();
    await expect(section.getByText("You have no passkeys yet.")).toBeVisible();

    // The device still holds it and offers it; Paydesk no longer takes it.
    await signOut(page);
    await open(page, "/login");
    await expect(page.getByRole("alert")).toHaveText(
      "That passkey is not on any Paydesk account. It may have been removed: sign in with your password.",
    );
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  });

  test("in Simplified Chinese, the section and the sign-in button speak it too", async ({ page, context }) => {
    await context.addCookies([{ name: "lang", value: "zh-CN", url: site }]);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: false });
    const person = await newPerson("passkey_zh", "Tong Xing");
    await open(page, "/login?next=%2Faccount");
    await expect(page.getByRole("button", { name: "使用通行密钥登录" })).toBeVisible();
    await page.getByLabel("用户名").fill(person.handle);
    await page.getByLabel("密码").fill(password);
    await page.getByRole("button", { name: "登录", exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    await cdp.send("WebAuthn.setAutomaticPresenceSimulation", { authenticatorId, enabled: true });
    await expect(page.getByRole("heading", { name: "通行密钥", exact: true })).toBeVisible();
    await page.getByTestId("passkeys-section").getByLabel("名称", { exact: true }).fill("我的手机");
    await page.getByTestId("passkeys-section").getByLabel("密码", { exact: true }).fill(password);
    await page.getByRole("button", { name: "添加通行密钥" }).click();
    await expect(page.getByTestId("passkeys-section").getByRole("listitem").filter({ hasText: "我的手机" })).toContainText("尚未使用");
    await expectAccessible(page);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: "test-results/screens/account-passkeys-360x740-zh-CN.png", fullPage: true });
  });

  test("a device's refusal is told in the page's language: a passkey the device already holds, on /account; a request it finds none for, on /login", async ({
    page,
    context,
  }) => {
    const person = await newPerson("passkey_no", "No Key");
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await signInWithPassword(page, person, "/account");
    const section = page.getByTestId("passkeys-section");
    await section.getByRole("textbox", { name: "Name" }).fill("Phone");
    await section.getByLabel("Password").fill(password);
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByRole("listitem").filter({ hasText: "Phone" })).toBeVisible();
    // The origin lists the account's passkeys for the device to exclude: this one refuses.
    await section.getByRole("textbox", { name: "Name" }).fill("Phone again");
    await section.getByLabel("Password").fill(password);
    await section.getByRole("button", { name: "Add a passkey" }).click();
    await expect(section.getByRole("alert")).toContainText("This device already holds a passkey for your account.");
    await expect(section.getByRole("listitem")).toHaveCount(1);

    // In Simplified Chinese, on a device that holds no passkey for Paydesk: the refusal comes
    // with the ceremony's code, in the document's language.
    await signOut(page);
    await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
    await virtualAuthenticator(page);
    await context.addCookies([{ name: "lang", value: "zh-CN", url: site }]);
    await open(page, "/login");
    await page.getByRole("button", { name: "使用通行密钥登录" }).click();
    await expect(page.getByRole("alert")).toHaveText("通行密钥请求已取消或超时。准备好后请重试。");
    await expect(page.getByRole("button", { name: "使用通行密钥登录" })).toBeEnabled();
  });

  test("/login's form and passkey button are there from the first paint where the browser has passkeys, the button not at all where it has none", async ({
    browser,
  }) => {
    // The module scripts are held back (never answered: a failed one would bring up the
    // chunk loader's explanation), so what shows is the server's HTML and the head's scripts.
    const beforeHydration = async (withPasskeys: boolean) => {
      const context = await browser.newContext();
      if (!withPasskeys) await context.addInitScript(() => Reflect.deleteProperty(window, "PublicKeyCredential"));
      const page = await context.newPage();
      await page.route(/\/assets\/.+\.js$/, () => {});
      // Neither "load" nor DOMContentLoaded comes while the module scripts are held back.
      await page.goto(`${site}/login`, { waitUntil: "commit" });
      await expect(page.getByLabel("Handle")).toBeVisible();
      const button = page.getByRole("button", { name: "Sign in with a passkey" });
      await (withPasskeys ? expect(button).toBeVisible() : expect(button).toBeHidden());
      // The form shows before the page can send it: it waits for start-up, disabled.
      await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeDisabled();
      await context.close();
    };
    await beforeHydration(true);
    await beforeHydration(false);

    // Hydrated, nothing on the page moves: the button was not added above the form late.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { layoutShifts: shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) shifts.push((entry as PerformanceEntry & { value: number }).value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    await open(page, "/login");
    await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts)).toEqual([]);
    await context.close();
  });
});
