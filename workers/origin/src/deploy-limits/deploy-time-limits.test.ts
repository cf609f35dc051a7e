import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Claim } from "#contract/tasks";
import { defaultTimeLimits } from "#contract/time-limits";
import { balanceOf, expectLedgerWhole, openPaidTask, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { runTimeBasedRules } from "../scheduled";

/** A deploy whose orders wait 10 minutes, whose claims give 2 hours, and whose posters have 24 hours to check. */
const tight = JSON.stringify({ order: { payMinutes: 10 }, claim: { submitHours: 2, autoApproveHours: 24 } });
const unreadable = '{"order":{"payMinutes":60}}';
const hour = 3_600_000;

let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;
let worker: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
  worker = await seedUser("worker", origin.now());
});

const under = (setting: string) => ({ ...env, TIME_LIMITS: setting });

function recharge(setting: string) {
  return origin.call("/api/orders/recharge", {
    body: { amount: 10_000 },
    headers: { ...poster.auth, "Idempotency-Key": `ord-${crypto.randomUUID()}` },
    env: under(setting),
  });
}

async function claimOf(taskId: string, setting: string): Promise<Claim> {
  const claimed = await origin.call(`/api/tasks/${taskId}/claims`, { headers: worker.auth, env: under(setting) });
  expect(claimed.status).toBe(201);
  return ((await claimed.json()) as { data: Claim }).data;
}

const cron = () => runTimeBasedRules(env.DB, origin.now());

/** The worker claims the task and submits, under the deploy's `setting`. */
async function submitted(taskId: string, setting: string): Promise<Claim> {
  const claim = await claimOf(taskId, "");
  const sent = await origin.call(`/api/claims/${claim.id}/submit`, { body: { text: "Done." }, headers: worker.auth, env: under(setting) });
  return { ...claim, ...((await sent.json()) as { data: Claim }).data };
}

const reject = (claimId: string, setting = "") =>
  origin.call(`/api/claims/${claimId}/reject`, { body: { reason: "Not what was asked." }, headers: poster.auth, env: under(setting) });

describe("GET /api/time-limits", () => {
  it("answers the product's where the deploy sets none, and the deploy's own", async () => {
    const product = await origin.call("/api/time-limits", { method: "GET" });
    expect(product.status).toBe(200);
    expect(await product.json()).toEqual({ code: "SUCCESS", data: defaultTimeLimits });
    const deploy = await origin.call("/api/time-limits", { method: "GET", env: under(tight) });
    expect(await deploy.json()).toEqual({
      code: "SUCCESS",
      data: { order: { payMinutes: 10 }, claim: { submitHours: 2, autoApproveHours: 24 }, session: { idleDays: 30 } },
    });
  });
});

describe("a deploy's shorter time limits", () => {
  it("gives an order the deploy's time to be paid, then the cron closes it", async () => {
    const made = await recharge(tight);
    expect(made.status).toBe(201);
    const order = ((await made.json()) as { data: { id: string; expiresAt: string } }).data;
    expect(Date.parse(order.expiresAt)).toBe(origin.now() + 10 * 60_000);
    origin.advance(10 * 60_000);
    expect((await cron()).closedOrders).toBe(1);
    const closed = await origin.call(`/api/orders/${order.id}`, { method: "GET", headers: poster.auth });
    expect(await closed.json()).toMatchObject({ data: { status: "closed" } });
  });

  it("gives a claim the deploy's time to be submitted, then it lapses", async () => {
    const task = await openPaidTask(origin, poster);
    const claim = await claimOf(task.id, tight);
    expect(Date.parse(claim.expiresAt)).toBe(origin.now() + 2 * hour);
    origin.advance(2 * hour);
    expect((await cron()).lapsedClaims).toBe(1);
  });

  it("approves a submission nobody checked after the deploy's hours, and the poster can no longer reject it", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 1 });
    const claim = await submitted(task.id, tight);
    expect(claim.autoApproveAt).toBe(new Date(origin.now() + 24 * hour).toISOString());
    origin.advance(24 * hour - 1);
    expect((await cron()).autoApproved).toBe(0);
    origin.advance(1);
    const late = await reject(claim.id);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({
      code: "CLAIM_NOT_SUBMITTED",
      message: "This submission was approved automatically: 24 hours passed without a check.",
    });
    expect((await cron()).autoApproved).toBe(1);
    expect(await balanceOf(worker.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("keeps the hours a submission was sent under, whatever the setting becomes", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 1 });
    const claim = await submitted(task.id, "");
    expect(claim.autoApproveAt).toBe(new Date(origin.now() + 72 * hour).toISOString());
    // Shortened to 24 hours after it was sent: its poster still has the 72 they were given.
    origin.advance(48 * hour);
    expect((await cron()).autoApproved).toBe(0);
    expect((await reject(claim.id, tight)).status).toBe(200);
  });

  it("gives a submission sent without its time (by the code before migration 0037, during a deploy) the product's 72 hours", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 1 });
    const claim = await submitted(task.id, tight);
    await env.DB.prepare("UPDATE claim SET auto_approve_at = NULL WHERE id = ?1").bind(claim.id).run();
    origin.advance(72 * hour - 1);
    expect((await cron()).autoApproved).toBe(0);
    origin.advance(1);
    expect((await reject(claim.id)).status).toBe(409);
    expect((await cron()).autoApproved).toBe(1);
  });

  it("is the product's at the defaults", async () => {
    const made = await recharge("");
    const order = ((await made.json()) as { data: { expiresAt: string } }).data;
    expect(Date.parse(order.expiresAt)).toBe(origin.now() + 30 * 60_000);
    const task = await openPaidTask(origin, poster);
    expect(Date.parse((await claimOf(task.id, "")).expiresAt)).toBe(origin.now() + 24 * hour);
  });
});

describe("a TIME_LIMITS setting the origin cannot read", () => {
  it("makes no order or claim (500)", async () => {
    expect((await recharge(unreadable)).status).toBe(500);
    const task = await openPaidTask(origin, poster);
    const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: worker.auth, env: under(unreadable) });
    expect(claimed.status).toBe(500);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM claim").first<number>("n")).toBe(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM orders WHERE kind = 'recharge'").first<number>("n")).toBe(0);
  });

  it("sends no submission, and decides the ones sent before without it", async () => {
    const task = await openPaidTask(origin, poster, { reward: 1_000, slots: 2 });
    const other = await seedUser("other", origin.now());
    const sentBefore: string[] = [];
    for (const person of [worker, other]) {
      const claimed = await origin.call(`/api/tasks/${task.id}/claims`, { headers: person.auth });
      const { id } = ((await claimed.json()) as { data: Claim }).data;
      const refused = await origin.call(`/api/claims/${id}/submit`, {
        body: { text: "Done." },
        headers: person.auth,
        env: under(unreadable),
      });
      expect(refused.status).toBe(500);
      expect((await origin.call(`/api/claims/${id}/submit`, { body: { text: "Done." }, headers: person.auth })).status).toBe(200);
      sentBefore.push(id);
    }
    const decide = (id: string | undefined, verb: string, body?: unknown) =>
      origin.call(`/api/claims/${id}/${verb}`, { body, headers: poster.auth, env: under(unreadable) });
    expect((await decide(sentBefore[0], "approve")).status).toBe(200);
    expect((await decide(sentBefore[1], "reject", { reason: "Not what was asked." })).status).toBe(200);
    expect(await balanceOf(worker.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });
});
