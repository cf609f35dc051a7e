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
const hour = 3_600_000;

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  await seedUser("bob", origin.now());
});

const under = (setting: string) => ({ ...env, TEXT_LIMITS: setting });
const keyed = (key = `txt-${crypto.randomUUID()}`) => ({ ...alice.auth, "Idempotency-Key": key });
const count = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS count FROM ${table}`).first<number>("count");

/** `n` characters; each emoji is one code point, as the schema counts (two UTF-16 units). */
const characters = (n: number) => "👍".repeat(n);

function postTask(overrides: Record<string, unknown>, setting = tight) {
  return origin.call("/api/tasks", {
    body: {
      title: "Translate a menu",
      description: "Translate our lunch menu.",
      reward: 100,
      slots: 1,
      deadline: new Date(origin.now() + 48 * hour).toISOString(),
      ...overrides,
    },
    headers: keyed(),
    env: under(setting),
  });
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
  it.each([
    ["title", "A title has at most 20 characters."],
    ["description", "A description has at most 200 characters."],
  ] as const)("refuses a task whose %s is past them with the schema's 400, naming it, and posts nothing", async (field, message) => {
    const max = field === "title" ? 20 : 200;
    const over = await postTask({ [field]: characters(max + 1) });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field, message });
    expect(await count("task")).toBe(0);
    expect((await postTask({ [field]: characters(max) })).status).toBe(201);
  });

  it("counts the text as stored: normalised and trimmed", async () => {
    // "e" and a combining accent normalise to one "é": 21 typed, 20 stored; and spaces around are trimmed.
    expect((await postTask({ title: `  ${"e\u0301".repeat(10)}${"x".repeat(10)}  ` })).status).toBe(201);
    expect((await postTask({ title: `${"e\u0301".repeat(11)}${"x".repeat(10)}` })).status).toBe(400);
  });

  it("refuses a proof past them, and submits nothing", async () => {
    const worker = await seedUser("worker", origin.now());
    const task = await openPaidTask(origin, alice);
    const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: worker.auth });
    const claim = ((await claimed.json()) as { data: { id: string } }).data;
    const submit = (text: string) =>
      origin.call(`/api/claims/${claim.id}/submit`, { body: { text }, headers: worker.auth, env: under(tight) });
    const over = await submit(characters(201));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: "text", message: "Proof has at most 200 characters." });
    expect((await submit(characters(200))).status).toBe(200);
  });

  it("refuses a transfer whose note is past them, and moves nothing", async () => {
    await fundWallet(origin, alice, 5_000);
    const send = (note: string) =>
      origin.call("/api/transfers", { body: { toHandle: "bob", amount: 1_000, note }, headers: keyed(), env: under(tight) });
    const over = await send(characters(21));
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: "note", message: "A note has at most 20 characters." });
    expect(await balanceOf(alice.id)).toEqual({ available: 5_000, held: 0 });
    expect((await send(characters(20))).status).toBe(201);
    await expectLedgerWhole();
  });

  it("refuses a message to support past them, whether it opens a ticket, replies, or comes through the contact form", async () => {
    const message = characters(501);
    const open = (text: string) =>
      origin.call("/api/support/tickets", {
        body: { category: "other", subject: "A question", message: text },
        headers: keyed(),
        env: under(tight),
      });
    const refused = await open(message);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: "BAD_REQUEST", field: "message", message: "A message has at most 500 characters." });
    expect(await count("ticket")).toBe(0);
    const opened = await open(characters(500));
    expect(opened.status).toBe(201);
    const ticket = ((await opened.json()) as { data: { id: string } }).data;
    const reply = await origin.call(`/api/support/tickets/${ticket.id}/messages`, {
      body: { message },
      headers: keyed(),
      env: under(tight),
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toMatchObject({ field: "message" });
    const contact = await origin.call("/api/support/contact", {
      body: { email: "someone@example.com", subject: "Hello", message },
      headers: { "Idempotency-Key": `contact-${crypto.randomUUID()}` },
      env: under(tight),
    });
    expect(contact.status).toBe(400);
    expect(await contact.json()).toMatchObject({ field: "message" });
    expect(await count("ticket")).toBe(1);
  });

  it("keeps no refusal under its key: a retry after the setting loosens goes through", async () => {
    const body = { category: "other", subject: "A question", message: characters(600) };
    const headers = keyed("long-message-key");
    expect((await origin.call("/api/support/tickets", { body, headers, env: under(tight) })).status).toBe(400);
    expect((await origin.call("/api/support/tickets", { body, headers, env: under("") })).status).toBe(201);
  });
});

describe("a TEXT_LIMITS setting the origin cannot read", () => {
  it("takes no task or transfer (500), and publishes no figures", async () => {
    const unreadable = '{"transfer":{"note":1000}}';
    await fundWallet(origin, alice, 5_000);
    expect((await postTask({}, unreadable)).status).toBe(500);
    const sent = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 1_000 },
      headers: keyed(),
      env: under(unreadable),
    });
    expect(sent.status).toBe(500);
    expect(await balanceOf(alice.id)).toEqual({ available: 5_000, held: 0 });
    expect(await count("task")).toBe(0);
    expect((await origin.call("/api/text-limits", { method: "GET", env: under(unreadable) })).status).toBe(500);
  });
});
