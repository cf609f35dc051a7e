import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultLimits } from "#contract/money-limits";
import { balanceOf, expectLedgerWhole, fundWallet, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";

/** A deploy that allows ¥20.00 a transfer and ¥50.00 a day, recharges from ¥10.00, rewards up to ¥5.00. */
const tight = JSON.stringify({
  transfer: { max: 2_000, perDay: 5_000 },
  recharge: { min: 1_000 },
  taskReward: { max: 500 },
});

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  await seedUser("bob", origin.now());
});

const under = (setting: string) => ({ ...env, MONEY_LIMITS: setting });

function send(amount: number, { setting = tight, key = `trf-${crypto.randomUUID()}` } = {}) {
  return origin.call("/api/transfers", {
    body: { toHandle: "bob", amount },
    headers: { ...alice.auth, "Idempotency-Key": key },
    env: under(setting),
  });
}

describe("GET /api/limits", () => {
  it("answers the product's limits where the deploy sets none, to anyone", async () => {
    const answer = await origin.call("/api/limits", { method: "GET" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: "SUCCESS", data: defaultLimits });
  });

  it("answers the deploy's own", async () => {
    const answer = await origin.call("/api/limits", { method: "GET", env: under(tight) });
    expect(await answer.json()).toEqual({
      code: "SUCCESS",
      data: {
        recharge: { min: 1_000, max: 500_000 },
        transfer: { min: 1, max: 2_000, perDay: 5_000 },
        taskReward: { min: 10, max: 500 },
      },
    });
  });
});

describe("a deploy's tighter limits", () => {
  it("refuses a transfer past the deploy's maximum with the schema's 400, and moves nothing", async () => {
    await fundWallet(origin, alice, 10_000);
    const over = await send(2_001);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: "amount", message: "The amount must be at most 20.00." });
    expect(await balanceOf(alice.id)).toEqual({ available: 10_000, held: 0 });
    expect((await send(2_000)).status).toBe(201);
    await expectLedgerWhole();
  });

  it("holds the deploy's daily total, even for transfers sent at once, and names it", async () => {
    await fundWallet(origin, alice, 100_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(1_000)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    const refused = answers.find((answer) => answer.status === 422);
    expect(await refused?.json()).toMatchObject({
      code: "DAILY_LIMIT_EXCEEDED",
      field: "amount",
      message: "This would take you over the daily limit of ¥50.00 sent.",
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 95_000, held: 0 });
    await expectLedgerWhole();
  });

  it("replays a transfer answered before the limits tightened, rather than refusing its retry", async () => {
    await fundWallet(origin, alice, 10_000);
    const first = await send(3_000, { setting: "", key: "before-the-change" });
    expect(first.status).toBe(201);
    const retry = await send(3_000, { key: "before-the-change" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
    expect(await balanceOf(alice.id)).toEqual({ available: 7_000, held: 0 });
  });

  it("refuses a recharge order below the deploy's minimum, naming the amount", async () => {
    const order = (amount: number) =>
      origin.call("/api/orders/recharge", {
        body: { amount },
        headers: { ...alice.auth, "Idempotency-Key": `rch-${crypto.randomUUID()}` },
        env: under(tight),
      });
    const below = await order(999);
    expect(below.status).toBe(400);
    expect(await below.json()).toMatchObject({ code: "BAD_REQUEST", field: "amount", message: "The amount must be at least 10.00." });
    expect((await order(1_000)).status).toBe(201);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM orders").first("n")).toBe(1);
  });

  it("refuses a task whose reward passes the deploy's maximum, naming the reward", async () => {
    const post = (reward: number) =>
      origin.call("/api/tasks", {
        body: {
          title: "Proofread a page",
          description: "Read one page and list the typos.",
          reward,
          slots: 2,
          deadline: new Date(origin.now() + 86_400_000).toISOString(),
        },
        headers: { ...alice.auth, "Idempotency-Key": `tsk-${crypto.randomUUID()}` },
        env: under(tight),
      });
    const over = await post(501);
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ code: "BAD_REQUEST", field: "reward", message: "The amount must be at most 5.00." });
    expect((await post(500)).status).toBe(201);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM task").first("n")).toBe(1);
  });

  it("moves no money under a setting it cannot read: 500, as for any fault", async () => {
    await fundWallet(origin, alice, 10_000);
    const answer = await send(100, { setting: '{"transfer":{"max":99999999}}' });
    expect(answer.status).toBe(500);
    expect(await answer.json()).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(await balanceOf(alice.id)).toEqual({ available: 10_000, held: 0 });
    expect((await origin.call("/api/limits", { method: "GET", env: under("{nope") })).status).toBe(500);
  });
});
