import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Claim, Task } from "#contract/tasks";
import {
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  openPaidTask,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { runTimeBasedRules } from "../scheduled";
import { autoApprove, releaseUnneededEscrow } from "./task-rules";

let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;
let workers: Awaited<ReturnType<typeof seedUser>>[];
const hour = 60 * 60 * 1000;

const openTask = ({ reward = 1_000, slots = 3, deadlineIn = 48 * hour } = {}): Promise<Task> =>
  openPaidTask(origin, poster, { reward, slots, deadlineInMs: deadlineIn });

async function claimAs(taskId: string, index: number): Promise<string> {
  const response = await origin.call(`/api/tasks/${taskId}/claims`, { headers: workers[index]?.auth ?? {} });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Claim }).data.id;
}

const submitAs = (claimId: string, index: number) =>
  origin.call(`/api/claims/${claimId}/submit`, { body: { text: "Done." }, headers: workers[index]?.auth ?? {} });

async function claimStatus(id: string) {
  return env.DB.prepare("SELECT status FROM claim WHERE id = ?1").bind(id).first("status");
}

const rules = () => runTimeBasedRules(env.DB, origin.now());

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
  workers = await Promise.all(["worker_1", "worker_2", "worker_3"].map((name) => seedUser(name, origin.now())));
});

describe("time-based task rules", () => {
  it("lapses a claim not submitted within 24 hours and reopens its slot", async () => {
    const task = await openTask({ slots: 1 });
    const claim = await claimAs(task.id, 0);
    origin.advance(24 * hour - 1);
    expect(await rules()).toMatchObject({ lapsedClaims: 0 });
    origin.advance(1);
    expect(await rules()).toMatchObject({ lapsedClaims: 1 });
    expect(await claimStatus(claim)).toBe("lapsed");
    await claimAs(task.id, 1);
  });

  it("approves a submission nobody checked for 72 hours, paying the worker", async () => {
    const task = await openTask({ deadlineIn: 10 * 24 * hour });
    const claim = await claimAs(task.id, 0);
    await submitAs(claim, 0);
    origin.advance(72 * hour - 1);
    expect(await rules()).toMatchObject({ autoApproved: 0 });
    origin.advance(1);
    expect(await rules()).toMatchObject({ autoApproved: 1 });
    expect(await claimStatus(claim)).toBe("approved");
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("at the deadline, closes the task and returns the escrow of slots no longer needed", async () => {
    const task = await openTask({ reward: 1_000, slots: 3, deadlineIn: 2 * hour });
    const submitted = await claimAs(task.id, 0);
    await submitAs(submitted, 0);
    await claimAs(task.id, 1);
    origin.advance(2 * hour);
    // The third slot was never claimed; the second claim lapsed at the deadline; the first still awaits its check.
    expect(await rules()).toMatchObject({ closedTasks: 1, lapsedClaims: 1, releasedEscrow: 2_000 });
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 1_000 });
    expect((await origin.call(`/api/tasks/${task.id}/claims`, { headers: workers[2]?.auth ?? {} })).status).toBe(409);

    // Rejecting the last submission frees its reward too, on the next run.
    await origin.call(`/api/claims/${submitted}/reject`, { body: { reason: "Wrong photos." }, headers: poster.auth });
    expect(await rules()).toMatchObject({ releasedEscrow: 1_000 });
    expect(await balanceOf(poster.id)).toEqual({ available: 3_000, held: 0 });
    expect(await rules()).toMatchObject({ releasedEscrow: 0 });
    await expectLedgerWhole();
  });

  it("never releases twice when two runs race", async () => {
    const task = await openTask({ reward: 500, slots: 4, deadlineIn: hour });
    origin.advance(hour);
    await rules();
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 0 });
    const again = await Promise.all([
      releaseUnneededEscrow(env.DB, origin.now(), task.id),
      releaseUnneededEscrow(env.DB, origin.now(), task.id),
    ]);
    expect(again).toEqual([0, 0]);
    await expectLedgerWhole();
  });
});

describe("one item that fails in a run", () => {
  // A batch that fails for no reason of the rule's own (the database unavailable for a moment).
  const failingFirstBatch = () =>
    beforeBatch(1, () => {
      throw new Error("D1_ERROR: the database is unavailable for a moment");
    });
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => logged.mockRestore());

  it("is reported and skipped: the other submissions are still approved, and the next run approves it", async () => {
    const task = await openTask({ reward: 1_000, slots: 3, deadlineIn: 10 * 24 * hour });
    const first = await claimAs(task.id, 0);
    await submitAs(first, 0);
    origin.advance(1_000);
    const second = await claimAs(task.id, 1);
    await submitAs(second, 1);
    origin.advance(72 * hour);

    expect(await autoApprove(failingFirstBatch(), origin.now())).toBe(1);
    expect([await claimStatus(first), await claimStatus(second)]).toEqual(["submitted", "approved"]);
    expect(logged).toHaveBeenCalledWith(`Time-based rule auto-approve failed for ${first}`, expect.any(Error));
    expect(await env.DB.prepare("SELECT rule_failures FROM claim WHERE id = ?1").bind(first).first("rule_failures")).toBe(1);

    expect(await rules()).toMatchObject({ autoApproved: 1 });
    expect(await claimStatus(first)).toBe("approved");
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("goes after the items that have not failed, so failing ones cannot hold up the rest", async () => {
    const task = await openTask({ reward: 1_000, slots: 3, deadlineIn: 10 * 24 * hour });
    const older = await claimAs(task.id, 0);
    await submitAs(older, 0);
    origin.advance(72 * hour);
    expect(await autoApprove(failingFirstBatch(), origin.now())).toBe(0);
    // A newer submission comes due; the next run's first write fails again.
    const newer = await claimAs(task.id, 1);
    await submitAs(newer, 1);
    origin.advance(72 * hour);
    expect(await autoApprove(failingFirstBatch(), origin.now())).toBe(1);
    // The newer one, never failed, went first and met the failure; the older one was approved after it.
    expect([await claimStatus(older), await claimStatus(newer)]).toEqual(["approved", "submitted"]);
    expect(await rules()).toMatchObject({ autoApproved: 1 });
    await expectLedgerWhole();
  });

  it("is reported and skipped: the other tasks' escrow still goes back, and the next run returns its own", async () => {
    const early = await openTask({ reward: 500, slots: 2, deadlineIn: hour });
    const late = await openTask({ reward: 300, slots: 2, deadlineIn: 2 * hour });
    origin.advance(2 * hour);
    await env.DB.prepare("UPDATE task SET status = 'closed' WHERE id IN (?1, ?2)").bind(early.id, late.id).run();

    expect(await releaseUnneededEscrow(failingFirstBatch(), origin.now())).toBe(600);
    expect(logged).toHaveBeenCalledWith(`Time-based rule release-escrow failed for ${early.id}`, expect.any(Error));
    expect(await balanceOf(poster.id)).toEqual({ available: 600, held: 1_000 });

    expect(await rules()).toMatchObject({ releasedEscrow: 1_000 });
    expect(await balanceOf(poster.id)).toEqual({ available: 1_600, held: 0 });
    await expectLedgerWhole();
  });
});

describe("cancelling a task", () => {
  it("stops new claims and returns all escrow not needed by claims in progress", async () => {
    const task = await openTask({ reward: 1_000, slots: 3 });
    const claim = await claimAs(task.id, 0);
    const response = await origin.call(`/api/tasks/${task.id}/cancel`, { headers: poster.auth });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: Task }).data).toMatchObject({ status: "cancelled", escrowRemaining: 1_000 });
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 1_000 });
    expect((await origin.call(`/api/tasks/${task.id}/claims`, { headers: workers[1]?.auth ?? {} })).status).toBe(409);

    // The claim in progress can still finish and be paid.
    await submitAs(claim, 0);
    expect((await origin.call(`/api/claims/${claim}/approve`, { headers: poster.auth })).status).toBe(200);
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 1_000, held: 0 });
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 0 });

    // Cancelling again changes nothing.
    expect((await origin.call(`/api/tasks/${task.id}/cancel`, { headers: poster.auth })).status).toBe(200);
    expect(await balanceOf(poster.id)).toEqual({ available: 2_000, held: 0 });
    await expectLedgerWhole();
  });

  it("cancels an unpaid task with its budget order", async () => {
    const posted = await origin.call("/api/tasks", {
      body: {
        title: "Unpaid",
        description: "Never paid.",
        reward: 100,
        slots: 1,
        deadline: new Date(origin.now() + 2 * hour).toISOString(),
      },
      headers: { ...poster.auth, "Idempotency-Key": "unpaid-task-01" },
    });
    const { task, order } = ((await posted.json()) as { data: { task: Task; order: { id: string } } }).data;
    await origin.call(`/api/tasks/${task.id}/cancel`, { headers: poster.auth });
    expect(await env.DB.prepare("SELECT status, close_reason FROM orders WHERE id = ?1").bind(order.id).first()).toEqual({
      status: "closed",
      close_reason: "cancelled",
    });
  });

  it("gives up with 409 TASK_CHANGED, changing nothing, when claims keep changing the task", async () => {
    const task = await openTask({ reward: 1_000, slots: 3 });
    const claimBy = (index: number) => () => origin.call(`/api/tasks/${task.id}/claims`, { headers: workers[index]?.auth ?? {} });
    // Each attempt reads the task, then commits (its batch): a claim lands before each commit.
    const busy = beforeBatch(1, claimBy(0), beforeBatch(2, claimBy(1), beforeBatch(3, claimBy(2))));
    const response = await origin.call(`/api/tasks/${task.id}/cancel`, { headers: poster.auth, db: busy });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "TASK_CHANGED" });
    expect(await env.DB.prepare("SELECT status FROM task WHERE id = ?1").bind(task.id).first("status")).toBe("open");
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 3_000 });
    // Once the claims settle, the same cancel goes through.
    expect((await origin.call(`/api/tasks/${task.id}/cancel`, { headers: poster.auth })).status).toBe(200);
    await expectLedgerWhole();
  });

  it("is the poster's alone", async () => {
    const task = await openTask();
    expect((await origin.call(`/api/tasks/${task.id}/cancel`, { headers: workers[0]?.auth ?? {} })).status).toBe(404);
  });
});

describe("a task whose budget order closes unpaid", () => {
  it("is cancelled with it, whether the order expires or is cancelled", async () => {
    const post = async (key: string) => {
      const posted = await origin.call("/api/tasks", {
        body: {
          title: "Unpaid",
          description: "Never paid.",
          reward: 100,
          slots: 1,
          deadline: new Date(origin.now() + 2 * hour).toISOString(),
        },
        headers: { ...poster.auth, "Idempotency-Key": key },
      });
      return ((await posted.json()) as { data: { task: Task; order: { id: string } } }).data;
    };
    const expiring = await post("unpaid-expiring-1");
    const cancelled = await post("unpaid-cancelled-1");
    await origin.call(`/api/orders/${cancelled.order.id}/cancel`, { headers: poster.auth });
    origin.advance(30 * 60 * 1000);
    await rules();
    for (const { task } of [expiring, cancelled]) {
      expect(await env.DB.prepare("SELECT status FROM task WHERE id = ?1").bind(task.id).first("status")).toBe("cancelled");
    }
  });
});

describe("a locked poster's escrow (docs/decisions/013-account-locks.md)", () => {
  const setLocked = (locked: boolean) =>
    env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2")
      .bind(locked ? origin.now() : null, poster.id)
      .run();
  const available = async (index: number) => {
    const response = await origin.call("/api/tasks?tab=available", { method: "GET", headers: workers[index]?.auth ?? {} });
    return ((await response.json()) as { data: Task[] }).data.map((task) => task.id);
  };
  const slotsTaken = (taskId: string) => env.DB.prepare("SELECT slots_taken FROM task WHERE id = ?1").bind(taskId).first("slots_taken");

  it("takes no new claim while the poster is locked, and the task leaves the available list until the unlock", async () => {
    const task = await openTask();
    await setLocked(true);
    expect(await available(0)).not.toContain(task.id);
    const refused = await origin.call(`/api/tasks/${task.id}/claims`, { headers: workers[0]?.auth ?? {} });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: "TASK_NOT_CLAIMABLE" });
    expect(await slotsTaken(task.id)).toBe(0);

    await setLocked(false);
    expect(await available(0)).toContain(task.id);
    await claimAs(task.id, 0);
  });

  it("pays no submission after 72 hours while the poster is locked; the first run after the unlock does", async () => {
    const task = await openTask({ deadlineIn: 10 * 24 * hour });
    const claim = await claimAs(task.id, 0);
    await submitAs(claim, 0);
    await setLocked(true);
    origin.advance(80 * hour);
    expect(await rules()).toMatchObject({ autoApproved: 0 });
    expect(await claimStatus(claim)).toBe("submitted");
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 0, held: 0 });
    expect(await balanceOf(poster.id)).toEqual({ available: 0, held: 3_000 });

    await setLocked(false);
    expect(await rules()).toMatchObject({ autoApproved: 1 });
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("wins over the poster's approval already past the door's check: the batch changes nothing", async () => {
    const task = await openTask({ slots: 2 });
    const claim = await claimAs(task.id, 0);
    await submitAs(claim, 0);
    const approved = await origin.call(`/api/claims/${claim}/approve`, {
      headers: poster.auth,
      db: beforeBatch(1, () => setLocked(true)),
    });
    expect(approved.status).toBe(403);
    expect(await approved.json()).toMatchObject({ code: "ACCOUNT_LOCKED" });
    expect(await claimStatus(claim)).toBe("submitted");
    expect(await balanceOf(workers[0]?.id ?? "")).toEqual({ available: 0, held: 0 });
    await expectLedgerWhole();
  });
});
