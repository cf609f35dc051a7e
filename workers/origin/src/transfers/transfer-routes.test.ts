import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  balanceOf,
  countingRoundTrips,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { chinaDay } from "./china-day";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;

const fund = (user: { auth: Record<string, string> }, value: number) => fundWallet(origin, user, value);

function send(
  body: unknown,
  { auth = alice.auth, key = `trf-${crypto.randomUUID()}`, db }: { auth?: Record<string, string>; key?: string; db?: D1Database } = {},
) {
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
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => send({ toHandle: "bob", amount: 300 }, { key: "raced-transfer-01" })),
    );
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

describe("one round trip per transfer", () => {
  it("checks the session, finds the recipient, moves the money and records the answer in one batch", async () => {
    await fund(alice, 1_000);
    const counter = countingRoundTrips();
    const response = await send({ toHandle: "bob", amount: 250, note: "Lunch" }, { db: counter.db });
    expect(response.status).toBe(201);
    expect(counter.trips()).toBe(1);
    const receipt = (await response.json()) as {
      code: string;
      data: { id: string; to: unknown; amount: number; note: string; createdAt: string };
    };
    expect(receipt).toEqual({
      code: "SUCCESS",
      data: {
        id: expect.stringMatching(/^trf_/),
        to: { handle: "bob", displayName: "Name of bob" },
        amount: 250,
        note: "Lunch",
        createdAt: new Date(origin.now()).toISOString(),
      },
    });
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    await expectLedgerWhole();
  });

  it("renews the session it uses, like every signed-in request", async () => {
    await fund(alice, 1_000);
    origin.advance(60_000);
    expect((await send({ toHandle: "bob", amount: 1 })).status).toBe(201);
    const session = await env.DB.prepare("SELECT last_used_at FROM session WHERE user_id = ?1")
      .bind(alice.id)
      .first<number>("last_used_at");
    expect(session).toBe(origin.now());
  });

  it("answers 401 for a session ended or idle too long, moving nothing", async () => {
    await fund(alice, 1_000);
    await env.DB.prepare("UPDATE session SET ended_at = ?1 WHERE user_id = ?2").bind(origin.now(), alice.id).run();
    const ended = await send({ toHandle: "bob", amount: 100 });
    expect(ended.status).toBe(401);
    expect(await ended.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    origin.advance(31 * 24 * 60 * 60 * 1000);
    expect((await send({ toHandle: "alice", amount: 100 }, { auth: bob.auth })).status).toBe(401);
    expect((await send({ toHandle: "bob", amount: 100 }, { auth: {} })).status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM transfer").first("n")).toBe(0);
  });

  it("records a transfer to oneself as refused, and not an unknown recipient (who may register)", async () => {
    await fund(alice, 1_000);
    expect((await send({ toHandle: "alice", amount: 1 }, { key: "self-key-0001" })).status).toBe(422);
    const again = await send({ toHandle: "alice", amount: 1 }, { key: "self-key-0001" });
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toMatchObject({ code: "TRANSFER_TO_SELF", field: "toHandle" });

    expect((await send({ toHandle: "carol", amount: 100 }, { key: "later-recipient" })).status).toBe(404);
    await seedUser("carol", origin.now());
    expect((await send({ toHandle: "carol", amount: 100 }, { key: "later-recipient" })).status).toBe(201);
    await expectLedgerWhole();
  });

  it("refuses the key with another body (422) without a second effect", async () => {
    await fund(alice, 1_000);
    expect((await send({ toHandle: "bob", amount: 100 }, { key: "reused-trf-key" })).status).toBe(201);
    const other = await send({ toHandle: "bob", amount: 200 }, { key: "reused-trf-key" });
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await balanceOf(bob.id)).toEqual({ available: 100, held: 0 });
  });

  it("answers twins of a transfer that used all the money with its answer, not a refusal", async () => {
    await fund(alice, 300);
    const answers = await Promise.all(Array.from({ length: 10 }, () => send({ toHandle: "bob", amount: 300 }, { key: "all-the-money" })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(await Promise.all(answers.map((answer) => answer.text()))).size).toBe(1);
    expect(await balanceOf(bob.id)).toEqual({ available: 300, held: 0 });
    await expectLedgerWhole();
  });
});
