import { beforeEach, describe, expect, it } from "vitest";
import type { Receipt } from "#contract/receipts";
import type { Claim } from "#contract/tasks";
import type { WalletEntryPage } from "#contract/wallet";
import {
  expectLedgerWhole,
  fundWallet,
  openPaidTask,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;
let carol: Awaited<ReturnType<typeof seedUser>>;

const get = (path: string, auth: Record<string, string>) => origin.call(path, { method: "GET", headers: auth });

async function receiptOf(auth: Record<string, string>, kind: string, id: string): Promise<Receipt> {
  const response = await get(`/api/receipts/${kind}/${id}`, auth);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Receipt }).data;
}

async function notFound(auth: Record<string, string>, kind: string, id: string): Promise<void> {
  const response = await get(`/api/receipts/${kind}/${id}`, auth);
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: "NOT_FOUND", field: "id" });
}

async function lines(auth: Record<string, string>): Promise<WalletEntryPage["entries"]> {
  const response = await get("/api/wallet/entries?limit=50", auth);
  return ((await response.json()) as { data: WalletEntryPage }).data.entries;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
  carol = await seedUser("carol", origin.now());
});

describe("a transfer's receipt", () => {
  it("is read by both sides, with both named by handle and name; anyone else hears 404", async () => {
    await fundWallet(origin, alice, 10_000);
    const sent = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 2_345, note: "Rent 房租" },
      headers: { ...alice.auth, "Idempotency-Key": "receipt-transfer" },
    });
    const { id } = ((await sent.json()) as { data: { id: string } }).data;
    const [line] = await lines(alice.auth);

    const expected = {
      kind: "transfer",
      id,
      status: "succeeded",
      amount: 2_345,
      createdAt: new Date(origin.now()).toISOString(),
      payer: { handle: "alice", displayName: "Name of alice" },
      payee: { handle: "bob", displayName: "Name of bob" },
      method: null,
      note: "Rent 房租",
      wechatPaidOut: null,
      order: null,
      task: null,
      transactionId: line?.id,
    };
    expect(line?.receipt).toEqual({ kind: "transfer", id });
    expect(await receiptOf(alice.auth, "transfer", id)).toEqual(expected);
    expect(await receiptOf(bob.auth, "transfer", id)).toEqual(expected);
    await notFound(carol.auth, "transfer", id);
    await notFound(alice.auth, "transfer", "trf_00000000-0000-4000-8000-000000000000");
    // The same id under another kind is not a receipt either.
    await notFound(alice.auth, "payment", id);
    expect((await get(`/api/receipts/transfer/${id}`, {})).status).toBe(401);
  });
});

describe("a task's receipts", () => {
  it("gives the poster the budget's payment, both sides the reward, and the owner a refund; nobody else anything", async () => {
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const task = await openPaidTask(origin, alice, { reward: 1_000, slots: 3 });
    const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: bob.auth });
    const claim = ((await claimed.json()) as { data: Claim }).data;
    await origin.call(`/api/claims/${claim.id}/submit`, { body: { text: "Done." }, headers: bob.auth });
    expect((await origin.call(`/api/claims/${claim.id}/approve`, { headers: alice.auth })).status).toBe(200);
    const refunded = await origin.call(`/api/ops/orders/${task.orderId}/refunds`, {
      body: { amount: 1_000, reason: "One slot less, as asked." },
      headers: { ...finance.auth, "Idempotency-Key": "receipt-refund" },
    });
    expect(refunded.status).toBe(201);
    const refundId = ((await refunded.json()) as { data: { id: string } }).data.id;

    const posters = await lines(alice.auth);
    const byKind = Object.fromEntries(posters.map((line) => [line.kind, line]));
    const taskRef = { id: task.id, title: "A test task" };

    // The budget, paid from the wallet.
    const paymentRef = byKind.task_budget?.receipt;
    expect(paymentRef?.kind).toBe("payment");
    const payment = await receiptOf(alice.auth, "payment", paymentRef?.id ?? "");
    expect(payment).toMatchObject({
      status: "succeeded",
      amount: 3_000,
      payer: { handle: "alice", displayName: "Name of alice" },
      payee: null,
      method: "wallet",
      order: { id: task.orderId, kind: "task_budget" },
      task: taskRef,
      transactionId: byKind.task_budget?.id,
    });
    await notFound(bob.auth, "payment", paymentRef?.id ?? "");

    // The reward: the poster paid it, the worker received it.
    expect(byKind.task_reward_paid?.receipt).toEqual({ kind: "reward", id: claim.id });
    const [workersLine] = await lines(bob.auth);
    expect(workersLine?.receipt).toEqual({ kind: "reward", id: claim.id });
    const reward = {
      kind: "reward",
      id: claim.id,
      status: "succeeded",
      amount: 1_000,
      payer: { handle: "alice", displayName: "Name of alice" },
      payee: { handle: "bob", displayName: "Name of bob" },
      task: taskRef,
      order: null,
      transactionId: workersLine?.id,
    };
    expect(await receiptOf(alice.auth, "reward", claim.id)).toMatchObject(reward);
    expect(await receiptOf(bob.auth, "reward", claim.id)).toMatchObject(reward);
    await notFound(carol.auth, "reward", claim.id);

    // The refund of one slot, from the escrow back to the wallet.
    expect(byKind.refund?.receipt).toEqual({ kind: "refund", id: refundId });
    expect(await receiptOf(alice.auth, "refund", refundId)).toMatchObject({
      kind: "refund",
      status: "succeeded",
      amount: 1_000,
      payer: null,
      payee: { handle: "alice", displayName: "Name of alice" },
      method: "wallet",
      order: { id: task.orderId, kind: "task_budget" },
      transactionId: byKind.refund?.id,
    });
    await notFound(bob.auth, "refund", refundId);
    await notFound(finance.auth, "refund", refundId);
    await expectLedgerWhole();
  });

  it("has no reward receipt for a claim not yet approved", async () => {
    const task = await openPaidTask(origin, alice, { reward: 1_000, slots: 1 });
    const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: bob.auth });
    const claim = ((await claimed.json()) as { data: Claim }).data;
    await notFound(bob.auth, "reward", claim.id);
    await notFound(alice.auth, "reward", claim.id);
  });
});

describe("a receipt's address", () => {
  it.each([
    ["gift/trf_1", "kind"],
    ["transfer/not%20an%20id", "id"],
  ])("refuses %s with 400 naming %s", async (path, field) => {
    const response = await get(`/api/receipts/${path}`, alice.auth);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });
});
