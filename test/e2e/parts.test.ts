/**
 * What a screen shows only to someone signed in, and what runs on a submit, are parts fetched
 * on first use (app/startup/on-first-use.ts, docs/decisions/043-screens-after-start-up.md):
 * a signed-out visit never fetches them; a signed-in one fetches them beside the session
 * call; one that fails is handled as a route chunk that fails.
 */
import { loginMessages } from "#app/messages/login";
import { transferMessages } from "#app/messages/transfer";
import { errorMessages, partNeedsReloadMessages } from "./error-messages.ts";
import { clearEnvelopes, envelopesMentioning, expect, test, waitForHydration } from "./fixtures.ts";
import { contextFor, newPerson, open, password } from "./journey-kit.ts";

const signedInParts = /\/assets\/(wallet-overview|task-lists|transfer-steps)\.client-[^/]+\.js$/;
// With or without the query of a retry (app/startup/on-first-use.ts).
const transferSteps = /\/assets\/transfer-steps\.client-[^/]+\.js(\?.*)?$/;

/** The parts' file names this page asked for, as they are asked for. */
function partsRequested(page: import("@playwright/test").Page): string[] {
  const requested: string[] = [];
  page.on("request", (request) => {
    const match = signedInParts.exec(new URL(request.url()).pathname);
    if (match?.[1]) requested.push(match[1]);
  });
  return requested;
}

test("a signed-out visit never fetches what only someone signed in sees; a signed-in one does", async ({ browser }) => {
  const pages = ["/", "/task", "/transfer"];
  const signedOut = await browser.newContext();
  const outPage = await signedOut.newPage();
  const outParts = partsRequested(outPage);
  for (const path of pages) {
    await open(outPage, path);
    // Past the moment a signed-in visit has asked for its part (idle work included).
    await outPage.waitForLoadState("networkidle");
  }
  expect(outParts).toEqual([]);
  await signedOut.close();

  const person = await newPerson("parts", "Lin Feng");
  const signedIn = await browser.newContext();
  await contextFor(signedIn, person, "en");
  const inPage = await signedIn.newPage();
  const inParts = partsRequested(inPage);
  for (const path of pages) {
    await open(inPage, path);
    await inPage.waitForLoadState("networkidle");
  }
  expect(inParts).toEqual(["wallet-overview", "task-lists", "transfer-steps"]);
  await signedIn.close();
});

test("a signed-in visit fetches its screen's part beside the session call, not after it", async ({ page }) => {
  const person = await newPerson("parts_early", "Song Jia");
  await contextFor(page.context(), person, "en");
  const events: string[] = [];
  // The session call held back for a second: the part must not wait for its answer.
  await page.route("**/api/user/session", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    events.push("session answered");
    await route.continue();
  });
  page.on("request", (request) => {
    if (transferSteps.test(new URL(request.url()).pathname)) events.push("part requested");
  });
  await open(page, "/transfer");
  await expect(page.getByLabel(transferMessages.en.recipient, { exact: true })).toBeVisible();
  expect(events).toEqual(["part requested", "session answered"]);
});

test("a part that fails after a deploy reloads the page once, then explains and is reported", async ({ page, problems }) => {
  problems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  await clearEnvelopes();
  const person = await newPerson("parts_fail", "He Lan");
  await contextFor(page.context(), person, "en");
  await page.route(transferSteps, (route) => route.fulfill({ status: 404, body: "Not found" }));
  let documentLoads = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "document") documentLoads += 1;
  });

  await page.goto("/transfer");
  await expect(page.getByRole("heading", { name: "This part of Paydesk could not load" })).toBeVisible();
  expect(documentLoads).toBe(2);
  const reports = await envelopesMentioning("Loading chunk transfer-steps failed");
  expect(reports.length).toBeGreaterThan(0);

  // Reload is offered and works once the part is back.
  await page.unroute(transferSteps);
  await page.getByRole("button", { name: "Reload the page" }).click();
  await waitForHydration(page);
  await expect(page.getByLabel(transferMessages.en.recipient, { exact: true })).toBeVisible();
});

test("/login fetches what a submit runs once the browser is idle, before anyone submits", async ({ page }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(new URL(request.url()).pathname));
  await open(page, "/login");
  await expect.poll(() => requested.filter((path) => /\/assets\/login-actions\.client-[^/]+\.js$/.test(path)).length).toBe(1);
  // Signed out, with a password: neither the recovery codes nor the passkey ceremony is needed yet.
  expect(requested.filter((path) => /\/assets\/new-account-codes\.client-/.test(path))).toEqual([]);
});

test("a sign-in whose code cannot be fetched sends nothing, keeps the form and says why; the next one signs in", async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  const person = await newPerson("parts_submit", "Xu Qing");
  const loginActions = /\/assets\/login-actions\.client-[^/]+\.js(\?.*)?$/;
  await page.route(loginActions, (route) => route.abort("failed"));
  let documentLoads = 0;
  let signIns = 0;
  page.on("request", (request) => {
    if (request.resourceType() === "document") documentLoads += 1;
    if (new URL(request.url()).pathname === "/api/user/login") signIns += 1;
  });
  const text = loginMessages.en;
  await open(page, "/login");
  await page.getByLabel(text.handle, { exact: true }).fill(person.handle);
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByRole("button", { name: text.signInTitle, exact: true }).click();
  await expect(page.getByText(errorMessages.en.ORIGIN_UNAVAILABLE).first()).toBeVisible();
  // Its own file did not come, so trying again may mend it: no word of a reload.
  await expect(page.getByText(partNeedsReloadMessages.en)).toHaveCount(0);
  expect(documentLoads).toBe(1);
  expect(signIns).toBe(0);
  await expect(page.getByLabel(text.handle, { exact: true })).toHaveValue(person.handle);

  await page.unroute(loginActions);
  await page.getByRole("button", { name: text.signInTitle, exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(signIns).toBe(1);
  expect(documentLoads).toBe(1);
});

test("a signed-in navigation to a screen waits for its part, and never shows the screen with a spinner in it", async ({ page }) => {
  const person = await newPerson("parts_nav", "Tang Yi");
  await contextFor(page.context(), person, "en");
  await open(page, "/help");
  // The part held back: a screen drawn before it arrived would show its spinner meanwhile.
  await page.route(transferSteps, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 600));
    await route.continue();
  });
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { spinnersSeen: string[] }).spinnersSeen = seen;
    new MutationObserver(() => {
      const spinner = document.querySelector("main .spinner");
      if (spinner) seen.push(spinner.textContent ?? "");
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Transfer" }).click();
  await expect(page.getByLabel(transferMessages.en.recipient, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { spinnersSeen: string[] }).spinnersSeen)).toEqual([]);
});
