import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Order, OrderDetail } from "#contract/orders";
import { resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { runTimeBasedRules } from "../scheduled";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;

async function createRecharge(
  amount: number,
  {
    auth = alice.auth,
    referrer,
    key = `ord-${crypto.randomUUID()}`,
  }: { auth?: Record<string, string>; referrer?: string; key?: string } = {},
) {
  return origin.call("/api/orders/recharge", {
    body: referrer === undefined ? { amount } : { amount, referrer },
    headers: { ...auth, "Idempotency-Key": key },
  });
}

async function created(amount: number, options: Parameters<typeof createRecharge>[1] = {}): Promise<Order> {
  const response = await createRecharge(amount, options);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: Order }).data;
}

async function detail(id: string, auth = alice.auth) {
  return origin.call(`/api/orders/${id}`, { method: "GET", headers: auth });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

describe("recharge orders", () => {
  it("creates a pending order that must be paid within 30 minutes, recording the first-touch referrer", async () => {
    const order = await created(5_000, { referrer: "https://search.example/?q=paydesk" });
    expect(order).toMatchObject({ kind: "recharge", amount: 5_000, status: "pending", description: "Wallet recharge of ¥50.00" });
    expect(Date.parse(order.expiresAt) - Date.parse(order.createdAt)).toBe(30 * 60 * 1000);
    expect(await env.DB.prepare("SELECT referrer FROM orders WHERE id = ?1").bind(order.id).first("referrer")).toBe(
      "https://search.example/?q=paydesk",
    );
  });

  it.each([
    ["under ¥1.00", 99],
    ["over ¥5,000.00", 500_001],
    ["a fraction", 150.5],
  ])("refuses an amount %s", async (_, amount) => {
    const response = await createRecharge(amount);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "amount" });
  });

  it("replays a retried creation instead of creating a second order", async () => {
    const first = await createRecharge(1_000, { key: "order-key-0001" });
    const retry = await createRecharge(1_000, { key: "order-key-0001" });
    expect(await retry.json()).toEqual(await first.json());
    expect(await env.DB.prepare("SELECT count(*) AS n FROM orders").first("n")).toBe(1);
  });
});

describe("listing orders", () => {
  it("lists my orders newest first, page by page, filtered by status", async () => {
    const mine: Order[] = [];
    for (let index = 0; index < 5; index += 1) {
      mine.push(await created(100 + index));
      origin.advance(1_000);
    }
    await created(777, { auth: bob.auth });
    await origin.call(`/api/orders/${mine[1]?.id}/cancel`, { headers: alice.auth });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await origin.call(`/api/orders?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { method: "GET", headers: alice.auth });
      const page = ((await response.json()) as { data: { orders: Order[]; nextCursor: string | null } }).data;
      expect(page.orders.length).toBeLessThanOrEqual(2);
      seen.push(...page.orders.map((order) => order.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(mine.map((order) => order.id).reverse());

    const closed = await origin.call("/api/orders?status=closed", { method: "GET", headers: alice.auth });
    expect(((await closed.json()) as { data: { orders: Order[] } }).data.orders.map((order) => order.id)).toEqual([mine[1]?.id]);
  });

  it("refuses a cursor it did not give and a status it does not know", async () => {
    expect((await origin.call("/api/orders?cursor=bm9wZQ", { method: "GET", headers: alice.auth })).status).toBe(400);
    const bad = await origin.call("/api/orders?status=refunded", { method: "GET", headers: alice.auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "status" });
  });
});

describe("one order", () => {
  it("shows its status history and payment attempts", async () => {
    const order = await created(2_000);
    const response = await detail(order.id);
    const body = ((await response.json()) as { data: OrderDetail }).data;
    expect(body).toMatchObject({ id: order.id, status: "pending", payments: [] });
    expect(body.history).toEqual([{ status: "pending", reason: null, at: order.createdAt }]);
  });

  it("is not found for anyone else (their order or no order)", async () => {
    const order = await created(2_000);
    expect((await detail(order.id, bob.auth)).status).toBe(404);
    expect((await origin.call(`/api/orders/${order.id}/cancel`, { headers: bob.auth })).status).toBe(404);
    expect((await detail("ord_00000000-0000-0000-0000-000000000000")).status).toBe(404);
    expect((await detail("not-an-order")).status).toBe(400);
  });

  it("cancels while pending, once, with the reason in its history", async () => {
    const order = await created(2_000);
    origin.advance(60_000);
    const cancel = await origin.call(`/api/orders/${order.id}/cancel`, { headers: alice.auth });
    expect(cancel.status).toBe(200);
    const closed = ((await cancel.json()) as { data: OrderDetail }).data;
    expect(closed).toMatchObject({ status: "closed", closeReason: "cancelled" });
    expect(closed.history.map((event) => [event.status, event.reason])).toEqual([
      ["pending", null],
      ["closed", "cancelled"],
    ]);
    const again = await origin.call(`/api/orders/${order.id}/cancel`, { headers: alice.auth });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: OrderDetail }).data.history).toHaveLength(2);
  });

  it("closes unpaid orders after 30 minutes (the scheduled rules), and then cannot be cancelled", async () => {
    const order = await created(2_000);
    origin.advance(30 * 60 * 1000 - 1);
    expect(await runTimeBasedRules(env.DB, origin.now())).toMatchObject({ closedOrders: 0 });
    origin.advance(1);
    expect(await runTimeBasedRules(env.DB, origin.now())).toMatchObject({ closedOrders: 1 });
    const body = ((await (await detail(order.id)).json()) as { data: OrderDetail }).data;
    expect(body).toMatchObject({ status: "closed", closeReason: "expired", closedAt: order.expiresAt });
    const cancel = await origin.call(`/api/orders/${order.id}/cancel`, { headers: alice.auth });
    expect(cancel.status).toBe(409);
    expect(await cancel.json()).toMatchObject({ code: "ORDER_NOT_PENDING" });
  });

  it("never changes a finished order, whatever the code above does", async () => {
    const order = await created(2_000);
    await origin.call(`/api/orders/${order.id}/cancel`, { headers: alice.auth });
    await expect(env.DB.prepare("UPDATE orders SET status = 'pending' WHERE id = ?1").bind(order.id).run()).rejects.toThrow(
      /does not change/,
    );
  });
});

describe("the cron trigger", () => {
  it("runs the time-based rules at the scheduled time", async () => {
    const { createExecutionContext, createScheduledController, waitOnExecutionContext } = await import("cloudflare:test");
    const worker = (await import("../index")).default;
    const order = await created(2_000);
    const ctx = createExecutionContext();
    await worker.scheduled?.(createScheduledController({ scheduledTime: origin.now() + 30 * 60 * 1000, cron: "* * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await env.DB.prepare("SELECT status, close_reason FROM orders WHERE id = ?1").bind(order.id).first()).toEqual({
      status: "closed",
      close_reason: "expired",
    });
  });
});
