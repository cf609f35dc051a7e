/**
 * The browser's build as `wrangler deploy` ships it (`npm test` builds first): what a page's
 * first visit can load. The contract's schemas, and zod with them, are a chunk of their own
 * that a page fetches on first use (docs/decisions/036-form-rules-on-demand.md). Every page
 * loads the shell (the entry chunk), so no screen's messages belong in it; a screen loads
 * the catalogues it shows and no other screen's; a page with a form gets the forms' kit as
 * one file (docs/decisions/040-lighter-first-visits.md).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountMessages } from "#app/messages/account";
import { contentMessages } from "#app/messages/content";
import { formMessages } from "#app/messages/forms";
import { homeMessages } from "#app/messages/home";
import { loginMessages } from "#app/messages/login";
import { orderMessages } from "#app/messages/orders";
import { passkeyMessages } from "#app/messages/passkeys";
import { paymentMessages } from "#app/messages/payment";
import { receiptMessages } from "#app/messages/receipt";
import { rechargeMessages } from "#app/messages/recharge";
import { recoverMessages } from "#app/messages/recover";
import { recoveryCodeMessages } from "#app/messages/recovery-codes";
import { supportMessages } from "#app/messages/support";
import { taskMessages } from "#app/messages/tasks";
import { transferMessages } from "#app/messages/transfer";
import { walletMessages } from "#app/messages/wallet";
import { readManifest, staticImports } from "../../bench/sizes";

const clientDir = path.resolve(import.meta.dirname, "../../build/client");
const assetsDir = path.join(clientDir, "assets");

// zod's core names each of its classes with a string literal, which minifying keeps.
const zodMarker = "$ZodType";

/** The build's JavaScript files, as the pages name them (`/assets/…`). */
const builtChunks = () =>
  readdirSync(assetsDir)
    .filter((name) => name.endsWith(".js"))
    .map((name) => `/assets/${name}`);

const source = (asset: string) => readFileSync(path.join(clientDir, asset.replace(/^\//, "")), "utf8");

/** Every chunk these load before running: themselves and what they import statically, however indirectly. */
function staticallyLoaded(start: string[]): Set<string> {
  const seen = new Set(start);
  const queue = [...start];
  while (queue.length) {
    const asset = queue.shift()!;
    for (const specifier of staticImports(source(asset))) {
      const imported = new URL(specifier, `https://paydesk.local${asset}`).pathname;
      if (!seen.has(imported)) {
        seen.add(imported);
        queue.push(imported);
      }
    }
  }
  return seen;
}

describe("the browser's build", () => {
  if (!existsSync(assetsDir)) throw new Error(`${assetsDir} is missing: run \`npm run build\` first`);
  const chunks = builtChunks();
  const withZod = chunks.filter((chunk) => source(chunk).includes(zodMarker));

  it("has zod in one chunk, the contract's schemas (app/contract.client.ts)", () => {
    expect(withZod).toHaveLength(1);
    expect(withZod[0]).toMatch(/^\/assets\/contract\.client-[\w-]+\.js$/);
  });

  it("loads no zod with any page's first visit: the entry, every route and what they import statically", () => {
    const manifest = readManifest(clientDir);
    const routes = Object.values(manifest.routes);
    const firstLoads = staticallyLoaded([manifest.entry!.module, ...routes.map((route) => route.module)]);
    expect(routes.length).toBeGreaterThan(20);
    expect([...firstLoads].filter((chunk) => withZod.includes(chunk))).toEqual([]);
    // Reached only by a dynamic import from what pages do load, so it is fetched on first use.
    const schemasFile = path.basename(withZod[0]!);
    const dynamicImport = new RegExp(`import\\(\\s*["'\`]\\./${schemasFile.replace(/[.-]/g, "\\$&")}["'\`]\\s*\\)`);
    const importers = [...firstLoads].filter((chunk) => dynamicImport.test(source(chunk)));
    expect(importers).toHaveLength(1);
  });
});

/** A catalogue's longest plain English message: one that minifying writes out unchanged. */
function longestPlainMessage(messages: object): string {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === "string" && /^[\x20-\x7e]+$/.test(value) && !/[\\`$]/.test(value)) found.push(value);
    else if (value && typeof value === "object") for (const inner of Object.values(value)) walk(inner);
  };
  walk(messages);
  const longest = found.sort((a, b) => b.length - a.length)[0];
  if (!longest || longest.length < 30) throw new Error("no message long enough to look for");
  return longest;
}

describe("what each page's first visit carries", () => {
  const manifest = readManifest(clientDir);
  const chunks = builtChunks();
  const shell = manifest.entry!.module;
  const holding = (text: string) => chunks.filter((chunk) => source(chunk).includes(text));
  const firstVisit = (routeId: string) => {
    const route = manifest.routes[routeId];
    if (!route) throw new Error(`no route ${routeId} in the manifest`);
    return staticallyLoaded([shell, manifest.routes.root!.module, route.module]);
  };

  // The screens' own catalogues; the shell's (the layout's, the errors') are not listed.
  const screens = {
    account: accountMessages,
    content: contentMessages,
    home: homeMessages,
    login: loginMessages,
    orders: orderMessages,
    passkeys: passkeyMessages,
    payment: paymentMessages,
    receipt: receiptMessages,
    recharge: rechargeMessages,
    recover: recoverMessages,
    recoveryCodes: recoveryCodeMessages,
    support: supportMessages,
    tasks: taskMessages,
    transfer: transferMessages,
    wallet: walletMessages,
  };

  it.each(Object.entries(screens))("keeps the %s screen's messages out of the shell every page loads", (_name, catalogue) => {
    const message = longestPlainMessage(catalogue.en);
    const found = holding(message);
    // Looked for as the build writes it: otherwise its absence from the shell would prove nothing.
    expect(found.length, `"${message}" in no chunk`).toBeGreaterThan(0);
    expect(found).not.toContain(shell);
  });

  it("loads neither the account page's messages nor /recover's with /login, only the recovery codes' it shows after sign-up", () => {
    const loaded = [...firstVisit("login")];
    const carries = (messages: object) => holding(longestPlainMessage(messages)).some((chunk) => loaded.includes(chunk));
    expect(carries(loginMessages.en)).toBe(true);
    expect(carries(recoveryCodeMessages.en)).toBe(true);
    expect(carries(accountMessages.en)).toBe(false);
    expect(carries(recoverMessages.en)).toBe(false);
  });

  it.each([
    ["home", "help", homeMessages],
    ["wallet", "receipt", walletMessages],
    ["receipt", "wallet", receiptMessages],
  ] as const)("loads the %s screen's messages with its page and not with the %s screen", (routeId, other, messages) => {
    const [chunk, ...more] = holding(longestPlainMessage(messages.en));
    expect(more).toEqual([]);
    expect(firstVisit(routeId).has(chunk!)).toBe(true);
    expect(firstVisit(other).has(chunk!)).toBe(false);
  });

  it("gives a page with a form the forms' kit as one file: its fields, its dispatch, its messages and the schemas' loader", () => {
    const loaded = [...firstVisit("transfer")];
    const kit = new Set(
      [
        `className:\`field-error\``,
        formMessages.en.unknownIntent,
        `import(\`./${path.basename(chunks.find((chunk) => /\/contract\.client-/.test(chunk))!)}\`)`,
      ].flatMap((marker) => {
        const found = holding(marker);
        expect(found, marker).toHaveLength(1);
        return found;
      }),
    );
    expect([...kit]).toEqual([expect.stringMatching(/^\/assets\/forms-[\w-]+\.js$/)]);
    expect(loaded).toContain([...kit][0]);
  });
});
