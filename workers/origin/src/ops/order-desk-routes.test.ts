import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OpsOrder, OrderStory } from "#contract/ops-orders";
import { seedOperator, seedUser } from "../../test/origin-client";
import { wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import { control, payerPays, paymentRow, replay, type WechatOrigin } from "../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;
let support: SceneUser;

const { rechargeOrder, startWechat, cancel, taskBudgetOrder } = wechatRequests(() => ({ origin, alice }));

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
  support = await seedOperator("op_support", "support", origin.now());
});

const get = (path: string) => origin.call(path, { method: "GET", headers: support.auth });

async function search(query: Record<string, string>): Promise<{ orders: OpsOrder[]; nextCursor: string | null }> {
  const answer = await get(`/api/ops/orders?${new URLSearchParams(query)}`);
  const body = (await answer.json()) as { data: { orders: OpsOrder[]; nextCursor: string | null } };
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const idsFound = async (query: Record<string, string>) => (await search(query)).orders.map((order) => order.id);

/**
 * Alice's recharge, cancelled while its WeChat Pay order stayed open (the close failed), then
 * paid at WeChat Pay anyway: refunded automatically. Its notification came twice.
 */
async function paidAfterCancel(amount = 3_000) {
  const order = await rechargeOrder(amount);
  const { outTradeNo } = await startWechat(order.id);
  await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST", times: 2 });
  await cancel(order.id);
  const notification = await payerPays(outTradeNo);
  expect((await replay(origin, notification)).status).toBe(204);
  await origin.advance(5_000);
  expect((await replay(origin, notification)).status).toBe(204);
  const payment = await paymentRow(outTradeNo);
  return { order, outTradeNo, transactionId: payment?.transaction_id ?? "" };
}

describe("finding orders", () => {
  it("by order id, out_trade_no and WeChat Pay's transaction id, each exactly", async () => {
    const late = await paidAfterCancel();
    await origin.advance(60_000);
    const other = await rechargeOrder(1_000, bob);
    expect(late.transactionId).toMatch(/^\d+$/);
    for (const q of [late.order.id, late.outTradeNo, late.transactionId]) expect(await idsFound({ q }), q).toEqual([late.order.id]);
    expect(await idsFound({ q: other.id })).toEqual([other.id]);
    expect(await idsFound({ q: late.outTradeNo.slice(0, -1) })).toEqual([]);
    const [found] = (await search({ q: late.outTradeNo })).orders;
    expect(found).toMatchObject({ kind: "recharge", status: "closed", closeReason: "cancelled", amount: 3_000 });
    expect(found?.person).toEqual({ id: alice.id, handle: "alice", displayName: "Name of alice" });
  });

  it("by person, status, kind and date range, newest first, together", async () => {
    const first = await rechargeOrder(1_000);
    await origin.advance(3_600_000);
    const second = await rechargeOrder(2_000, bob);
    await origin.advance(3_600_000);
    const budget = await taskBudgetOrder(alice);
    await origin.advance(60_000);
    await cancel(first.id);

    expect(await idsFound({})).toEqual([budget.orderId, second.id, first.id]);
    expect(await idsFound({ person: "alice" })).toEqual([budget.orderId, first.id]);
    expect(await idsFound({ person: "bob" })).toEqual([second.id]);
    expect(await idsFound({ status: "closed" })).toEqual([first.id]);
    expect(await idsFound({ status: "pending" })).toEqual([budget.orderId, second.id]);
    expect(await idsFound({ kind: "task_budget" })).toEqual([budget.orderId]);
    expect(await idsFound({ person: "alice", kind: "recharge" })).toEqual([first.id]);
    const start = Date.parse("2026-11-01T00:00:00Z");
    // From is inclusive, to exclusive; a zone other than Z means the same moment.
    expect(await idsFound({ from: new Date(start + 3_600_000).toISOString() })).toEqual([budget.orderId, second.id]);
    expect(await idsFound({ to: "2026-11-01T09:00:00+08:00" })).toEqual([first.id]);
    expect(await idsFound({ from: "2026-11-01T01:00:00Z", to: "2026-11-01T02:00:00Z" })).toEqual([second.id]);
    expect(await idsFound({ person: "bob", status: "closed" })).toEqual([]);
  });

  it("pages 50 at a time, newest first, and the cursors give every order exactly once (ties in time included)", async () => {
    const base = origin.now();
    const statements = Array.from({ length: 123 }, (_, n) => {
      // Three orders share each moment: the id orders them.
      const at = base + Math.floor(n / 3) * 1_000;
      return env.DB.prepare(
        "INSERT INTO orders (id, user_id, kind, amount, description, created_at, expires_at) VALUES (?1, ?2, 'recharge', 100, 'Paging', ?3, ?4)",
      ).bind(`ord_${crypto.randomUUID()}`, n % 2 === 0 ? alice.id : bob.id, at, at + 1_800_000);
    });
    await env.DB.batch(statements);
    const expected = (await env.DB.prepare("SELECT id FROM orders ORDER BY created_at DESC, id DESC").all<{ id: string }>()).results.map(
      (row) => row.id,
    );

    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { orders: OpsOrder[]; nextCursor: string | null } = await search(cursor ? { cursor } : {});
      sizes.push(page.orders.length);
      seen.push(...page.orders.map((order) => order.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([50, 50, 23]);
    expect(seen).toEqual(expected);

    // A person's pages too.
    const alices: string[] = [];
    cursor = null;
    do {
      const page: { orders: OpsOrder[]; nextCursor: string | null } = await search(
        cursor ? { person: "alice", cursor } : { person: "alice" },
      );
      alices.push(...page.orders.map((order) => order.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(alices).toHaveLength(62);
    expect(new Set(alices).size).toBe(62);
  });
});

describe("an order's story", () => {
  it("tells the order, its person, history, payment attempts, WeChat Pay's notifications (not their resource) and the refund", async () => {
    const { order, outTradeNo, transactionId } = await paidAfterCancel(3_000);
    const answer = await get(`/api/ops/orders/${order.id}`);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const story = (JSON.parse(text) as { data: OrderStory }).data;
    expect(story.order).toMatchObject({
      id: order.id,
      kind: "recharge",
      amount: 3_000,
      status: "closed",
      closeReason: "cancelled",
      person: { id: alice.id, handle: "alice" },
    });
    expect(story.history).toMatchObject([
      { status: "pending", reason: null },
      { status: "closed", reason: "cancelled" },
    ]);
    expect(story.payments).toEqual([
      expect.objectContaining({
        method: "wechat",
        flow: "native",
        status: "refunded",
        amount: 3_000,
        outTradeNo,
        transactionId,
        remoteState: expect.any(String),
      }),
    ]);
    expect(story.notifications).toEqual([
      expect.objectContaining({ eventType: "TRANSACTION.SUCCESS", outTradeNo, outRefundNo: null, outcome: "refund_due", deliveries: 2 }),
    ]);
    const [notification] = story.notifications;
    expect(Date.parse(notification?.lastReceivedAt ?? "") - Date.parse(notification?.firstReceivedAt ?? "")).toBe(5_000);
    expect(story.refunds).toEqual([
      expect.objectContaining({
        outRefundNo: `RF${outTradeNo}`,
        paymentId: story.payments[0]?.id,
        amount: 3_000,
        reason: "order_closed",
        status: "processing",
      }),
    ]);
    // The decrypted resource stays in the database: the payer's openid is not in the answer.
    expect(text).not.toContain("openid");
    expect(text).not.toContain("oTestOnly");
  });

  it("of an order not paid yet: no payment attempt, no notification, no refund", async () => {
    const poster = await seedUser("poster", origin.now());
    const budget = await taskBudgetOrder(poster, { reward: 100, slots: 1 });
    const story = (await (await get(`/api/ops/orders/${budget.orderId}`)).json()) as { data: OrderStory };
    expect(story.data).toMatchObject({ order: { kind: "task_budget", status: "pending" }, payments: [], notifications: [], refunds: [] });
  });
});
