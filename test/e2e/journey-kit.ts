/**
 * What the browser journeys share: people and money set up through the real API (so a
 * journey spends its time on the screen it is about), accessibility checks with axe-core,
 * and screenshots under test-results/journeys/.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Download, Page } from "@playwright/test";
import type { Language } from "#app/i18n/languages";
import { e2eAdminToken, e2eBaseUrl } from "./e2e-env.ts";
import { expect, waitForHydration } from "./fixtures.ts";

export const viewports = [
  { name: "360x740", width: 360, height: 740 },
  { name: "1280x800", width: 1280, height: 800 },
] as const;
export type Viewport = (typeof viewports)[number];

export const password = "a long enough password";

let serial = 0;
/** A handle no other run of the suite has used (the e2e database lives for one run). */
export function uniqueHandle(prefix: string): string {
  serial += 1;
  return `${prefix}_${Date.now().toString(36)}${serial}`.slice(0, 32);
}

type Envelope<T> = { code: string; data: T; message?: string; field?: string };

export async function api<T>(
  method: "GET" | "POST",
  path: string,
  { token, body, key }: { token?: string; body?: unknown; key?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === "POST") headers["Idempotency-Key"] = key ?? crypto.randomUUID();
  const response = await fetch(`${e2eBaseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = (await response.json()) as Envelope<T>;
  if (answer.code !== "SUCCESS") throw new Error(`${method} ${path}: ${answer.code} ${answer.message ?? ""}`);
  return answer.data;
}

export type Person = { handle: string; displayName: string; token: string };

/** Registers and signs in through the API. */
export async function newPerson(prefix: string, displayName: string): Promise<Person> {
  const handle = uniqueHandle(prefix);
  await api("POST", "/api/user/register", { body: { handle, password, displayName } });
  const { token } = await api<{ token: string }>("POST", "/api/user/login", { body: { handle, password } });
  return { handle, displayName, token };
}

/** Prepaid codes issued by the operator API, as `npm run codes` would. */
export async function issueCode(valueFen: number): Promise<string> {
  const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
  const { codes } = await api<{ codes: string[] }>("POST", "/api/admin/codes", {
    token: e2eAdminToken,
    body: { value: valueFen, count: 1, expiresAt },
  });
  return codes[0]!;
}

export async function fund(person: Person, valueFen: number): Promise<void> {
  await api("POST", "/api/codes/redeem", { token: person.token, body: { code: await issueCode(valueFen) } });
}

export async function balances(person: Person): Promise<{ available: number; held: number }> {
  return (await api<{ balances: { available: number; held: number } }>("POST", "/api/user/session", { token: person.token })).balances;
}

/** A browser context signed in as `person` (the token where the token helper keeps it), in a language. */
export async function contextFor(context: BrowserContext, person: Person | null, language: Language): Promise<void> {
  await context.addCookies([{ name: "lang", value: language, url: e2eBaseUrl }]);
  if (!person) return;
  // Once per tab, top frame only: a later sign-out (or a frame a library makes) must not
  // see the token put back.
  await context.addInitScript((token) => {
    if (window.top !== window || window.sessionStorage.getItem("e2e:token-set")) return;
    window.sessionStorage.setItem("e2e:token-set", "1");
    window.localStorage.setItem("paydesk:token", token);
  }, person.token);
}

export async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

/** `path` opened in a browser context of its own, as `person`, at `viewport`; close it with `page.context().close()`. */
export async function openAs(browser: Browser, person: Person | null, language: Language, viewport: Viewport, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
  await contextFor(context, person, language);
  const page = await context.newPage();
  await open(page, path);
  return page;
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
  expect(serious).toEqual([]);
}

/** Takes the screen's picture, once it is sure the screen fits its width: nothing scrolls sideways on a phone. */
export async function shot(page: Page, name: string, viewport: Viewport, language: Language): Promise<void> {
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(wider, `${name} at ${viewport.name} [${language}] is ${wider} px wider than its screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/journeys/${name}-${viewport.name}-${language}.png`, fullPage: true });
}

/** A datetime-local value `hours` from now in China Standard Time, as the task form reads it. */
export function chinaDateTime(hoursFromNow: number): string {
  return new Date(Date.now() + (hoursFromNow + 8) * 3600 * 1000).toISOString().slice(0, 16);
}

/** A file the page downloaded, read back as text. */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
