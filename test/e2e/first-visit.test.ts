/**
 * What a first visit loads, and when (docs/decisions/029-first-paint-and-first-visit.md):
 * the page paints from its HTML alone; the error messages come once the page is
 * interactive, in its language only; a refusal met before them still reads well.
 */
import { layoutCatalogue as layoutMessages } from "#app/messages/layout.server";
import { paymentMessages } from "#app/messages/payment";
import { transferMessages } from "#app/messages/transfer";
import { errorMessages, partNeedsReloadMessages } from "./error-messages.ts";
import { expect, test } from "./fixtures.ts";
import { api, contextFor, newPerson, open } from "./journey-kit.ts";

const errorCatalogue = /\/assets\/(en|zh-CN)-[^/]+\.js$/;

test("a page is styled from its HTML alone, without scripts or a style sheet request", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.goto("/help");
  await expect(page.getByRole("heading", { level: 1, name: "Help" })).toBeVisible();
  // The layout's rules apply: the header's bar is a flex row.
  expect(await page.locator(".app-header-bar").evaluate((bar) => getComputedStyle(bar).display)).toBe("flex");
  expect(requested.filter((url) => url.endsWith(".css"))).toEqual([]);
  await context.close();
});

test("the error messages are no part of the page's first load, and come in the page's language only", async ({ page }) => {
  const catalogues: string[] = [];
  page.on("request", (request) => {
    const match = errorCatalogue.exec(new URL(request.url()).pathname);
    if (match?.[1]) catalogues.push(match[1]);
  });
  // Neither preloaded nor imported by the page: start-up fetches it once the browser is idle.
  const html = await (await page.request.get("/")).text();
  expect(html).not.toMatch(/\/assets\/(en|zh-CN)-[^"']+\.js/);
  await open(page, "/");
  await expect.poll(() => catalogues, { timeout: 10_000 }).toEqual(["en"]);

  await page.context().addCookies([{ name: "lang", value: "zh-CN", url: page.url() }]);
  catalogues.length = 0;
  await open(page, "/help");
  await expect.poll(() => catalogues, { timeout: 10_000 }).toEqual(["zh-CN"]);
});

test("a refusal reads the catalogue's message, and says Paydesk cannot be reached when the catalogue cannot be fetched", async ({
  page,
  problems,
}) => {
  problems.allow(/status of 404|Failed to load resource|Failed to fetch dynamically imported module/);
  const person = await newPerson("firstvisit", "Zhao Min");
  await contextFor(page.context(), person, "en");
  const text = transferMessages.en;
  // The review looks the recipient up: the origin refuses a handle nobody has.
  const reviewNobody = async () => {
    await page.getByLabel(text.recipient, { exact: true }).fill("nobody_by_this_name");
    await page.getByLabel(text.amount, { exact: true }).fill("1");
    await page.getByRole("button", { name: text.review }).click();
  };

  await open(page, "/transfer");
  await reviewNobody();
  await expect(page.getByText(errorMessages.en.RECIPIENT_NOT_FOUND).first()).toBeVisible();

  // A new visit whose catalogue never arrives (the network failing just then).
  await page.route(errorCatalogue, (route) => route.abort("failed"));
  await open(page, "/transfer");
  await reviewNobody();
  await expect(page.getByText("Paydesk is not reachable right now. Check your connection and try again.").first()).toBeVisible();
  await expect(page.getByText(errorMessages.en.RECIPIENT_NOT_FOUND)).toHaveCount(0);
});

test("the styles stay when the root's error boundary draws the page anew", async ({ page, problems }) => {
  problems.allow(/status of 404/);
  const person = await newPerson("firstvisit_404", "Qian Yu");
  await contextFor(page.context(), person, "en");
  // Not an operator: the back office turns into the ordinary 404 page in the browser.
  await open(page, "/ops");
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  expect(await page.locator(".app-header-bar").evaluate((bar) => getComputedStyle(bar).display)).toBe("flex");
  expect(await page.locator("head style").count()).toBe(1);
});

// zod, which the forms' rules build on: it comes with a group of schemas, or with what a
// signed-out form runs on a submit (docs/decisions/067-form-rules-with-their-form.md). With or without the query of a retry
// (app/startup/on-first-use.ts): the network is down for all of them.
const zodChunk = /\/assets\/zod-[^/]+\.js(\?.*)?$/;

test("the forms' rules are no part of a first load: a page with a form fetches them once idle, a page without never", async ({ page }) => {
  const fetched: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (zodChunk.test(pathname)) fetched.push(pathname);
  });
  const loginCalls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/user/login") loginCalls.push(request.method());
  });
  for (const path of ["/help", "/login", "/transfer"]) {
    expect(await (await page.request.get(path)).text()).not.toMatch(/zod-/);
  }

  // Without a form: the page settles (its error messages arrive once idle) and no rules come.
  const catalogue = page.waitForRequest(errorCatalogue);
  await open(page, "/help");
  await catalogue;
  await page.waitForTimeout(500);
  expect(fetched).toEqual([]);

  await open(page, "/login");
  await expect.poll(() => fetched.length, { timeout: 10_000 }).toBe(1);
  // The form is checked with them before anything is sent.
  await page.getByLabel("Handle").fill("x");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("A handle has 3 to 32 lower-case letters, digits or underscores.")).toBeVisible();
  expect(loginCalls).toEqual([]);
  expect(fetched).toHaveLength(1);
});

test("a form whose rules cannot be fetched sends nothing, keeps what was typed and says only a reload brings them", async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  const loginCalls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/user/login") loginCalls.push(request.method());
  });
  await page.route(zodChunk, (route) => route.abort("failed"));
  await open(page, "/login");
  await page.getByLabel("Handle").fill("x");
  await page.getByLabel("Password").fill("a long enough password");
  const signIn = page.getByRole("button", { name: "Sign in", exact: true });
  await signIn.click();
  // The browser remembers the failed address of a chunk that the part imports for the life of
  // the page, so trying again cannot help, and the form does not say it would
  // (docs/decisions/068-a-part-that-needs-a-reload-says-so.md).
  await expect(page.getByText(partNeedsReloadMessages.en)).toBeVisible();
  // The second try fetches the part's own file afresh (decision 043), which arrives, and
  // judges that address: still only a reload helps.
  const retried = page.waitForResponse((response) => /\/assets\/login-actions\.client-[^/]+\.js\?retry=\d+$/.test(response.url()));
  await signIn.click();
  expect((await retried).status()).toBe(200);
  await expect(signIn).toBeEnabled();
  await expect(page.getByText(partNeedsReloadMessages.en)).toBeVisible();
  await expect(page.getByText(errorMessages.en.ORIGIN_UNAVAILABLE)).toHaveCount(0);
  expect(loginCalls).toEqual([]);
  await expect(page.getByLabel("Handle")).toHaveValue("x");

  // A reload does bring them: the form is checked before anything is sent.
  await page.unroute(zodChunk);
  await page.reload();
  await page.getByLabel("Handle").fill("x");
  await page.getByLabel("Password").fill("a long enough password");
  await signIn.click();
  await expect(page.getByText("A handle has 3 to 32 lower-case letters, digits or underscores.")).toBeVisible();
  expect(loginCalls).toEqual([]);
});

test("a signed-in screen is drawn without its forms' rules; when they cannot come, its form sends nothing and says a reload is needed", async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  const person = await newPerson("firstvisit_rules", "Zhou Li");
  await contextFor(page.context(), person, "en");
  let documentLoads = 0;
  const lookups: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documentLoads += 1;
    if (new URL(request.url()).pathname === "/api/users/lookup") lookups.push(request.url());
  });
  await page.route(zodChunk, (route) => route.abort("failed"));
  await open(page, "/transfer");
  const text = transferMessages.en;
  // The transfer's part has come and drawn its form: zod is no part of it (decision 067).
  await page.getByLabel(text.recipient, { exact: true }).fill("someone_else");
  await page.getByLabel(text.amount, { exact: true }).fill("1");
  await page.getByRole("button", { name: text.review }).click();
  await expect(page.getByText(partNeedsReloadMessages.en)).toBeVisible();
  expect(lookups).toEqual([]);
  expect(documentLoads).toBe(1);
  await expect(page.getByLabel(text.recipient, { exact: true })).toHaveValue("someone_else");
});

test("a payment screen whose order cannot be read until a reload offers the reload, not a try again that cannot help", async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource|Failed to fetch dynamically imported module/);
  const person = await newPerson("firstvisit_reload", "Qian Yu");
  const order = await api<{ id: string }>("POST", "/api/orders/recharge", { token: person.token, body: { amount: 3_000 } });
  await contextFor(page.context(), person, "en");
  await page.route(zodChunk, (route) => route.abort("failed"));
  await open(page, `/pay?order=${order.id}`);
  // The order is read with its schema, which zod's failed address keeps from coming
  // (docs/decisions/068-a-part-that-needs-a-reload-says-so.md).
  const layout = layoutMessages.en;
  await expect(page.getByText(layout.chunkBody)).toBeVisible();
  await expect(page.getByRole("button", { name: layout.tryAgain })).toHaveCount(0);
  await page.unroute(zodChunk);
  await page.getByRole("button", { name: layout.reload }).click();
  await expect(page.getByRole("heading", { name: paymentMessages.en.method })).toBeVisible();
  await expect(page.getByText(layout.chunkBody)).toHaveCount(0);
});
