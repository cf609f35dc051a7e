/**
 * The browser's build as `wrangler deploy` ships it (`npm test` builds first): what a page's
 * first visit can load. zod is a chunk of its own, and it comes with the contract's schemas
 * only in what a page fetches on first use: the groups of schemas, and what the signed-out
 * forms run on a submit (docs/decisions/036-form-rules-on-demand.md,
 * docs/decisions/067-form-rules-with-their-form.md). Every page
 * loads the shell (the entry chunk), so no screen's messages belong in it; a screen loads
 * the catalogues it shows and no other screen's; a page with a form gets the forms' kit as
 * one file (docs/decisions/040-lighter-first-visits.md). What a screen shows only to someone
 * signed in, and what runs on a submit, are parts fetched on first use, not with the first
 * visit (docs/decisions/043-screens-after-start-up.md).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountMessages } from "#app/messages/account";
import { contactMessages } from "#app/messages/contact";
import { contentMessages } from "#app/messages/content";
import { formMessages } from "#app/messages/forms";
import { homeMessages } from "#app/messages/home";
import { loginMessages } from "#app/messages/login";
import { loginFieldMessages } from "#app/messages/login-fields";
import { orderMessages } from "#app/messages/orders";
import { passkeyRefusalMessages } from "#app/messages/passkey-refusals";
import { passkeyMessages } from "#app/messages/passkeys";
import { paymentMessages } from "#app/messages/payment";
import { receiptMessages } from "#app/messages/receipt";
import { rechargeMessages } from "#app/messages/recharge";
import { recoverMessages } from "#app/messages/recover";
import { recoveryCodeMessages } from "#app/messages/recovery-codes";
import { statementPageMessages } from "#app/messages/statement-page";
import { supportMessages } from "#app/messages/support";
import { taskMessages } from "#app/messages/tasks";
import { ticketMessages } from "#app/messages/ticket";
import { ticketFieldMessages } from "#app/messages/ticket-fields";
import { transferMessages } from "#app/messages/transfer";
import { walletMessages } from "#app/messages/wallet";
import { walletOverviewMessages } from "#app/messages/wallet-overview";
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

  it("has zod in one chunk of its own", () => {
    expect(withZod).toHaveLength(1);
    expect(withZod[0]).toMatch(/^\/assets\/zod-[\w-]+\.js$/);
  });

  it("loads no zod with any page's first visit: the entry, every route and what they import statically", () => {
    const manifest = readManifest(clientDir);
    const routes = Object.values(manifest.routes);
    const firstLoads = staticallyLoaded([manifest.entry!.module, ...routes.map((route) => route.module)]);
    expect(routes.length).toBeGreaterThan(20);
    expect([...firstLoads].filter((chunk) => withZod.includes(chunk))).toEqual([]);
  });

  it("brings zod with what checks a form, fetched on first use: the signed-out forms' submit, and the groups of schemas", () => {
    const zodChunk = withZod[0]!;
    const nameOf = (chunk: string) => chunk.replace(/^\/assets\//, "").replace(/-[\w-]+\.js$/, "");
    const loadingZod = chunks
      .filter((chunk) => /\.client-[\w-]+\.js$/.test(chunk) && staticallyLoaded([chunk]).has(zodChunk))
      .map(nameOf)
      .sort();
    // Every group of app/contract-schemas.ts, and what /login, /recover and /contact run on a
    // submit; no signed-in screen's part, which is drawn without waiting for zod.
    const groups = readdirSync(path.resolve(import.meta.dirname, "../../app/schemas")).map((file) => file.replace(/\.ts$/, ""));
    expect(groups.length).toBeGreaterThan(5);
    expect(loadingZod).toEqual([...groups, "contact-actions.client", "login-actions.client", "recover-actions.client"].sort());
    // The sign-in form's rules come without the other forms': the transfer's are in its group only.
    const rulesOf = (name: string) => [...staticallyLoaded([chunks.find((chunk) => nameOf(chunk) === name)!])].map(source).join("");
    const transferRule = "A note has at most 140 characters.";
    expect(rulesOf("transfer.client")).toContain(transferRule);
    expect(rulesOf("login-actions.client")).toContain("[a-z0-9_]{3,32}");
    expect(rulesOf("login-actions.client")).not.toContain(transferRule);
  });
});

/**
 * A catalogue's longest plain English text: a message, or the text between a message
 * template's values (`Up to ${max} characters.`), which minifying writes out unchanged.
 */
function longestPlainMessage(messages: object): string {
  const found: string[] = [];
  const plain = (text: string) => /^[\x20-\x7e]+$/.test(text) && !/[\\`$]/.test(text);
  const walk = (value: unknown) => {
    if (typeof value === "string" && plain(value)) found.push(value);
    else if (typeof value === "function") {
      for (const [, template = ""] of String(value).matchAll(/`([^`]*)`/g))
        found.push(...template.split(/\$\{[^}]*\}/).filter((piece) => piece.length > 0 && plain(piece)));
    } else if (value && typeof value === "object") for (const inner of Object.values(value)) walk(inner);
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
    contact: contactMessages,
    content: contentMessages,
    home: homeMessages,
    login: loginMessages,
    loginFields: loginFieldMessages,
    orders: orderMessages,
    passkeys: passkeyMessages,
    passkeyRefusals: passkeyRefusalMessages,
    payment: paymentMessages,
    receipt: receiptMessages,
    recharge: rechargeMessages,
    recover: recoverMessages,
    recoveryCodes: recoveryCodeMessages,
    support: supportMessages,
    tasks: taskMessages,
    ticket: ticketMessages,
    ticketFields: ticketFieldMessages,
    transfer: transferMessages,
    wallet: walletMessages,
    walletOverview: walletOverviewMessages,
  };

  it.each(Object.entries(screens))("keeps the %s screen's messages out of the shell every page loads", (_name, catalogue) => {
    const message = longestPlainMessage(catalogue.en);
    const found = holding(message);
    // Looked for as the build writes it: otherwise its absence from the shell would prove nothing.
    expect(found.length, `"${message}" in no chunk`).toBeGreaterThan(0);
    expect(found).not.toContain(shell);
  });

  /** Whether one of `chunks` holds a catalogue (looked for by its longest plain message). */
  const heldIn = (chunks: Set<string>, messages: object) => holding(longestPlainMessage(messages)).some((chunk) => chunks.has(chunk));
  /** Whether a page's first visit loads a catalogue. */
  const carries = (routeId: string, messages: object) => heldIn(firstVisit(routeId), messages);

  it("loads neither the account page's messages nor /recover's with /login, nor the recovery codes' it shows only after sign-up", () => {
    expect(carries("login", loginMessages.en)).toBe(true);
    expect(carries("login", recoveryCodeMessages.en)).toBe(false);
    expect(carries("login", accountMessages.en)).toBe(false);
    expect(carries("login", recoverMessages.en)).toBe(false);
  });

  /** The one chunk that holds `marker`, which must exist: otherwise its absence would prove nothing. */
  const onlyChunkWith = (marker: string) => {
    const found = holding(marker);
    expect(found, marker).toHaveLength(1);
    return found[0]!;
  };
  /** What a page's first visit can fetch later: the chunks it imports dynamically, and what those import statically. */
  const onFirstUse = (routeId: string) => {
    const loaded = firstVisit(routeId);
    const later = [...loaded].flatMap((chunk) =>
      [...source(chunk).matchAll(/\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/g)].map(
        (m) => new URL(m[1]!, `https://paydesk.local${chunk}`).pathname,
      ),
    );
    return new Set([...staticallyLoaded(later)].filter((chunk) => !loaded.has(chunk)));
  };

  /** Whether a page can fetch a catalogue on first use. */
  const fetchedLater = (routeId: string, messages: object) => heldIn(onFirstUse(routeId), messages);

  it("leaves what a submit or a passkey answers out of /login's first visit, with the code that shows it", () => {
    // What the contract's rules say of a field comes with the submit's code; what a device's
    // refusal is called, with the passkey ceremonies.
    expect(carries("login", loginFieldMessages.en)).toBe(false);
    expect(carries("login", passkeyRefusalMessages.en)).toBe(false);
    expect(fetchedLater("login", loginFieldMessages.en)).toBe(true);
    expect(fetchedLater("login", passkeyRefusalMessages.en)).toBe(true);
  });

  it("loads /contact's words and a ticket's, not the tickets screen's nor what its submit answers", () => {
    expect(carries("contact", contactMessages.en)).toBe(true);
    expect(carries("contact", ticketMessages.en)).toBe(true);
    expect(carries("contact", supportMessages.en)).toBe(false);
    expect(carries("contact", ticketFieldMessages.en)).toBe(false);
    expect(fetchedLater("contact", ticketFieldMessages.en)).toBe(true);
  });

  it.each([
    ["home", "the overview someone signed in sees", longestPlainMessage(walletOverviewMessages.en)],
    ["task", "the board's lists and their forms", longestPlainMessage(taskMessages.en)],
    ["transfer", "the transfer's steps", "/wallet/receipts/transfer/"],
    ["login", "what a submit runs", "/api/user/register"],
    ["login", "the recovery codes shown after sign-up", longestPlainMessage(recoveryCodeMessages.en)],
    ["login", "the passkey ceremony", "/api/user/passkey/login"],
    ["wallet", "the statement someone signed in sees", longestPlainMessage(walletMessages.en)],
    ["account", "the sections and their forms", longestPlainMessage(accountMessages.en)],
    ["check", "the queue and its decisions", longestPlainMessage(taskMessages.en)],
    ["support", "the tickets and their forms", longestPlainMessage(supportMessages.en)],
    ["order", "the orders and cancelling one", longestPlainMessage(orderMessages.en)],
    ["recharge", "the top-up forms", longestPlainMessage(rechargeMessages.en)],
    ["pay", "the checkout", longestPlainMessage(paymentMessages.en)],
    ["recover", "what a submit runs", "/api/user/recover"],
    ["contact", "what a submit runs", "/api/support/contact"],
  ] as const)("leaves out of /%s's first visit %s, a part its page fetches on first use", (routeId, _what, marker) => {
    const part = onlyChunkWith(marker);
    expect(firstVisit(routeId).has(part)).toBe(false);
    expect(onFirstUse(routeId).has(part)).toBe(true);
  });

  it.each([
    ["home", "help", homeMessages],
    ["wallet", "receipt", statementPageMessages],
    ["receipt", "wallet", receiptMessages],
  ] as const)("loads the %s screen's messages with its page and not with the %s screen", (routeId, other, messages) => {
    const [chunk, ...more] = holding(longestPlainMessage(messages.en));
    expect(more).toEqual([]);
    expect(firstVisit(routeId).has(chunk!)).toBe(true);
    expect(firstVisit(other).has(chunk!)).toBe(false);
  });

  it("gives a page with a form the forms' kit to draw it as one file, and what a submit needs as another, with the parts", () => {
    const kit = onlyChunkWith(`className:\`field-error\``);
    expect(kit).toMatch(/^\/assets\/forms-[\w-]+\.js$/);
    const actions = onlyChunkWith(formMessages.en.unknownIntent);
    expect(actions).toMatch(/^\/assets\/form-actions-[\w-]+\.js$/);
    // /login draws its form at once and sends it later; what it sends brings its own rules,
    // so the loader of the schema groups is no part of its first visit (decision 067).
    const groupsLoader = onlyChunkWith(`import(\`./${path.basename(chunks.find((chunk) => /\/order-detail\.client-/.test(chunk))!)}\`)`);
    expect(firstVisit("login").has(kit)).toBe(true);
    expect(firstVisit("login").has(actions)).toBe(false);
    expect(firstVisit("login").has(groupsLoader)).toBe(false);
    // A route that parses an order takes it from its group: the loader comes with that route.
    expect(firstVisit("order").has(groupsLoader)).toBe(true);
  });
});
