import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Claim, Task } from "#contract/tasks";
import {
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  openPaidTask,
  resetDatabase,
  seedOpenTasks,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;
let workers: Awaited<ReturnType<typeof seedUser>>[];
const hour = 60 * 60 * 1000;

const openTask = ({ reward = 1_000, slots = 2, deadlineIn = 48 * hour } = {}): Promise<Task> =>
  openPaidTask(origin, poster, { reward, slots, deadlineInMs: deadlineIn });

const claim = (taskId: string, auth: Record<string, string>) => origin.call(`/api/tasks/${taskId}/claims`, { headers: auth });
const submit = (
  claimId: string,
  auth: Record<string, string>,
  body: unknown = { text: "Done: installed on Android, review attached.", url: "https://example.com/proof.png" },
) => origin.call(`/api/claims/${claimId}/submit`, { body, headers: auth });
const decide = (claimId: string, verdict: "approve" | "reject", body?: unknown) =>
  origin.call(`/api/claims/${claimId}/${verdict}`, { body, headers: poster.auth });

async function claimed(taskId: string, auth: Record<string, string>): Promise<Claim> {
  const response = await claim(taskId, auth);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Claim }).data;
}

async function slotsLeft(taskId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT slots - slots_taken AS n FROM task WHERE id = ?1").bind(taskId).first<{ n: number }>();
  return row?.n ?? NaN;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
  workers = await Promise.all(["worker_1", "worker_2", "worker_3"].map((name) => seedUser(name, origin.now())));
});

describe("claiming", () => {
  it("takes a slot, due in 24 hours, once per user, never one's own task, never past full", async () => {
    const task = await openTask({ slots: 2 });
    const [w1, w2, w3] = workers;
    if (!w1 || !w2 || !w3) throw new Error("workers");
    const first = await claimed(task.id, w1.auth);
    expect(first).toMatchObject({ status: "claimed", task: { id: task.id, reward: 1_000 } });
    expect(Date.parse(first.expiresAt) - Date.parse(first.createdAt)).toBe(24 * hour);
    expect(await (await claim(task.id, w1.auth)).json()).toMatchObject({ code: "ALREADY_CLAIMED" });
    expect(await (await claim(task.id, poster.auth)).json()).toMatchObject({ code: "TASK_NOT_CLAIMABLE" });
    await claimed(task.id, w2.auth);
    const full = await claim(task.id, w3.auth);
    expect(full.status).toBe(409);
    expect(await full.json()).toMatchObject({ code: "TASK_NOT_CLAIMABLE" });
    expect(await slotsLeft(task.id)).toBe(0);
  });

  it("is due by the deadline when that comes sooner than 24 hours", async () => {
    const task = await openTask({ deadlineIn: 3 * hour });
    const { expiresAt } = await claimed(task.id, workers[0]?.auth ?? {});
    expect(expiresAt).toBe(task.deadline);
  });

  it("gives exactly the free slots when many claim at once", async () => {
    const task = await openTask({ slots: 2 });
    const more = await Promise.all(["worker_4", "worker_5", "worker_6"].map((name) => seedUser(name, origin.now())));
    const answers = await Promise.all([...workers, ...more].map((worker) => claim(task.id, worker.auth)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    expect(await slotsLeft(task.id)).toBe(0);
  });
});

describe("my claims, 100 at a time", () => {
  it("answers the newest 100, and the ones before a claim with `before`; another's claim pages nothing", async () => {
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const tasks = await seedOpenTasks(origin, poster.id, 101);
    const claims: string[] = [];
    for (const taskId of tasks) {
      claims.push((await claimed(taskId, w1.auth)).id);
      origin.advance(1);
    }
    const page = async (query: string, auth = w1.auth) => {
      const answer = await origin.call(`/api/claims?view=mine${query}`, { method: "GET", headers: auth });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: Claim[] }).data.map((claim) => claim.id);
    };
    const first = await page("");
    expect(first).toEqual([...claims].reverse().slice(0, 100));
    expect(await page(`&before=${first.at(-1)}`)).toEqual([claims[0]]);
    expect(await page(`&before=${claims[0]}`)).toEqual([]);
    expect(await page(`&before=${first[0]}`, w2.auth)).toEqual([]);
    // The queue to check is not paged: `before` changes nothing there.
    const toCheck = async (query: string) =>
      (await (await origin.call(`/api/claims?view=to_check${query}`, { method: "GET", headers: poster.auth })).json()) as unknown;
    expect(await toCheck(`&before=${first[0]}`)).toEqual(await toCheck(""));
  });
});

describe("submitting and checking", () => {
  it("tells a submit racing its own twin (a double click) that the claim was submitted, not that it expired", async () => {
    const task = await openTask();
    const worker = workers[0];
    if (!worker) throw new Error("worker");
    const { id } = await claimed(task.id, worker.auth);
    const answers = await Promise.all([submit(id, worker.auth), submit(id, worker.auth)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const refused = answers.find((answer) => answer.status === 409);
    expect(await refused?.json()).toMatchObject({ code: "CLAIM_NOT_SUBMITTED" });
  });

  it("approve moves the reward from the poster's escrow to the worker, once", async () => {
    const task = await openTask({ reward: 1_000, slots: 2 });
    const worker = workers[0];
    if (!worker) throw new Error("worker");
    const { id } = await claimed(task.id, worker.auth);
    const submitted = await submit(id, worker.auth);
    expect(((await submitted.json()) as { data: Claim }).data).toMatchObject({
      status: "submitted",
      proof: { url: "https://example.com/proof.png" },
    });

    const queue = await origin.call("/api/claims?view=to_check", { method: "GET", headers: poster.auth });
    // The poster decides to pay a person: the queue names them by handle beside display name.
    expect(((await queue.json()) as { data: Claim[] }).data).toMatchObject([
      { id, worker: { handle: "worker_1", displayName: "Name of worker_1" } },
    ]);

    const approved = await decide(id, "approve");
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { data: Claim }).data.status).toBe("approved");
    expect(await balanceOf(worker.id)).toEqual({ available: 1_000, held: 0 });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 1_000 });

    const again = await decide(id, "approve");
    expect(again.status).toBe(409);
    expect(await balanceOf(worker.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("pays once when approvals race", async () => {
    const task = await openTask({ reward: 700, slots: 1 });
    const worker = workers[0];
    if (!worker) throw new Error("worker");
    const { id } = await claimed(task.id, worker.auth);
    await submit(id, worker.auth);
    const answers = await Promise.all([decide(id, "approve"), decide(id, "approve"), decide(id, "approve")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await balanceOf(worker.id)).toEqual({ available: 700, held: 0 });
    await expectLedgerWhole();
  });

  it("reject keeps the money in escrow, records the reason and reopens the slot", async () => {
    const task = await openTask({ slots: 1 });
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const { id } = await claimed(task.id, w1.auth);
    await submit(id, w1.auth);
    expect(await slotsLeft(task.id)).toBe(0);
    const rejected = await decide(id, "reject", { reason: "The review is about another app." });
    expect(((await rejected.json()) as { data: Claim }).data).toMatchObject({
      status: "rejected",
      rejectReason: "The review is about another app.",
    });
    expect(await slotsLeft(task.id)).toBe(1);
    expect(await balanceOf(w1.id)).toEqual({ available: 0, held: 0 });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 1_000 });
    await claimed(task.id, w2.auth);
    expect(await (await claim(task.id, w1.auth)).json()).toMatchObject({ code: "ALREADY_CLAIMED" });
    await expectLedgerWhole();
  });

  it("cannot reject once 72 hours have passed: the submission stands approved", async () => {
    const task = await openTask({ reward: 400, slots: 1, deadlineIn: 10 * 24 * hour });
    const worker = workers[0];
    if (!worker) throw new Error("worker");
    const { id } = await claimed(task.id, worker.auth);
    await submit(id, worker.auth);
    origin.advance(72 * hour);
    const late = await decide(id, "reject", { reason: "Too late to say so." });
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "CLAIM_NOT_SUBMITTED", message: expect.stringContaining("approved automatically") });
    expect((await decide(id, "approve")).status).toBe(200);
    expect(await balanceOf(worker.id)).toEqual({ available: 400, held: 0 });
  });

  it("refuses proof after the claim's time ran out, and proof that is not text plus an https link", async () => {
    const task = await openTask();
    const worker = workers[0];
    if (!worker) throw new Error("worker");
    const { id } = await claimed(task.id, worker.auth);
    const insecure = await submit(id, worker.auth, { text: "Done", url: "http://example.com/x" });
    expect(insecure.status).toBe(400);
    expect(await insecure.json()).toMatchObject({ field: "url" });
    expect((await submit(id, worker.auth, { text: "x".repeat(2_001) })).status).toBe(400);
    for (const url of ["https:example.com", "https:/\\example.com"]) {
      const odd = await submit(id, worker.auth, { text: "Done", url });
      expect(odd.status, url).toBe(400);
    }
    origin.advance(24 * hour);
    const late = await submit(id, worker.auth);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "CLAIM_EXPIRED" });
  });

  it("lets only the worker submit and only the poster check", async () => {
    const task = await openTask();
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const { id } = await claimed(task.id, w1.auth);
    expect((await submit(id, w2.auth)).status).toBe(404);
    await submit(id, w1.auth);
    expect((await origin.call(`/api/claims/${id}/approve`, { headers: w1.auth })).status).toBe(404);
    expect((await origin.call(`/api/claims/${id}/reject`, { body: { reason: "no" }, headers: w2.auth })).status).toBe(404);
    const mine = await origin.call("/api/claims?view=mine", { method: "GET", headers: w1.auth });
    expect(((await mine.json()) as { data: Claim[] }).data.map((item) => item.status)).toEqual(["submitted"]);
  });

  it("refuses status changes the rules do not allow, whatever the code above does", async () => {
    const task = await openTask();
    const { id } = await claimed(task.id, workers[0]?.auth ?? {});
    await expect(env.DB.prepare("UPDATE claim SET status = 'approved' WHERE id = ?1").bind(id).run()).rejects.toThrow(/not allowed/);
    await expect(
      env.DB.prepare("INSERT INTO claim_capture (claim_id, tx_id, amount, at) VALUES (?1, 'tx_none', 1, 1)").bind(id).run(),
    ).rejects.toThrow();
  });
});

describe("giving up a claim", () => {
  const withdraw = (claimId: string, auth: Record<string, string>, key?: string) =>
    origin.call(`/api/claims/${claimId}/withdraw`, { headers: { ...auth, ...(key ? { "Idempotency-Key": key } : {}) } });

  it("reopens its slot for others, says it was given up, and leaves the task unclaimable by the same worker", async () => {
    const task = await openTask({ slots: 1 });
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const mine = await claimed(task.id, w1.auth);
    expect(await slotsLeft(task.id)).toBe(0);
    expect(await (await claim(task.id, w2.auth)).json()).toMatchObject({ code: "TASK_NOT_CLAIMABLE" });

    const answer = await withdraw(mine.id, w1.auth);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      code: "SUCCESS",
      data: { id: mine.id, status: "withdrawn", proof: null, decidedAt: new Date(origin.now()).toISOString() },
    });
    expect(await slotsLeft(task.id)).toBe(1);
    const listed = await origin.call("/api/claims?view=mine", { method: "GET", headers: w1.auth });
    expect(((await listed.json()) as { data: Claim[] }).data.map((item) => item.status)).toEqual(["withdrawn"]);

    // One claim per user per task: the same worker cannot come back; another can.
    expect(await (await claim(task.id, w1.auth)).json()).toMatchObject({ code: "ALREADY_CLAIMED" });
    await claimed(task.id, w2.auth);
    // Neither proof nor a second give-up moves it.
    expect(await (await submit(mine.id, w1.auth)).json()).toMatchObject({
      code: "CLAIM_WITHDRAWN",
      message: "You gave up this claim: it can no longer be submitted.",
    });
    const again = await withdraw(mine.id, w1.auth);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "CLAIM_NOT_WITHDRAWABLE" });
    await expectLedgerWhole();
  });

  it("refuses a claim whose time ran out, before the cron has marked it lapsed, and after", async () => {
    const task = await openTask();
    const [w1] = workers;
    if (!w1) throw new Error("workers");
    const mine = await claimed(task.id, w1.auth);
    origin.advance(24 * hour);
    const late = await withdraw(mine.id, w1.auth);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "CLAIM_EXPIRED" });
    await env.DB.prepare("UPDATE claim SET status = 'lapsed', decided_at = expires_at WHERE id = ?1").bind(mine.id).run();
    expect(await (await withdraw(mine.id, w1.auth)).json()).toMatchObject({ code: "CLAIM_EXPIRED" });
    expect(await env.DB.prepare("SELECT withdrawn_at FROM claim WHERE id = ?1").bind(mine.id).first("withdrawn_at")).toBeNull();
  });

  it("refuses a submitted claim, and anyone but its worker", async () => {
    const task = await openTask();
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const mine = await claimed(task.id, w1.auth);
    expect((await withdraw(mine.id, w2.auth)).status).toBe(404);
    expect((await withdraw(mine.id, poster.auth)).status).toBe(404);
    expect((await submit(mine.id, w1.auth)).status).toBe(200);
    const late = await withdraw(mine.id, w1.auth);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "CLAIM_NOT_WITHDRAWABLE" });
    expect(await env.DB.prepare("SELECT status, withdrawn_at FROM claim WHERE id = ?1").bind(mine.id).first()).toEqual({
      status: "submitted",
      withdrawn_at: null,
    });
  });

  it("gives way to a submit that lands between its read and its write; with a key, a retry hears the first answer", async () => {
    const task = await openTask();
    const [w1] = workers;
    if (!w1) throw new Error("workers");
    const mine = await claimed(task.id, w1.auth);
    const raced = await origin.call(`/api/claims/${mine.id}/withdraw`, {
      headers: w1.auth,
      db: beforeBatch(1, () => submit(mine.id, w1.auth)),
    });
    expect(raced.status).toBe(409);
    expect(await raced.json()).toMatchObject({ code: "CLAIM_NOT_WITHDRAWABLE" });
    expect(await env.DB.prepare("SELECT status FROM claim WHERE id = ?1").bind(mine.id).first("status")).toBe("submitted");

    const other = await claimed((await openTask()).id, w1.auth);
    const first = await withdraw(other.id, w1.auth, "give-up-key-0001");
    const retry = await withdraw(other.id, w1.auth, "give-up-key-0001");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
  });

  it("the database gives a claim up only from claimed, once, and never at its birth", async () => {
    const task = await openTask();
    const [w1, w2] = workers;
    if (!w1 || !w2) throw new Error("workers");
    const mine = await claimed(task.id, w1.auth);
    const theirs = await claimed(task.id, w2.auth);
    expect((await submit(theirs.id, w2.auth)).status).toBe(200);
    await expect(
      env.DB.prepare("UPDATE claim SET status = 'lapsed', withdrawn_at = 1 WHERE id = ?1").bind(theirs.id).run(),
    ).rejects.toThrow(/not allowed|given up/);
    await expect(env.DB.prepare("UPDATE claim SET withdrawn_at = 1 WHERE id = ?1").bind(mine.id).run()).rejects.toThrow(/given up/);
    await env.DB.prepare("UPDATE claim SET status = 'lapsed', withdrawn_at = 1 WHERE id = ?1").bind(mine.id).run();
    await expect(env.DB.prepare("UPDATE claim SET withdrawn_at = 2 WHERE id = ?1").bind(mine.id).run()).rejects.toThrow(/given up/);
    await expect(
      env.DB.prepare("INSERT INTO claim (id, task_id, worker_id, expires_at, created_at, withdrawn_at) VALUES ('clm_x', ?1, ?2, 1, ?3, 1)")
        .bind(task.id, workers[2]?.id, origin.now())
        .run(),
    ).rejects.toThrow(/given up/);
  });
});
