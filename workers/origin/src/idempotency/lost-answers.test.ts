import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OrderDetail } from "#contract/orders";
import type { Claim, Task } from "#contract/tasks";
import {
  answerLostAfterCommit,
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  fundWallet,
  openPaidTask,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

/**
 * docs/api-contract.md: the same Idempotency-Key with the same request answers the first answer.
 * Each test commits a change, loses its answer on the way back (the batch commits, then the
 * connection drops), and retries: the retry hears the first answer and the money moved once.
 */
let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;
let worker: Awaited<ReturnType<typeof seedUser>>;

type Call = { body?: unknown; key?: string; auth?: Record<string, string>; db?: D1Database };
const post = (path: string, { body, key, auth = poster.auth, db }: Call = {}) =>
  origin.call(path, { body, headers: { ...auth, ...(key ? { "Idempotency-Key": key } : {}) }, db });

async function submittedClaim(task: Task): Promise<string> {
  const claimed = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth });
  const { id } = ((await claimed.json()) as { data: Claim }).data;
  expect((await post(`/api/claims/${id}/submit`, { auth: worker.auth, body: { text: "Done." } })).status).toBe(200);
  return id;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
  worker = await seedUser("worker", origin.now());
});

describe("approving a claim", () => {
  it("answers a retry after a lost answer with the first answer, paying once", async () => {
    const claim = await submittedClaim(await openPaidTask(origin, poster, { reward: 700, slots: 1 }));
    const lost = await post(`/api/claims/${claim}/approve`, { key: "approve-key-0001", db: answerLostAfterCommit() });
    expect(lost.status).toBe(500);

    const retry = await post(`/api/claims/${claim}/approve`, { key: "approve-key-0001" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const answer = (await retry.json()) as { code: string; data: Claim };
    expect(answer).toMatchObject({
      code: "SUCCESS",
      data: { id: claim, status: "approved", decidedAt: new Date(origin.now()).toISOString() },
    });
    const again = await post(`/api/claims/${claim}/approve`, { key: "approve-key-0001" });
    expect(await again.json()).toEqual(answer);

    expect(await balanceOf(worker.id)).toEqual({ available: 700, held: 0 });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerWhole();
  });

  it("without a key, a repeat after success is a 409 that says the claim was approved", async () => {
    const claim = await submittedClaim(await openPaidTask(origin, poster, { reward: 700, slots: 1 }));
    expect((await post(`/api/claims/${claim}/approve`)).status).toBe(200);
    const repeat = await post(`/api/claims/${claim}/approve`);
    expect(repeat.status).toBe(409);
    expect(await repeat.json()).toMatchObject({ code: "CLAIM_NOT_SUBMITTED", message: "This claim was already approved." });
    expect(await balanceOf(worker.id)).toEqual({ available: 700, held: 0 });
  });

  it("has one effect and one answer when one key is raced", async () => {
    const claim = await submittedClaim(await openPaidTask(origin, poster, { reward: 300, slots: 1 }));
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(`/api/claims/${claim}/approve`, { key: "approve-raced-01" })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(await Promise.all(answers.map((answer) => answer.text()))).size).toBe(1);
    expect(await balanceOf(worker.id)).toEqual({ available: 300, held: 0 });
    await expectLedgerWhole();
  });

  it("refuses the key on another claim (422), and another key on a decided claim (409)", async () => {
    const task = await openPaidTask(origin, poster, { reward: 300, slots: 2 });
    const first = await submittedClaim(task);
    const other = await seedUser("other", origin.now());
    const claimed = await post(`/api/tasks/${task.id}/claims`, { auth: other.auth });
    const second = ((await claimed.json()) as { data: Claim }).data.id;
    expect((await post(`/api/claims/${first}/approve`, { key: "approve-key-0002" })).status).toBe(200);
    const reused = await post(`/api/claims/${second}/approve`, { key: "approve-key-0002" });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect((await post(`/api/claims/${first}/approve`, { key: "approve-key-0003" })).status).toBe(409);
  });
});

describe("rejecting a claim", () => {
  it("answers a retry after a lost answer with the first answer; another reason under the key is refused", async () => {
    const claim = await submittedClaim(await openPaidTask(origin, poster, { reward: 500, slots: 1 }));
    const body = { reason: "The screenshot shows another app." };
    expect((await post(`/api/claims/${claim}/reject`, { key: "reject-key-0001", body, db: answerLostAfterCommit() })).status).toBe(500);

    const retry = await post(`/api/claims/${claim}/reject`, { key: "reject-key-0001", body });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({ data: { status: "rejected", rejectReason: body.reason } });

    const otherReason = await post(`/api/claims/${claim}/reject`, { key: "reject-key-0001", body: { reason: "Changed my mind." } });
    expect(otherReason.status).toBe(422);
    const unkeyed = await post(`/api/claims/${claim}/reject`, { body });
    expect(unkeyed.status).toBe(409);
    expect(await unkeyed.json()).toMatchObject({ code: "CLAIM_NOT_SUBMITTED", message: "This claim was already rejected." });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 500 });
    await expectLedgerWhole();
  });
});

describe("claiming a task", () => {
  it("answers a retry after a lost answer with the first claim, taking one slot", async () => {
    const task = await openPaidTask(origin, poster, { reward: 400, slots: 2 });
    const lost = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth, key: "claim-key-0001", db: answerLostAfterCommit() });
    expect(lost.status).toBe(500);

    const retry = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth, key: "claim-key-0001" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const answer = (await retry.json()) as { data: Claim };
    expect(answer.data).toMatchObject({
      task: { id: task.id, reward: 400 },
      worker: { handle: "worker" },
      status: "claimed",
      createdAt: new Date(origin.now()).toISOString(),
    });
    const stored = await env.DB.prepare("SELECT id, expires_at FROM claim WHERE task_id = ?1").bind(task.id).all();
    expect(stored.results).toEqual([{ id: answer.data.id, expires_at: Date.parse(answer.data.expiresAt) }]);
    expect(await env.DB.prepare("SELECT slots_taken FROM task WHERE id = ?1").bind(task.id).first("slots_taken")).toBe(1);

    // Without a key, a repeat meets the one claim per task; the key on another task is refused.
    const unkeyed = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth });
    expect(unkeyed.status).toBe(409);
    expect(await unkeyed.json()).toMatchObject({ code: "ALREADY_CLAIMED" });
    const other = await openPaidTask(origin, poster, { reward: 400, slots: 1 });
    expect((await post(`/api/tasks/${other.id}/claims`, { auth: worker.auth, key: "claim-key-0001" })).status).toBe(422);
  });

  it("lets a full task be claimed again under the same key once a slot reopens", async () => {
    const task = await openPaidTask(origin, poster, { reward: 400, slots: 1 });
    const other = await seedUser("other", origin.now());
    const taken = await post(`/api/tasks/${task.id}/claims`, { auth: other.auth });
    const full = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth, key: "claim-key-0002" });
    expect(full.status).toBe(409);
    expect(await full.json()).toMatchObject({ code: "TASK_NOT_CLAIMABLE" });
    // The other's claim lapses unsubmitted (24 hours), and its slot reopens.
    const { id } = ((await taken.json()) as { data: Claim }).data;
    await env.DB.prepare("UPDATE claim SET status = 'lapsed' WHERE id = ?1").bind(id).run();
    expect((await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth, key: "claim-key-0002" })).status).toBe(201);
  });
});

describe("submitting proof", () => {
  it("answers a retry after a lost answer with the first answer; other proof under the key is refused", async () => {
    const task = await openPaidTask(origin, poster, { reward: 400, slots: 1 });
    const claimed = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth });
    const { id } = ((await claimed.json()) as { data: Claim }).data;
    const body = { text: "Done: see the link.", url: "https://example.com/proof" };
    const lost = await post(`/api/claims/${id}/submit`, { auth: worker.auth, key: "submit-key-0001", body, db: answerLostAfterCommit() });
    expect(lost.status).toBe(500);

    const retry = await post(`/api/claims/${id}/submit`, { auth: worker.auth, key: "submit-key-0001", body });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({
      data: { id, status: "submitted", proof: body, submittedAt: new Date(origin.now()).toISOString() },
    });
    const otherProof = await post(`/api/claims/${id}/submit`, { auth: worker.auth, key: "submit-key-0001", body: { text: "Other." } });
    expect(otherProof.status).toBe(422);
    const unkeyed = await post(`/api/claims/${id}/submit`, { auth: worker.auth, body });
    expect(unkeyed.status).toBe(409);
    expect(await unkeyed.json()).toMatchObject({ code: "CLAIM_NOT_SUBMITTED", message: "This claim was already submitted." });
  });

  it("refuses proof for a claim that lapsed between the read and the write, writing nothing", async () => {
    const task = await openPaidTask(origin, poster, { reward: 400, slots: 1 });
    const claimed = await post(`/api/tasks/${task.id}/claims`, { auth: worker.auth });
    const { id } = ((await claimed.json()) as { data: Claim }).data;
    const lapse = () => env.DB.prepare("UPDATE claim SET status = 'lapsed' WHERE id = ?1").bind(id).run();
    const late = await post(`/api/claims/${id}/submit`, {
      auth: worker.auth,
      key: "submit-key-0002",
      body: { text: "Done." },
      db: beforeBatch(1, lapse),
    });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "CLAIM_EXPIRED" });
    expect(await env.DB.prepare("SELECT status, proof_text FROM claim WHERE id = ?1").bind(id).first()).toEqual({
      status: "lapsed",
      proof_text: null,
    });
  });
});

describe("cancelling a task", () => {
  it("answers a retry after a lost answer with the first answer, returning the escrow once", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 3 });
    await submittedClaim(task);
    expect((await post(`/api/tasks/${task.id}/cancel`, { key: "cancel-task-0001", db: answerLostAfterCommit() })).status).toBe(500);
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 1_000 });

    const retry = await post(`/api/tasks/${task.id}/cancel`, { key: "cancel-task-0001" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({ data: { id: task.id, status: "cancelled", escrowRemaining: 1_000 } });
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 1_000 });
    await expectLedgerWhole();
  });

  it("keeps the escrow of a claim made between its read and its write", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 3 });
    // The worker's claim lands just before the cancel's batch runs.
    const racedClaim = `clm_${crypto.randomUUID()}`;
    let raced = false;
    const racing = new Proxy(env.DB, {
      get(target, property, receiver) {
        if (property !== "batch") return Reflect.get(target, property, receiver);
        return async (statements: D1PreparedStatement[]) => {
          if (!raced) {
            raced = true;
            await target
              .prepare("INSERT INTO claim (id, task_id, worker_id, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
              .bind(racedClaim, task.id, worker.id, origin.now() + 3_600_000, origin.now())
              .run();
          }
          return target.batch(statements);
        };
      },
    });
    const cancelled = await post(`/api/tasks/${task.id}/cancel`, { db: racing });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ data: { status: "cancelled", escrowRemaining: 1_000 } });
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 1_000 });

    // The claim that raced in can still be submitted and paid.
    expect((await post(`/api/claims/${racedClaim}/submit`, { auth: worker.auth, body: { text: "Done." } })).status).toBe(200);
    expect((await post(`/api/claims/${racedClaim}/approve`)).status).toBe(200);
    expect(await balanceOf(worker.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });
});

describe("cancelling an order", () => {
  async function pendingOrder(): Promise<string> {
    const created = await post("/api/orders/recharge", { body: { amount: 2_000 }, key: `recharge-${crypto.randomUUID()}` });
    return ((await created.json()) as { data: { id: string } }).data.id;
  }

  it("answers a retry after a lost answer with the first answer", async () => {
    const order = await pendingOrder();
    expect((await post(`/api/orders/${order}/cancel`, { key: "cancel-order-01", db: answerLostAfterCommit() })).status).toBe(500);
    origin.advance(60_000);
    const retry = await post(`/api/orders/${order}/cancel`, { key: "cancel-order-01" });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const { data } = (await retry.json()) as { data: OrderDetail };
    expect(data).toMatchObject({ status: "closed", closeReason: "cancelled", closedAt: new Date(origin.now() - 60_000).toISOString() });
    expect(data.history.map((event) => event.status)).toEqual(["pending", "closed"]);
  });

  it("refuses to cancel a paid order, under a key too", async () => {
    const task = await openPaidTask(origin, poster, { reward: 100, slots: 1 });
    const refused = await post(`/api/orders/${task.orderId}/cancel`, { key: "cancel-order-02" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "ORDER_NOT_PENDING", message: "This order is already paid." });
    expect((await post(`/api/orders/${task.orderId}/cancel`, { key: "cancel-order-02" })).headers.get("Idempotent-Replayed")).toBe("true");
  });
});

describe("paying an order from the wallet", () => {
  /** A task's budget order of ¥10.00, and a wallet holding exactly that. */
  async function budgetToPay(title: string): Promise<{ id: string }> {
    await fundWallet(origin, poster, 1_000);
    const posted = await post("/api/tasks", {
      key: `task-${crypto.randomUUID()}`,
      body: { title, description: "Pay me once.", reward: 500, slots: 2, deadline: new Date(origin.now() + 7_200_000).toISOString() },
    });
    return ((await posted.json()) as { data: { order: { id: string } } }).data.order;
  }

  it("answers a retry after a lost answer with the first answer, paying once", async () => {
    const order = await budgetToPay("Lost answer");
    const body = { method: "wallet" };
    expect((await post(`/api/orders/${order.id}/pay`, { key: "pay-lost-0001", body, db: answerLostAfterCommit() })).status).toBe(500);
    const retry = await post(`/api/orders/${order.id}/pay`, { key: "pay-lost-0001", body });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({ data: { orderId: order.id, status: "paid", amount: 1_000 } });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 1_000 });
    await expectLedgerWhole();
  });

  it("answers a retry that races its own first request with the first answer, not a refusal", async () => {
    const order = await budgetToPay("Raced retry");
    const body = { method: "wallet" };
    // The client gave up on its first request and sent it again; the first commits while the
    // retry runs, after the retry looked for an answer under the key and before its batch.
    let first: Response | undefined;
    const firstCommits = async () => {
      first = await post(`/api/orders/${order.id}/pay`, { key: "pay-raced-0001", body });
    };
    const retry = await post(`/api/orders/${order.id}/pay`, { key: "pay-raced-0001", body, db: beforeBatch(1, firstCommits) });
    expect(first?.status).toBe(201);
    // The wallet no longer holds the amount (the first request spent it), yet this is the same request.
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toMatchObject({ data: { orderId: order.id, status: "paid", amount: 1_000 } });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 1_000 });
    await expectLedgerWhole();
  });
});
