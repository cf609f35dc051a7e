import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { balanceOf, expectLedgerWhole } from "../../../test/origin-client";
import { recordedNotification, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { applyRefundResult } from "../payments/refunds";
import {
  clearingBalance,
  control,
  deliverNotifications,
  notificationRows,
  payerPays,
  paymentRow,
  refundRow,
  replay,
  simulatorOrder,
  worldBalance,
  type WechatOrigin,
} from "../../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
});

const { rechargeOrder, taskBudgetOrder, payRequest, startWechat, orderDetail, cancel } = wechatRequests(() => ({ origin, alice }));

describe("late and lost events", () => {
  it("a success for an order cancelled meanwhile is refunded automatically and recorded: money in, then out", async () => {
    const order = await rechargeOrder(3_000);
    const { outTradeNo } = await startWechat(order.id);
    // The close at cancel time fails, so the WeChat Pay order stays open and the payer pays it.
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST", times: 2 });
    await cancel(order.id);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("NOTPAY");
    const notification = await payerPays(outTradeNo);
    expect((await replay(origin, notification)).status).toBe(204);

    const refund = await refundRow(outTradeNo);
    expect(refund).toMatchObject({ out_refund_no: `RF${outTradeNo}`, status: "processing", amount: 3_000, reason: "order_closed" });
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "refunded" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(3_000);
    await expectLedgerWhole();
    expect(await orderDetail(order.id)).toMatchObject({
      status: "closed",
      payments: [{ method: "wechat", status: "refunded", refund: { status: "pending", amount: 3_000 } }],
    });
    // A duplicate of the late success refunds nothing more.
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM wechat_refund").first("n")).toBe(1);

    // An answer or a query that reports another amount is not booked: the refund waits for an operator.
    const reported = {
      status: "SUCCESS" as const,
      out_refund_no: refund?.out_refund_no ?? "",
      refund_id: "50300000000000000000000000001",
      amount: { refund: 1 },
    };
    expect(await applyRefundResult(env.DB, reported.out_refund_no, reported, origin.now())).toBe("processing");
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "processing", out_tx_id: null });
    expect(
      await env.DB.prepare("SELECT next_attempt_at, last_error FROM wechat_refund WHERE out_refund_no = ?1")
        .bind(reported.out_refund_no)
        .first(),
    ).toEqual({ next_attempt_at: null, last_error: "WeChat Pay reports 1 fen refunded, not 3000" });
    expect(await clearingBalance()).toBe(3_000);

    // WeChat Pay finishes the refund and says so: the money leaves once.
    expect((await control(`/refunds/RF${outTradeNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    await deliverNotifications();
    const refunded = await recordedNotification(outTradeNo, "REFUND.SUCCESS");
    expect(refunded).toBeDefined();
    expect((await replay(origin, refunded)).status).toBe(204);
    expect((await replay(origin, refunded)).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded", out_tx_id: expect.any(String) });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(0);
    expect((await orderDetail(order.id)).payments[0]?.refund).toEqual({
      id: `RF${outTradeNo}`,
      status: "succeeded",
      amount: 3_000,
      wechatPaidOut: null,
    });
    await expectLedgerWhole();
  });

  it("a success for an order already paid another way (the wallet) is refunded too", async () => {
    const { orderId, amount } = await taskBudgetOrder(alice);
    const { outTradeNo } = await startWechat(orderId);
    // Alice also has the money in her wallet and pays the budget from it (funded as a code would).
    await env.DB.batch([
      env.DB.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_fund_alice', 'code_redemption', ?1)").bind(origin.now()),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_fund_alice', 'acc_world', 'available', ?1)").bind(
        -amount,
      ),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_fund_alice', ?1, 'available', ?2)").bind(
        `acc_${alice.id}`,
        amount,
      ),
      env.DB.prepare("INSERT INTO tx_seal (tx_id) VALUES ('tx_fund_alice')"),
    ]);
    await control("/faults", { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    const wallet = await payRequest(orderId, { method: "wallet" });
    expect(wallet.status).toBe(201);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ reason: "order_already_paid", status: "processing" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: amount });
    expect(await clearingBalance()).toBe(amount);
    await expectLedgerWhole();
  });

  it("a success for a payment given up while its order is still pending pays the order", async () => {
    const order = await rechargeOrder(3_000);
    const { outTradeNo: first } = await startWechat(order.id, "native");
    // Two requests started WeChat Pay at once: the second asked WeChat Pay to close the first's
    // payment before its create had landed, heard ORDER_NOT_EXIST and gave the payment up;
    // then the create landed, and the first request handed its code to the payer.
    await env.DB.prepare("UPDATE payment SET status = 'failed', remote_state = 'absent', next_check_at = NULL WHERE out_trade_no = ?1")
      .bind(first)
      .run();
    const { outTradeNo: second } = await startWechat(order.id, "h5");
    expect(second).not.toBe(first);

    const notification = await payerPays(first);
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await paymentRow(first)).toMatchObject({ status: "succeeded", remote_state: "paid" });
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid" });
    // The other WeChat Pay order is now due to be closed there by the cron (or refunded if paid).
    expect(await paymentRow(second)).toMatchObject({ status: "pending", next_check_at: expect.any(Number) });
    // A copy of the notification changes nothing.
    expect((await replay(origin, notification)).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    await expectLedgerWhole();
  });

  it("a close refused as ORDER_CLOSED (its first answer lost) asks WeChat Pay, and ends the payment as closed", async () => {
    const order = await rechargeOrder(1_200);
    const { outTradeNo } = await startWechat(order.id);
    // The cancel's close takes effect at WeChat Pay and its answer is lost; the next close hears ORDER_CLOSED.
    await control("/faults", {
      kind: "status",
      status: 503,
      afterCommit: true,
      path: "/v3/pay/transactions/out-trade-no/",
      method: "POST",
    });
    await cancel(order.id);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "pending" });
    await control("/faults", {
      kind: "status",
      status: 400,
      code: "ORDER_CLOSED",
      path: "/v3/pay/transactions/out-trade-no/",
      method: "POST",
    });
    await origin.advance(2 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, closed: 1 });
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed", next_check_at: null });
  });

  it("a success nobody notified for a cancelled order: the cron's close meets ORDER_PAID, queries, and refunds", async () => {
    const order = await rechargeOrder(1_100);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    // The failed close at cancel time is tried again 2 minutes later.
    await origin.advance(60_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(60_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, refundsDue: 1 });
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "refunded" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "processing", reason: "order_closed" });
    expect(await clearingBalance()).toBe(1_100);
    // The simulator settles the refund after 60 s; the cron's query records it.
    await origin.advance(2 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ refundsAdvanced: 1 });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await clearingBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it("a lost notification is found by the cron's query from a minute after creation, then a late copy changes nothing", async () => {
    const order = await rechargeOrder(4_200);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(59_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 0 });
    await origin.advance(1_000);
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, settled: 1 });
    expect(await balanceOf(alice.id)).toEqual({ available: 4_200, held: 0 });
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid" });
    await deliverNotifications();
    const late = await recordedNotification(outTradeNo, "TRANSACTION.SUCCESS");
    expect((await replay(origin, late)).status).toBe(204);
    expect(await notificationRows(outTradeNo)).toEqual([expect.objectContaining({ outcome: "already_settled" })]);
    expect(await balanceOf(alice.id)).toEqual({ available: 4_200, held: 0 });
    await expectLedgerWhole();
  });

  it("an unpaid payment is queried with back-off (1, 2, 4 … minutes), and closed at WeChat Pay when the order expires", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    const checks: number[] = [];
    for (let minute = 1; minute <= 29; minute += 1) {
      await origin.advance(60_000);
      if (((await origin.cron()).wechat?.checked ?? 0) > 0) checks.push(minute);
    }
    expect(checks).toEqual([1, 3, 7, 15, 25]);
    await origin.advance(60_000 * 1.5);
    const run = await origin.cron();
    expect(run).toMatchObject({ closedOrders: 1, wechat: { closed: 1 } });
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed", next_check_at: null });
  });

  it("a cancelled order is closed at WeChat Pay; an unclear close is retried by the cron, only an ok close counts", async () => {
    const order = await rechargeOrder();
    const { outTradeNo } = await startWechat(order.id);
    await cancel(order.id);
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });

    const other = await rechargeOrder();
    const second = await startWechat(other.id);
    await control("/faults", {
      kind: "timeout",
      delayMs: 1_000,
      afterCommit: false,
      path: `/v3/pay/transactions/out-trade-no/${second.outTradeNo}/close`,
    });
    await cancel(other.id);
    expect(await paymentRow(second.outTradeNo)).toMatchObject({ status: "pending", checks: 1 });
    expect((await simulatorOrder(second.outTradeNo)).order.tradeState).toBe("NOTPAY");
    await origin.advance(2 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ closed: 1 });
    expect((await simulatorOrder(second.outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(second.outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });
  });
});

describe("races", () => {
  it("the cron's query and five copies of the notification at once settle once", async () => {
    const order = await rechargeOrder(3_300);
    const { outTradeNo } = await startWechat(order.id);
    const notification = await payerPays(outTradeNo);
    await origin.advance(60_000);
    const [run, ...answers] = await Promise.all([origin.cron(), ...Array.from({ length: 5 }, () => replay(origin, notification))]);
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(204));
    expect(run.wechat?.checked ?? 0).toBeLessThanOrEqual(1);
    expect(await balanceOf(alice.id)).toEqual({ available: 3_300, held: 0 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM journal_tx").first("n")).toBe(1);
    await expectLedgerWhole();
  });

  it("a success arriving as the order expires is either paid or refunded, never both", async () => {
    const order = await rechargeOrder(800);
    const { outTradeNo } = await startWechat(order.id);
    await origin.advance(30 * 60_000 - 2_000);
    const notification = await payerPays(outTradeNo);
    await origin.advance(2_000);
    const [, answer] = await Promise.all([origin.cron(), replay(origin, notification)]);
    expect(answer.status).toBe(204);
    const detail = await orderDetail(order.id);
    const refund = await refundRow(outTradeNo);
    if (detail.status === "paid") {
      expect(refund).toBeNull();
      expect(await balanceOf(alice.id)).toEqual({ available: 800, held: 0 });
    } else {
      expect(refund).toMatchObject({ amount: 800, reason: "order_closed" });
      expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    }
    await expectLedgerWhole();
  });
});

describe("refunds that fail at WeChat Pay", () => {
  it("an ABNORMAL refund is recorded, its money stays in the clearing account, and the order says so", async () => {
    const order = await rechargeOrder(900);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    expect((await control(`/refunds/RF${outTradeNo}/complete`, { status: "ABNORMAL" })).status).toBe(200);
    await deliverNotifications();
    const abnormal = await recordedNotification(outTradeNo, "REFUND.ABNORMAL");
    expect((await replay(origin, abnormal)).status).toBe(204);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "abnormal", out_tx_id: null });
    expect(await clearingBalance()).toBe(900);
    expect((await orderDetail(order.id)).payments[0]).toMatchObject({ status: "refunded", refund: { status: "failed", amount: 900 } });
    // Nothing more happens by itself: an operator settles it at the merchant platform.
    await origin.advance(24 * 60 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ refundsAdvanced: 0 });
    await expectLedgerWhole();
  });
});
