import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultTextLimits } from "#contract/text-limits";
import {
  balanceOf,
  expectLedgerWhole,
  fundWallet,
  openPaidTask,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

/** A deploy of short texts (docs/decisions/059-deploy-text-limits.md). */
const tight = JSON.stringify({
  task: { title: 20, description: 200 },
  proof: { text: 200 },
  transfer: { note: 20 },
  support: { message: 500 },
});
const unreadable = '{"transfer":{"note":1000}}';
const hour = 3_600_000;

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let worker: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  worker = await seedUser("worker", origin.now());
  await seedUser("bob", origin.now());
});

const under = (setting: string) => ({ ...env, TEXT_LIMITS: setting });
const keyed = (auth = alice.auth, key = `txt-${crypto.randomUUID()}`) => ({ ...auth, "Idempotency-Key": key });
const count = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS count FROM ${table}`).first<number>("count");

/** `n` characters; each emoji is one code point, as the schema counts (two UTF-16 units). */
const characters = (n: number) => "👍".repeat(n);

type Door = {
  field: string;
  /** The deploy's length in `tight`, and the refusal's words. */
  max: number;
  message: string;
  /** Sends `text` in the door's field under `setting`, with the Idempotency-Key `key`. */
  send: (text: string, setting: string, key?: string) => Promise<Response>;
  /** How many of what the door makes exist. */
  made: () => Promise<number | null>;
};

const doorNames = ["title", "description", "proof", "note", "ticket", "reply", "contact"] as const;

/** Each door a text comes in by, set up to take one (docs/decisions/059-deploy-text-limits.md). */
async function doors(): Promise<Record<(typeof doorNames)[number], Door>> {
  const task = (field: "title" | "description") => (text: string, setting: string, key?: string) =>
    origin.call("/api/tasks", {
      body: {
        title: "Translate a menu",
        description: "Translate our lunch menu.",
        reward: 100,
        slots: 1,
        deadline: new Date(origin.now() + 48 * hour).toISOString(),
        [field]: text,
      },
      headers: keyed(alice.auth, key),
      env: under(setting),
    });
  const posted = await openPaidTask(origin, alice);
  const claimed = await origin.call(`/api/tasks/${posted.id}/claims`, { headers: worker.auth });
  const claim = ((await claimed.json()) as { data: { id: string } }).data;
  const opened = await origin.call("/api/support/tickets", {
    body: { category: "other", subject: "A question", message: "Where is my order?" },
    headers: keyed(),
  });
  const ticket = ((await opened.json()) as { data: { id: string } }).data;
  await fundWallet(origin, alice, 5_000);
  const tasks = await count("task");
  const tickets = await count("ticket");
  const messages = await count("ticket_message");
  return {
    title: {
      field: "title",
      max: 20,
      message: "A title has at most 20 characters.",
      send: task("title"),
      made: async () => (await count("task"))! - tasks!,
    },
    description: {
      field: "description",
      max: 200,
      message: "A description has at most 200 characters.",
      send: task("description"),
      made: async () => (await count("task"))! - tasks!,
    },
    proof: {
      field: "text",
      max: 200,
      message: "Proof has at most 200 characters.",
      send: (text, setting, key) =>
        origin.call(`/api/claims/${claim.id}/submit`, { body: { text }, headers: keyed(worker.auth, key), env: under(setting) }),
      made: () => env.DB.prepare("SELECT COUNT(*) AS count FROM claim WHERE status = 'submitted'").first<number>("count"),
    },
    note: {
      field: "note",
      max: 20,
      message: "A note has at most 20 characters.",
      send: (note, setting, key) =>
        origin.call("/api/transfers", {
          body: { toHandle: "bob", amount: 1_000, note },
          headers: keyed(alice.auth, key),
          env: under(setting),
        }),
      made: async () => (5_000 - (await balanceOf(alice.id)).available) / 1_000,
    },
    ticket: {
      field: "message",
      max: 500,
      message: "A message has at most 500 characters.",
      send: (message, setting, key) =>
        origin.call("/api/support/tickets", {
          body: { category: "other", subject: "A question", message },
          headers: keyed(alice.auth, key),
          env: under(setting),
        }),
      made: async () => (await count("ticket"))! - tickets!,
    },
    reply: {
      field: "message",
      max: 500,
      message: "A message has at most 500 characters.",
      send: (message, setting, key) =>
        origin.call(`/api/support/tickets/${ticket.id}/messages`, {
          body: { message },
          headers: keyed(alice.auth, key),
          env: under(setting),
        }),
      made: async () => (await count("ticket_message"))! - messages!,
    },
    contact: {
      field: "message",
      max: 500,
      message: "A message has at most 500 characters.",
      send: (message, setting, key = `contact-${crypto.randomUUID()}`) =>
        origin.call("/api/support/contact", {
          body: { email: "someone@example.com", subject: "Hello", message },
          headers: { "Idempotency-Key": key },
          env: under(setting),
        }),
      made: async () => (await count("ticket"))! - tickets!,
    },
  };
}

describe("GET /api/text-limits", () => {
  it("answers the product's where the deploy sets none, and the deploy's own", async () => {
    const product = await origin.call("/api/text-limits", { method: "GET" });
    expect(product.status).toBe(200);
    expect(await product.json()).toEqual({ code: "SUCCESS", data: defaultTextLimits });
    const deploy = await origin.call("/api/text-limits", { method: "GET", env: under(tight) });
    expect(await deploy.json()).toEqual({ code: "SUCCESS", data: JSON.parse(tight) });
  });
});

describe("a deploy's shorter texts", () => {
  it.each(doorNames)(
    "refuse a %s one character past them with the schema's 400, naming it, and make nothing; one at them is taken",
    async (name) => {
      const door = (await doors())[name];
      const over = await door.send(characters(door.max + 1), tight);
      expect(over.status).toBe(400);
      expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: door.field, message: door.message });
      expect(await door.made()).toBe(0);
      expect((await door.send(characters(door.max), tight)).status).toBeLessThan(300);
      expect(await door.made()).toBe(1);
      await expectLedgerWhole();
    },
  );

  it.each(doorNames)("keep no %s refusal under its key: a retry after the setting loosens is taken", async (name) => {
    const door = (await doors())[name];
    const text = characters(door.max + 1);
    expect((await door.send(text, tight, `long-${name}-text`)).status).toBe(400);
    expect((await door.send(text, "", `long-${name}-text`)).status).toBeLessThan(300);
    expect(await door.made()).toBe(1);
  });

  it("count the text as stored: normalised and trimmed", async () => {
    const { title } = await doors();
    // Ten "e"s with a combining accent and ten "x"s: 30 code points and 4 spaces as typed, 20 once stored.
    expect((await title.send(`  ${"e\u0301".repeat(10)}${"x".repeat(10)}  `, tight)).status).toBe(201);
    expect((await title.send(`${"e\u0301".repeat(11)}${"x".repeat(10)}`, tight)).status).toBe(400);
  });

  it("replay a transfer answered before they shortened, rather than refusing its retry", async () => {
    const { note } = await doors();
    const first = await note.send(characters(100), "", "note-before-the-change");
    expect(first.status).toBe(201);
    const retry = await note.send(characters(100), tight, "note-before-the-change");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await note.made()).toBe(1);
  });
});

describe("a TEXT_LIMITS setting the origin cannot read", () => {
  it.each(doorNames)("takes no %s (500)", async (name) => {
    const door = (await doors())[name];
    expect((await door.send("A short text.", unreadable)).status).toBe(500);
    expect(await door.made()).toBe(0);
    await expectLedgerWhole();
  });

  it("publishes no figures", async () => {
    expect((await origin.call("/api/text-limits", { method: "GET", env: under(unreadable) })).status).toBe(500);
  });
});
