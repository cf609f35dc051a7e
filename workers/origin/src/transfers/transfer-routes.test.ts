import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  balanceOf,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { chinaDay } from "./transfer-routes";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;

const fund = (user: { auth: Record<string, string> }, value: number) => fundWallet(origin, user, value);

function send(body: unknown, { auth = alice.auth, key = `trf-${crypto.randomUUID()}`, db }: { auth?: Record<string, string>; key?: string; db?: D1Database } = {}) {
  return origin.call("/api/transfers", { body, headers: { ...auth, "Idempotency-Key": key }, db });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

describe("looking up a recipient", () => {
  it("shows the display name only", async () => {
    const response = await origin.call("/api/users/lookup?handle=bob", { method: "GET", headers: alice.auth });
    expect(await response.json()).toEqual({ code: "SUCCESS", data: { handle: "bob", displayName: "Name of bob" } });
  });

  it("answers 404 for an unknown handle and 400 for a malformed one", async () => {
    expect((await origin.call("/api/users/lookup?handle=nobody", { method: "GET", headers: alice.auth })).status).toBe(404);
    const bad = await origin.call("/api/users/lookup?handle=Bob!", { method: "GET", headers: alice.auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "handle" });
  });
});

describe("sending money", () => {
  it("moves the amount from one wallet to the other, with a receipt", async () => {
    await fund(alice, 10_000);
    const response = await send({ toHandle: "bob", amount: 2_550, note: "Dinner 🍜" });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      code: "SUCCESS",
      data: { to: { handle: "bob", displayName: "Name of bob" }, amount: 2_550, note: "Dinner 🍜" },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 7_450, held: 0 });
    expect(await balanceOf(bob.id)).toEqual({ available: 2_550, held: 0 });
    await expectLedgerWhole();
  });

  it("refuses what the wallet does not cover, moving nothing", async () => {
    await fund(alice, 100);
    const response = await send({ toHandle: "bob", amount: 101 });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "INSUFFICIENT_FUNDS", field: "amount" });
    expect(await balanceOf(alice.id)).toEqual({ available: 100, held: 0 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM transfer").first("n")).toBe(0);
    await expectLedgerWhole();
  });

  it("refuses sending to oneself and to an unknown handle", async () => {
    await fund(alice, 100);
    expect(await (await send({ toHandle: "alice", amount: 1 })).json()).toMatchObject({ code: "TRANSFER_TO_SELF" });
    expect(await (await send({ toHandle: "nobody", amount: 1 })).json()).toMatchObject({ code: "RECIPIENT_NOT_FOUND" });
  });

  it.each([
    ["zero", 0],
    ["a negative amount", -100],
    ["a fraction of a fen", 10.5],
    ["more than ¥50,000.00", 5_000_001],
    ["2^53", 2 ** 53],
    ["a string", "100"],
    ["null", null],
  ])("refuses %s as the amount with 400 naming it", async (_, amount) => {
    const response = await send({ toHandle: "bob", amount });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field: "amount" });
  });

  it("refuses a note over 140 characters and unknown fields", async () => {
    expect(await (await send({ toHandle: "bob", amount: 1, note: "x".repeat(141) })).json()).toMatchObject({ field: "note" });
    expect(await (await send({ toHandle: "bob", amount: 1, fee: 0 })).json()).toMatchObject({ field: "fee" });
  });

  it("allows ¥100,000.00 sent per day (China Standard Time) and refuses more", async () => {
    await fund(alice, 5_000_000);
    await fund(alice, 5_000_000);
    await fund(alice, 5_000_000);
    expect((await send({ toHandle: "bob", amount: 5_000_000 })).status).toBe(201);
    expect((await send({ toHandle: "bob", amount: 4_999_999 })).status).toBe(201);
    const over = await send({ toHandle: "bob", amount: 2 });
    expect(over.status).toBe(422);
    expect(await over.json()).toMatchObject({ code: "DAILY_LIMIT_EXCEEDED" });
    expect((await send({ toHandle: "bob", amount: 1 })).status).toBe(201);
    // Midnight in Shanghai is 16:00 UTC: a new day, a new limit.
    const untilMidnight = Date.parse(`${chinaDay(origin.now())}T16:00:00Z`) - origin.now();
    origin.advance(untilMidnight);
    expect((await send({ toHandle: "bob", amount: 2 })).status).toBe(201);
    await expectLedgerWhole();
  });

  it("lets exactly 10 of 50 concurrent transfers through from a wallet that covers 10", async () => {
    await fund(alice, 1_000);
    const answers = await Promise.all(Array.from({ length: 50 }, () => send({ toHandle: "bob", amount: 100 })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 422)).toHaveLength(40);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await balanceOf(bob.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("has one effect when one key is raced 20 times", async () => {
    await fund(alice, 1_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => send({ toHandle: "bob", amount: 300 }, { key: "raced-transfer-01" })));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    expect(await balanceOf(bob.id)).toEqual({ available: 300, held: 0 });
    await expectLedgerWhole();
  });

  it("does not send twice when a write commits but its answer is lost, and the client retries", async () => {
    await fund(alice, 1_000);
    // The database commits the batch and then the connection drops (D1's ambiguous failure).
    const lossy = new Proxy(env.DB, {
      get(target, property, receiver) {
        if (property !== "batch") return Reflect.get(target, property, receiver);
        return async (statements: D1PreparedStatement[]) => {
          await target.batch(statements);
          throw new Error("D1_ERROR: Network connection lost.");
        };
      },
    });
    const lost = await send({ toHandle: "bob", amount: 400 }, { key: "lost-answer-0001", db: lossy });
    expect(lost.status).toBe(500);
    const retry = await send({ toHandle: "bob", amount: 400 }, { key: "lost-answer-0001" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await balanceOf(bob.id)).toEqual({ available: 400, held: 0 });
    await expectLedgerWhole();
  });
});

describe("retrying a refused transfer", () => {
  it("succeeds with the same key once the wallet covers it", async () => {
    await fund(alice, 100);
    expect((await send({ toHandle: "bob", amount: 500 }, { key: "retry-after-topup" })).status).toBe(422);
    await fund(alice, 400);
    expect((await send({ toHandle: "bob", amount: 500 }, { key: "retry-after-topup" })).status).toBe(201);
    expect(await balanceOf(bob.id)).toEqual({ available: 500, held: 0 });
    await expectLedgerWhole();
  });
});
