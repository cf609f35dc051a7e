import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { PersonPage } from "#contract/ops-people";
import { hashToken } from "../auth/bearer-token";
import {
  balanceOf,
  countingRoundTrips,
  fundWallet,
  openPaidTask,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { personPage } from "./person-page";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let support: Person;

const keyed = (who: Person) => ({ ...who.auth, "Idempotency-Key": `people-${crypto.randomUUID()}` });

async function person(handle: string, displayName = `Name of ${handle}`): Promise<Person> {
  const seeded = await seedUser(handle, origin.now());
  await env.DB.prepare("UPDATE user SET display_name = ?1 WHERE id = ?2").bind(displayName, seeded.id).run();
  return seeded;
}

type Found = {
  id: string;
  handle: string;
  displayName: string;
  balances: { available: number; held: number };
  operatorRole: string | null;
  lockedAt: string | null;
};

async function search(query: Record<string, string>): Promise<{ people: Found[]; nextCursor: string | null }> {
  const answer = await origin.call(`/api/ops/people?${new URLSearchParams(query)}`, { method: "GET", headers: support.auth });
  const body = (await answer.json()) as { data: { people: Found[]; nextCursor: string | null } };
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const handlesFound = async (q: string) => (await search({ q })).people.map((found) => found.handle);

/** Every page of a search, following the cursors to the end. */
async function allPages(q: string): Promise<{ handles: string[]; pages: number }> {
  const handles: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: { people: Found[]; nextCursor: string | null } = await search(cursor ? { q, cursor } : { q });
    expect(page.people.length).toBeLessThanOrEqual(20);
    handles.push(...page.people.map((found) => found.handle));
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor);
  return { handles, pages };
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  support = await seedOperator("op_support", "support", origin.now());
});

describe("finding people", () => {
  it("by the beginning of a handle, a part of a display name in any letter case, or an exact id", async () => {
    const liWei = await person("li_wei", "Li Wei");
    await person("lisa", "Lisa Wong");
    await person("wang_fang", "王芳");
    await person("zhang", "Zhang Li-Na");

    expect(await handlesFound("li_")).toEqual(["li_wei"]);
    expect(await handlesFound("lis")).toEqual(["lisa"]);
    // "li" begins two handles and is part of two display names.
    expect(await handlesFound("li")).toEqual(["li_wei", "lisa", "zhang"]);
    expect(await handlesFound("LI WEI")).toEqual(["li_wei"]);
    expect(await handlesFound("wong")).toEqual(["lisa"]);
    expect(await handlesFound("王")).toEqual(["wang_fang"]);
    expect(await handlesFound(liWei.id)).toEqual(["li_wei"]);
    // Only the exact id: the beginning of one is not an id.
    expect(await handlesFound("usr_li_w")).toEqual([]);
    // Neither the middle of a handle.
    expect(await handlesFound("_wei")).toEqual([]);
    // Blank is everyone.
    expect(await handlesFound("   ")).toEqual(["li_wei", "lisa", "op_support", "wang_fang", "zhang"]);
  });

  it("takes % and _ as the characters they are, not as LIKE's wildcards", async () => {
    await person("li_wei", "100% sure");
    await person("lixwei", "100 and more");
    await person("li_wu", "under_score");
    await person("liiwu", "underXscore");
    expect(await handlesFound("li_w")).toEqual(["li_wei", "li_wu"]);
    expect(await handlesFound("100%")).toEqual(["li_wei"]);
    expect(await handlesFound("%")).toEqual(["li_wei"]);
    expect(await handlesFound("under_")).toEqual(["li_wu"]);
    // An underscore is in two display names ("Name of op_support", the operator's own).
    expect(await handlesFound("_")).toEqual(["li_wu", "op_support"]);
    expect(await handlesFound("\\")).toEqual([]);
  });

  it("shows each person's balances, operator role, lock and when they joined", async () => {
    const alice = await person("alice", "Alice");
    await fundWallet(origin, alice, 2_500);
    const [found] = (await search({ q: "alice" })).people;
    expect(found).toEqual({
      id: alice.id,
      handle: "alice",
      displayName: "Alice",
      createdAt: new Date(origin.now()).toISOString(),
      balances: { available: 2_500, held: 0 },
      operatorRole: null,
      lockedAt: null,
    });
    expect((await search({ q: "op_support" })).people[0]).toMatchObject({ operatorRole: "support" });
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), alice.id).run();
    expect((await search({ q: "alice" })).people[0]).toMatchObject({ lockedAt: new Date(origin.now()).toISOString() });
  });

  it("pages 20 at a time by handle, and the cursors give every person exactly once", async () => {
    const handles = Array.from({ length: 47 }, (_, index) => `person_${String(index).padStart(2, "0")}`);
    for (const handle of handles) await person(handle, index(handle) % 2 === 0 ? `Even ${handle}` : `Odd ${handle}`);
    const everyone = await allPages("");
    expect(everyone.pages).toBe(3);
    expect(everyone.handles).toEqual([...handles, "op_support"].sort());
    // A search's pages too: the 24 even ones over two pages.
    const even = await allPages("even");
    expect(even.pages).toBe(2);
    expect(even.handles).toEqual(handles.filter((handle) => index(handle) % 2 === 0));
  });
});

const index = (handle: string) => Number(handle.slice(-2));

describe("a person's page", () => {
  it("shows what the person did, from real requests: a code redeemed, transfers both ways, orders, a task, a claim, a ticket, sessions", async () => {
    const alice = await person("alice", "Alice");
    const bob = await person("bob", "Bob");
    const step = () => origin.advance(60_000);

    await fundWallet(origin, alice, 5_000);
    step();
    const sent = await origin.call("/api/transfers", { body: { toHandle: "bob", amount: 1_200, note: "Lunch" }, headers: keyed(alice) });
    expect(sent.status).toBe(201);
    step();
    await fundWallet(origin, bob, 300);
    const received = await origin.call("/api/transfers", { body: { toHandle: "alice", amount: 300 }, headers: keyed(bob) });
    expect(received.status).toBe(201);
    step();
    const recharge = await origin.call("/api/orders/recharge", { body: { amount: 2_500 }, headers: keyed(alice) });
    const rechargeOrder = ((await recharge.json()) as { data: { id: string } }).data;
    step();
    const task = await openPaidTask(origin, alice, { reward: 1_000, slots: 1 });
    step();
    const bobsTask = await openPaidTask(origin, bob, { reward: 500, slots: 1 });
    const claimed = await origin.call(`/api/tasks/${bobsTask.id}/claims`, { headers: keyed(alice) });
    expect(claimed.status).toBe(201);
    step();
    const ticket = await origin.call("/api/support/tickets", {
      body: { category: "payment", subject: "Where is my recharge?", message: "I paid but see nothing." },
      headers: keyed(alice),
    });
    expect(ticket.status).toBe(201);

    const answer = await origin.call(`/api/ops/people/${alice.id}`, { method: "GET", headers: support.auth });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const page = (JSON.parse(text) as { data: PersonPage }).data;

    expect(page.person).toMatchObject({ id: alice.id, handle: "alice", displayName: "Alice", balances: await balanceOf(alice.id) });
    expect(page.person.balances).toEqual({ available: 5_000 - 1_200 + 300, held: 1_000 });
    expect(page.walletEntries.map((entry) => [entry.kind, entry.amount, entry.held])).toEqual([
      ["task_budget", -1_000, 1_000],
      ["code_redeem", 1_000, 0],
      ["transfer_in", 300, 0],
      ["transfer_out", -1_200, 0],
      ["code_redeem", 5_000, 0],
    ]);
    expect(page.walletEntries[2]?.counterparty).toEqual({ handle: "bob", displayName: "Bob" });
    expect(page.orders).toMatchObject([
      { id: task.orderId, kind: "task_budget", status: "paid", payments: [{ method: "wallet", status: "succeeded", amount: 1_000 }] },
      { id: rechargeOrder.id, kind: "recharge", status: "pending", amount: 2_500, payments: [] },
    ]);
    const aliceRef = { id: alice.id, handle: "alice", displayName: "Alice" };
    const bobRef = { id: bob.id, handle: "bob", displayName: "Bob" };
    expect(page.transfersSent).toMatchObject([{ from: aliceRef, to: bobRef, amount: 1_200, note: "Lunch" }]);
    expect(page.transfersReceived).toMatchObject([{ from: bobRef, to: aliceRef, amount: 300, note: "" }]);
    expect(page.tasksPosted).toMatchObject([
      { id: task.id, status: "open", reward: 1_000, slots: 1, slotsTaken: 0, escrowRemaining: 1_000 },
    ]);
    expect(page.claims).toMatchObject([{ task: { id: bobsTask.id, reward: 500, poster: bobRef }, status: "claimed", submittedAt: null }]);
    expect(page.tickets).toMatchObject([{ category: "payment", subject: "Where is my recharge?", status: "open" }]);
    // Seeded directly, with no browser or place: the page says so rather than guess.
    expect(page.sessions).toEqual([
      { device: null, place: null, createdAt: expect.any(String), lastUsedAt: expect.any(String), endedAt: null, live: true },
    ]);
    // A session's token and its hash are what a bearer needs: neither ever shows.
    expect(text).not.toContain(alice.token);
    expect(text).not.toContain(await hashToken(alice.token));
  });

  it("is read in one round trip to D1", async () => {
    const alice = await person("alice");
    const counter = countingRoundTrips();
    expect(await personPage(counter.db, alice.id, 0)).not.toBeNull();
    expect(counter.trips()).toBe(1);
  });

  it("keeps each list to the newest 20", async () => {
    const alice = await person("alice");
    await person("bob");
    await fundWallet(origin, alice, 30 * 100);
    for (let n = 0; n < 25; n += 1) {
      origin.advance(1_000);
      const sent = await origin.call("/api/transfers", { body: { toHandle: "bob", amount: 100, note: `#${n}` }, headers: keyed(alice) });
      expect(sent.status).toBe(201);
    }
    const page = (await personPage(env.DB, alice.id, 0)) as PersonPage;
    expect(page.transfersSent.map((transfer) => transfer.note)).toEqual(Array.from({ length: 20 }, (_, n) => `#${24 - n}`));
    expect(page.walletEntries).toHaveLength(20);
  });

  it("is 404 for an id no person has", async () => {
    const answer = await origin.call("/api/ops/people/usr_00000000-0000-4000-8000-000000000000", { method: "GET", headers: support.auth });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ code: "NOT_FOUND", field: "id" });
  });
});
