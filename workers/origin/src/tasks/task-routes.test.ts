import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OrderDetail } from "#contract/orders";
import type { Task } from "#contract/tasks";
import {
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedOpenTasks,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

let origin: TestOrigin;
let poster: Awaited<ReturnType<typeof seedUser>>;
let worker: Awaited<ReturnType<typeof seedUser>>;
const hour = 60 * 60 * 1000;

const taskBody = (overrides: Record<string, unknown> = {}) => ({
  title: "Translate a menu",
  description: "Translate our 20-line lunch menu from Chinese to English.",
  reward: 1_500,
  slots: 3,
  deadline: new Date(origin.now() + 2 * 24 * hour).toISOString(),
  ...overrides,
});

const fund = (user: { auth: Record<string, string> }, value: number) => fundWallet(origin, user, value);

async function post(body: unknown = taskBody(), auth = poster.auth) {
  return origin.call("/api/tasks", { body, headers: { ...auth, "Idempotency-Key": `task-${crypto.randomUUID()}` } });
}

async function posted(body: unknown = taskBody()): Promise<{ task: Task; order: { id: string; amount: number } }> {
  const response = await post(body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { task: Task; order: { id: string; amount: number } } }).data;
}

function pay(
  orderId: string,
  { auth = poster.auth, key = `pay-${crypto.randomUUID()}`, db }: { auth?: Record<string, string>; key?: string; db?: D1Database } = {},
) {
  return origin.call(`/api/orders/${orderId}/pay`, { body: { method: "wallet" }, headers: { ...auth, "Idempotency-Key": key }, db });
}

async function tab(name: "available" | "posted", auth: Record<string, string>): Promise<Task[]> {
  const response = await origin.call(`/api/tasks?tab=${name}`, { method: "GET", headers: auth });
  return ((await response.json()) as { data: Task[] }).data;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  poster = await seedUser("poster", origin.now());
  worker = await seedUser("worker", origin.now());
});

describe("posting a task", () => {
  it("creates the task and a task-budget order of reward × slots to pay", async () => {
    const { task, order } = await posted();
    expect(task).toMatchObject({
      status: "awaiting_payment",
      reward: 1_500,
      slots: 3,
      escrowRemaining: 0,
      orderId: order.id,
      poster: { handle: "poster", displayName: "Name of poster" },
    });
    expect(order).toMatchObject({ kind: "task_budget", amount: 4_500, status: "pending" });
    expect(await tab("available", worker.auth)).toEqual([]);
    expect((await tab("posted", poster.auth)).map((item) => item.id)).toEqual([task.id]);
  });

  it("records the first-touch referrer on the budget's order, as a recharge does; none sent is a direct visit", async () => {
    const referred = await posted(taskBody({ referrer: "https://search.example/?q=paydesk" }));
    const direct = await posted();
    const referrerOf = (orderId: string) => env.DB.prepare("SELECT referrer FROM orders WHERE id = ?1").bind(orderId).first("referrer");
    expect(await referrerOf(referred.order.id)).toBe("https://search.example/?q=paydesk");
    expect(await referrerOf(direct.order.id)).toBe("");
    const tooLong = await post(taskBody({ referrer: `https://a.example/${"x".repeat(2048)}` }));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ code: "BAD_REQUEST", field: "referrer" });
  });

  it.each([
    ["less than an hour ahead", { deadline: new Date(Date.parse("2026-11-01T00:59:00Z")).toISOString() }],
    ["more than 30 days ahead", { deadline: new Date(Date.parse("2026-12-01T00:00:01Z")).toISOString() }],
  ])("refuses a deadline %s", async (_, overrides) => {
    const response = await post(taskBody(overrides));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "DEADLINE_OUT_OF_RANGE", field: "deadline" });
  });

  it.each([
    ["a reward under ¥0.10", { reward: 9 }, "reward"],
    ["a reward over ¥1,000.00", { reward: 100_001 }, "reward"],
    ["no slots", { slots: 0 }, "slots"],
    ["1,001 slots", { slots: 1_001 }, "slots"],
    ["a title over 80 characters", { title: "t".repeat(81) }, "title"],
    ["an empty description", { description: " " }, "description"],
    ["a deadline that is not a date", { deadline: "next friday" }, "deadline"],
  ])("refuses %s", async (_, overrides, field) => {
    const response = await post(taskBody(overrides));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });
});

describe("my posted tasks, 100 at a time", () => {
  it("answers the newest 100, and the ones before a task with `before`, down to none", async () => {
    const ids = await seedOpenTasks(origin, poster.id, 150);
    const newestFirst = [...ids].reverse();
    const page = async (query: string) => {
      const answer = await origin.call(`/api/tasks?tab=posted${query}`, { method: "GET", headers: poster.auth });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: Task[] }).data.map((task) => task.id);
    };
    const first = await page("");
    expect(first).toEqual(newestFirst.slice(0, 100));
    const second = await page(`&before=${first.at(-1)}`);
    expect(second).toEqual(newestFirst.slice(100));
    expect(await page(`&before=${second.at(-1)}`)).toEqual([]);
    // Another poster's task is no place to page from: nothing, and nothing of theirs.
    const [theirs = ""] = await seedOpenTasks(origin, worker.id, 1);
    expect(await page(`&before=${theirs}`)).toEqual([]);
  });

  it("does not page the available tab, and refuses a `before` that is not a task id, naming the field", async () => {
    const [id = ""] = await seedOpenTasks(origin, poster.id, 1);
    const available = async (query: string) => {
      const answer = await origin.call(`/api/tasks?tab=available${query}`, { method: "GET", headers: worker.auth });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: Task[] }).data.map((task) => task.id);
    };
    expect(await available(`&before=${id}`)).toEqual(await available(""));
    expect(await available("")).toEqual([id]);
    const malformed = await origin.call("/api/tasks?tab=posted&before=not-a-task", { method: "GET", headers: poster.auth });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "BAD_REQUEST", field: "before" });
  });
});

describe("paying a task budget from the wallet", () => {
  it("holds the budget in escrow, pays the order once and opens the task", async () => {
    await fund(poster, 10_000);
    const { task, order } = await posted();
    const response = await pay(order.id);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ code: "SUCCESS", data: { orderId: order.id, amount: 4_500, status: "paid" } });

    expect(await balanceOf(poster.id)).toEqual({ available: 5_500, held: 4_500 });
    const [open] = await tab("available", worker.auth);
    // Whoever claims sees who will check the work and pay: the handle beside the display name.
    expect(open).toMatchObject({
      id: task.id,
      status: "open",
      escrowRemaining: 4_500,
      poster: { handle: "poster", displayName: "Name of poster" },
    });
    const detail = (
      (await (await origin.call(`/api/orders/${order.id}`, { method: "GET", headers: poster.auth })).json()) as { data: OrderDetail }
    ).data;
    expect(detail.history.map((event) => event.status)).toEqual(["pending", "paid"]);
    expect(detail.payments).toMatchObject([{ method: "wallet", status: "succeeded", amount: 4_500 }]);
    await expectLedgerWhole();
  });

  it("refuses a budget the wallet does not cover, holding nothing", async () => {
    await fund(poster, 4_499);
    const { order } = await posted();
    const response = await pay(order.id);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "INSUFFICIENT_FUNDS" });
    expect(await balanceOf(poster.id)).toEqual({ available: 4_499, held: 0 });
    await expectLedgerWhole();
  });

  it("tells a payment racing a paid twin that the order is paid, not that the money is short", async () => {
    // Enough for the budget once, not twice: the twin's payment leaves too little for this one.
    await fund(poster, 6_000);
    const { order } = await posted();
    const response = await pay(order.id, { db: beforeBatch(1, () => pay(order.id)) });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: "ORDER_NOT_PENDING" });
    expect(await balanceOf(poster.id)).toEqual({ available: 1_500, held: 4_500 });
    await expectLedgerWhole();
  });

  it("pays once when two payments race with different keys", async () => {
    await fund(poster, 100_000);
    const { order } = await posted();
    const answers = await Promise.all([pay(order.id), pay(order.id), pay(order.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(await balanceOf(poster.id)).toEqual({ available: 95_500, held: 4_500 });
    await expectLedgerWhole();
  });

  it("refuses a recharge order (paid online) and an order past its 30 minutes", async () => {
    await fund(poster, 100_000);
    const recharge = await origin.call("/api/orders/recharge", {
      body: { amount: 1_000 },
      headers: { ...poster.auth, "Idempotency-Key": "recharge-key-01" },
    });
    const rechargeId = ((await recharge.json()) as { data: { id: string } }).data.id;
    const refused = await pay(rechargeId);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "WALLET_NOT_ALLOWED" });

    const { order } = await posted();
    origin.advance(30 * 60 * 1000);
    const late = await pay(order.id);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "ORDER_NOT_PENDING" });
    expect(await balanceOf(poster.id)).toEqual({ available: 100_000, held: 0 });
  });

  it("is not found for another user's order", async () => {
    await fund(worker, 10_000);
    const { order } = await posted();
    expect((await pay(order.id, { auth: worker.auth })).status).toBe(404);
    expect(await balanceOf(worker.id)).toEqual({ available: 10_000, held: 0 });
  });

  it("the database refuses a second success for a paid order, whatever the code above does", async () => {
    await fund(poster, 10_000);
    const { order } = await posted();
    await pay(order.id);
    await expect(
      env.DB.prepare(
        "INSERT INTO payment (id, order_id, method, status, amount, created_at, updated_at) VALUES ('pay_x', ?1, 'wallet', 'succeeded', 1, ?2, ?2)",
      )
        .bind(order.id, origin.now())
        .run(),
    ).rejects.toThrow(/not payable/);
  });
});
