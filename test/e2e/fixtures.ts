import { test as base, expect, type Page } from "@playwright/test";
import { sentrySinkUrl } from "./e2e-env.ts";

/** What the app's start-up puts on window (app/startup/run-startup.ts). */
export type PaydeskWindow = { paydesk?: { isMobile: boolean; isShortLinkHost: boolean; user: unknown; hydrated?: boolean } };

export type Envelope = { path: string; header: unknown; items: unknown[] };

type Problems = { messages: string[]; allow(pattern: RegExp): void };

/**
 * Every page fails its test on a console error or warning, a page error or a
 * hydration problem, unless the test says it expects that message.
 */
export const test = base.extend<{ problems: Problems }>({
  problems: [
    async ({ page }, use) => {
      const messages: string[] = [];
      // Chrome logs every 4xx fetch: a wrong password or an ended session is answered 401
      // by contract (docs/api-contract.md). A visit without a token makes no such call.
      const allowed: RegExp[] = [/Failed to load resource: the server responded with a status of 401/];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warning") messages.push(`console.${message.type()}: ${message.text()}`);
      });
      page.on("pageerror", (error) => messages.push(`pageerror: ${error.message}`));
      await use({ messages, allow: (pattern) => allowed.push(pattern) });
      expect(messages.filter((message) => !allowed.some((pattern) => pattern.test(message)))).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export async function waitForHydration(page: Page): Promise<void> {
  // Polled across a reload too, when the new document may not have its root element yet.
  await page.waitForFunction(() => document.documentElement?.dataset.hydrated === "true");
}

export async function clearEnvelopes(): Promise<void> {
  await fetch(`${sentrySinkUrl}/envelopes`, { method: "DELETE" });
}

export async function envelopesMentioning(text: string, timeoutMs = 10_000): Promise<Envelope[]> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const all = (await (await fetch(`${sentrySinkUrl}/envelopes`)).json()) as Envelope[];
    const found = all.filter((envelope) => JSON.stringify(envelope.items).includes(text));
    if (found.length > 0) return found;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return [];
}
