import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { balanceOf, expectLedgerWhole } from "../../../test/origin-client";
import { wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import {
  control,
  deliverNotifications,
  notificationRows,
  notificationsFor,
  payerPays,
  paymentRow,
  replay,
  signedNotification,
  worldBalance,
  type WechatOrigin,
} from "../../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
});

const { rechargeOrder, taskBudgetOrder, startWechat, orderDetail } = wechatRequests(() => ({ origin, alice }));

describe("payment notifications", () => {
  it("credit a recharge once, and answer duplicates (one by one and ten at once) without a second effect", async () => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    const first = await replay(origin, notification);
    expect(first.status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    expect(await orderDetail(order.id)).toMatchObject({
      status: "paid",
      payments: [{ method: "wechat", status: "succeeded", amount: 2_500 }],
    });
    expect((await paymentRow(outTradeNo))?.transaction_id).toMatch(/^\d{28}$/);

    expect((await replay(origin, notification)).status).toBe(204);
    const storm = await Promise.all(Array.from({ length: 10 }, () => replay(origin, notification)));
    expect(storm.map((answer) => answer.status)).toEqual(Array(10).fill(204));
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    expect(await worldBalance()).toBe(-2_500);
    expect(await notificationRows(outTradeNo)).toEqual([
      expect.objectContaining({ event_type: "TRANSACTION.SUCCESS", outcome: "settled", deliveries: 12 }),
    ]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM journal_tx WHERE kind = 'recharge'").first("n")).toBe(1);
    await expectLedgerWhole();
  });

  it("settle when the simulator itself delivers twice at once", async () => {
    const order = await rechargeOrder(1_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, { notify: { duplicate: true } })).status).toBe(200);
    await deliverNotifications();
    const copies = await notificationsFor(outTradeNo, "TRANSACTION.SUCCESS");
    expect(copies).toHaveLength(2);
    const answers = await Promise.all(copies.map((copy) => replay(origin, copy)));
    expect(answers.map((answer) => answer.status)).toEqual([204, 204]);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });

  it("pay a task budget into escrow and open the task, as a wallet payment does", async () => {
    const { taskId, orderId, amount } = await taskBudgetOrder(alice, { reward: 300, slots: 3 });
    const { outTradeNo } = await startWechat(orderId);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: amount });
    expect(await env.DB.prepare("SELECT status, escrow_remaining FROM task WHERE id = ?1").bind(taskId).first()).toEqual({
      status: "open",
      escrow_remaining: 900,
    });
    await expectLedgerWhole();
  });

  it("are refused (not 2xx, nothing stored or moved) when a signature is a probe, wrong, stale or missing", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    const signature = notification.headers["wechatpay-signature"] ?? "";
    expect(signature).not.toBe("");
    for (const headers of <Record<string, string>[]>[
      { "wechatpay-signature": "WECHATPAY/SIGNTEST/abcdefghijklmnop" },
      { "wechatpay-signature": signature.replace(/^./, (c) => (c === "A" ? "B" : "A")) },
      { "wechatpay-timestamp": String(Math.floor(origin.now() / 1000) - 301) },
      { "wechatpay-serial": "PUB_KEY_ID_0000000000000000000000000000000000" },
    ]) {
      const answer = await replay(origin, notification, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
      expect(await answer.json()).toEqual({ code: "FAIL", message: expect.any(String) });
    }
    const tampered = await replay(origin, {
      ...notification,
      body: notification.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" '),
    });
    expect(tampered.status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await notificationRows(outTradeNo)).toEqual([]);
    // The real one, resent as WeChat Pay does after a refusal, is taken.
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    await expectLedgerWhole();
  });

  it("refuse a payment of an order Paydesk does not know, storing the event and moving nothing", async () => {
    const stranger = await signedNotification(origin, {
      out_trade_no: "PDunknown0000000000000000000001",
      amount: { total: 900, payer_total: 900, currency: "CNY" },
    });
    const answer = await replay(origin, stranger);
    expect(answer.status).toBe(404);
    expect(await notificationRows("PDunknown0000000000000000000001")).toEqual([expect.objectContaining({ outcome: "unknown_order" })]);
    expect(await worldBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it.each([
    ["amount", { total: 1, payer_total: 1, currency: "CNY" }],
    ["currency", { total: 2_500, payer_total: 2_500, currency: "USD" }],
  ])("refuse a payment whose %s is not the order's, and leave the payment for an operator", async (_, amount) => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const forged = await signedNotification(origin, { out_trade_no: outTradeNo, amount });
    const answer = await replay(origin, forged);
    expect(answer.status).toBe(422);
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "pending", remote_state: "mismatch", next_check_at: null });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await notificationRows(outTradeNo)).toEqual([expect.objectContaining({ outcome: "amount_mismatch" })]);
    await expectLedgerWhole();
  });

  it("a notification for another merchant or appid is refused", async () => {
    const order = await rechargeOrder(2_500);
    const { outTradeNo } = await startWechat(order.id);
    const foreign = await signedNotification(origin, { out_trade_no: outTradeNo, appid: "wx0000000000000000", amount: { total: 2_500 } });
    expect((await replay(origin, foreign)).status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
  });
});
