import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Claim } from "#contract/tasks";
import type { WalletEntry, WalletEntryPage, WalletSummary } from "#contract/wallet";
import { journalStatements, walletAccountOf, worldAccount } from "./journal";
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

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;
const hour = 60 * 60 * 1000;

const get = (path: string, auth: Record<string, string>) => origin.call(path, { method: "GET", headers: auth });

async function page(auth: Record<string, string>, query = ""): Promise<WalletEntryPage> {
  const response = await get(`/api/wallet/entries${query}`, auth);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: WalletEntryPage }).data;
}

async function allEntries(auth: Record<string, string>, limit: number): Promise<WalletEntry[]> {
  const seen: WalletEntry[] = [];
  let cursor: string | null = null;
  do {
    const next: WalletEntryPage = await page(auth, `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(next.entries.length).toBeLessThanOrEqual(limit);
    seen.push(...next.entries);
    cursor = next.nextCursor;
  } while (cursor);
  return seen;
}

async function summary(auth: Record<string, string>): Promise<WalletSummary> {
  const response = await get("/api/wallet/summary", auth);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: WalletSummary }).data;
}

const transfer = (from: { auth: Record<string, string> }, toHandle: string, amount: number, note = "") =>
  origin.call("/api/transfers", {
    body: { toHandle, amount, note },
    headers: { ...from.auth, "Idempotency-Key": `t-${crypto.randomUUID()}` },
  });

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

describe("the wallet's history", () => {
  it("lists each movement newest first, signed, with who and what it was for", async () => {
    await fundWallet(origin, alice, 10_000);
    origin.advance(1_000);
    expect((await transfer(alice, "bob", 2_500, "Dinner 🍜")).status).toBe(201);
    origin.advance(1_000);
    expect((await transfer(bob, "alice", 500)).status).toBe(201);

    const { entries, nextCursor } = await page(alice.auth);
    expect(nextCursor).toBeNull();
    expect(entries.map((entry) => [entry.kind, entry.amount, entry.held])).toEqual([
      ["transfer_in", 500, 0],
      ["transfer_out", -2_500, 0],
      ["code_redeem", 10_000, 0],
    ]);
    expect(entries[0]).toMatchObject({ counterparty: { handle: "bob", displayName: "Name of bob" }, note: "", task: null, orderId: null });
    expect(entries[1]).toMatchObject({ counterparty: { handle: "bob", displayName: "Name of bob" }, note: "Dinner 🍜" });
    expect(entries[2]).toMatchObject({ counterparty: null, note: null, task: null, orderId: null });
    expect(entries.map((entry) => Date.parse(entry.createdAt) - origin.now())).toEqual([0, -1_000, -2_000]);

    const bobs = await page(bob.auth);
    expect(bobs.entries.map((entry) => [entry.kind, entry.amount, entry.counterparty?.handle])).toEqual([
      ["transfer_out", -500, "alice"],
      ["transfer_in", 2_500, "alice"],
    ]);
    await expectLedgerWhole();
  });

  it("names the task for its budget, rewards and escrow returned, and the order it was paid with", async () => {
    const worker = bob;
    const task = await openPaidTask(origin, alice, { reward: 1_000, slots: 3, deadlineInMs: 48 * hour });
    const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: worker.auth });
    const claim = ((await claimed.json()) as { data: Claim }).data;
    await origin.call(`/api/claims/${claim.id}/submit`, { body: { text: "Done." }, headers: worker.auth });
    expect((await origin.call(`/api/claims/${claim.id}/approve`, { headers: alice.auth })).status).toBe(200);
    expect((await origin.call(`/api/tasks/${task.id}/cancel`, { headers: alice.auth })).status).toBe(200);

    const posters = (await page(alice.auth)).entries;
    expect(posters.map((entry) => [entry.kind, entry.amount, entry.held])).toEqual([
      ["escrow_refund", 2_000, -2_000],
      ["task_reward_paid", 0, -1_000],
      ["task_budget", -3_000, 3_000],
      ["code_redeem", 3_000, 0],
    ]);
    const taskRef = { id: task.id, title: "A test task" };
    expect(posters[0]).toMatchObject({ task: taskRef, counterparty: null });
    expect(posters[1]).toMatchObject({ task: taskRef, counterparty: { handle: "bob" } });
    expect(posters[2]).toMatchObject({ task: taskRef, orderId: task.orderId });

    const workers = (await page(worker.auth)).entries;
    expect(workers).toHaveLength(1);
    expect(workers[0]).toMatchObject({ kind: "task_reward", amount: 1_000, held: 0, task: taskRef, counterparty: { handle: "alice" } });
    await expectLedgerWhole();
  });

  it("names the order of an online recharge", async () => {
    const created = await origin.call("/api/orders/recharge", {
      body: { amount: 5_000 },
      headers: { ...alice.auth, "Idempotency-Key": "recharge-history" },
    });
    const order = ((await created.json()) as { data: { id: string } }).data.id;
    // What a settled WeChat Pay recharge writes (src/wechat-pay/payments/settle-success.ts), in one batch.
    const txId = `tx_${crypto.randomUUID()}`;
    const paymentId = `pay_${crypto.randomUUID()}`;
    const now = origin.now();
    await env.DB.batch([
      ...journalStatements(env.DB, {
        id: txId,
        kind: "recharge",
        at: now,
        postings: [
          { account: worldAccount, amount: -5_000 },
          { account: walletAccountOf(alice.id), amount: 5_000 },
        ],
      }),
      env.DB.prepare(
        "INSERT INTO payment (id, order_id, method, status, amount, tx_id, created_at, updated_at) VALUES (?1, ?2, 'wechat', 'succeeded', 5000, ?3, ?4, ?4)",
      ).bind(paymentId, order, txId, now),
      env.DB.prepare("UPDATE orders SET status = 'paid', paid_at = ?1 WHERE id = ?2").bind(now, order),
    ]);
    expect((await page(alice.auth)).entries).toEqual([
      {
        id: txId,
        kind: "recharge",
        amount: 5_000,
        held: 0,
        counterparty: null,
        task: null,
        orderId: order,
        note: null,
        createdAt: new Date(now).toISOString(),
        balanceAfter: 5_000,
        receipt: { kind: "payment", id: paymentId },
      },
    ]);
    await expectLedgerWhole();
  });

  it("adds up to the balance, page by page, without gaps or repeats", async () => {
    await fundWallet(origin, alice, 100_000);
    await fundWallet(origin, bob, 100_000);
    for (let i = 1; i <= 7; i += 1) {
      origin.advance(10);
      expect((await transfer(i % 2 ? alice : bob, i % 2 ? "bob" : "alice", i * 100)).status).toBe(201);
    }
    await openPaidTask(origin, alice, { reward: 500, slots: 2 });

    const whole = await allEntries(alice.auth, 50);
    for (const limit of [1, 2, 3]) {
      const paged = await allEntries(alice.auth, limit);
      expect(paged.map((entry) => entry.id)).toEqual(whole.map((entry) => entry.id));
    }
    expect(new Set(whole.map((entry) => entry.id)).size).toBe(whole.length);
    const balance = await balanceOf(alice.id);
    expect(whole.reduce((sum, entry) => sum + entry.amount, 0)).toBe(balance.available);
    expect(whole.reduce((sum, entry) => sum + entry.held, 0)).toBe(balance.held);
  });

  it("is empty for a new wallet", async () => {
    expect(await page(alice.auth)).toEqual({ entries: [], nextCursor: null });
  });

  it("shows only my own wallet, and only when signed in", async () => {
    await fundWallet(origin, alice, 1_000);
    expect((await page(bob.auth)).entries).toEqual([]);
    const signedOut = await get("/api/wallet/entries", {});
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toMatchObject({ code: "UNAUTHENTICATED" });
    expect((await get("/api/wallet/summary", {})).status).toBe(401);
    // Another's cursor only says where to start in my own history.
    await fundWallet(origin, alice, 1_000);
    const first = await page(alice.auth, "?limit=1");
    expect(first.nextCursor).not.toBeNull();
    expect((await page(bob.auth, `?cursor=${encodeURIComponent(first.nextCursor ?? "")}`)).entries).toEqual([]);
  });

  it.each([
    ["a limit of 0", "?limit=0", "limit"],
    ["a limit over 50", "?limit=51", "limit"],
    ["a cursor it did not give", "?cursor=bm9wZQ", "cursor"],
    ["an unknown parameter", "?wallet=acc_usr_bob", "wallet"],
  ])("refuses %s with 400", async (_, query, field) => {
    const response = await get(`/api/wallet/entries${query}`, alice.auth);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });
});

describe("the home screen's summary", () => {
  it("counts my claims still to submit (not expired) and submissions waiting for my check", async () => {
    const carol = await seedUser("carol", origin.now());
    expect(await summary(alice.auth)).toEqual({ balances: { available: 0, held: 0 }, claimsToSubmit: 0, submissionsToCheck: 0 });

    const mine = await openPaidTask(origin, alice, { reward: 100, slots: 3, deadlineInMs: 72 * hour });
    const theirs = await openPaidTask(origin, carol, { reward: 100, slots: 3, deadlineInMs: 72 * hour });
    const claimOf = async (taskId: string, auth: Record<string, string>) =>
      ((await (await origin.call(`/api/tasks/${taskId}/claims`, { headers: auth })).json()) as { data: Claim }).data.id;
    const bobOnMine = await claimOf(mine.id, bob.auth);
    await claimOf(mine.id, carol.auth);
    await claimOf(theirs.id, bob.auth);
    await origin.call(`/api/claims/${bobOnMine}/submit`, { body: { text: "Done." }, headers: bob.auth });

    expect(await summary(alice.auth)).toEqual({ balances: { available: 0, held: 300 }, claimsToSubmit: 0, submissionsToCheck: 1 });
    expect(await summary(bob.auth)).toMatchObject({ claimsToSubmit: 1, submissionsToCheck: 0 });
    expect(await summary(carol.auth)).toMatchObject({ claimsToSubmit: 1, submissionsToCheck: 0 });

    // A claim past its 24 hours is no longer to do, even before the cron lapses it.
    origin.advance(24 * hour);
    expect(await summary(bob.auth)).toMatchObject({ claimsToSubmit: 0 });
    expect(await summary(alice.auth)).toMatchObject({ submissionsToCheck: 1 });
  });
});
