import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { WechatPrepay } from "#contract/payments";
import { balanceOf, expectLedgerWhole } from "../../test/origin-client";
import { wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import { clearingBalance, control, payerPays, refundRow, replay, worldBalance, type WechatOrigin } from "../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;
let bob: SceneUser;

beforeEach(async () => {
  ({ origin, alice, bob } = await wechatScene());
});

const { rechargeOrder, payRequest, startWechat, orderDetail, cancel } = wechatRequests(() => ({ origin, alice }));

describe("WeChat Pay's faults lose or double no money", () => {
  it.each([
    ["500 before the change", { kind: "status", status: 500 }],
    ["503 after the change", { kind: "status", status: 503, afterCommit: true }],
    ["429", { kind: "status", status: 429 }],
    ["a time-out after the change", { kind: "timeout", delayMs: 1_000 }],
    ["an unsigned answer", { kind: "unsigned" }],
    ["a probe signature on the answer", { kind: "probe_signature" }],
  ])("creating the order: %s → WECHAT_PAY_UNAVAILABLE, and the retry reuses the out_trade_no", async (_, fault) => {
    const order = await rechargeOrder(1_500);
    await control("/faults", { ...fault, path: "/v3/pay/transactions/native" });
    const failed = await payRequest(order.id, { method: "wechat", flow: "native" });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ code: "WECHAT_PAY_UNAVAILABLE" });
    const stored = await env.DB.prepare("SELECT out_trade_no, status FROM payment WHERE order_id = ?1")
      .bind(order.id)
      .first<{ out_trade_no: string; status: string }>();
    expect(stored?.status).toBe("pending");
    const retried = await startWechat(order.id);
    expect(retried.outTradeNo).toBe(stored?.out_trade_no);
    expect((await replay(origin, await payerPays(retried.outTradeNo))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_500, held: 0 });
    await expectLedgerWhole();
  });

  it("querying and refunding through 500, 503, 429 and time-outs: settled once, refunded once", async () => {
    const order = await rechargeOrder(2_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await control(`/orders/${outTradeNo}/pay`, {})).status).toBe(200);
    await control("/faults", {
      faults: [
        { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
        { kind: "status", status: 429, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
        { kind: "timeout", delayMs: 1_000, path: "/v3/pay/transactions/out-trade-no/", method: "GET" },
      ],
    });
    // Checked at 5 (500), 10 (429), 15 (time-out) minutes, then 8 minutes later: settled at 25.
    const settledAt: number[] = [];
    for (let minute = 5; minute <= 25; minute += 5) {
      await origin.advance(5 * 60_000);
      if ((await origin.cron()).wechat?.settled) settledAt.push(minute);
    }
    expect(settledAt).toEqual([25]);
    expect(await orderDetail(order.id)).toMatchObject({ status: "paid" });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_000, held: 0 });

    // A second payment of a cancelled order, refunded through faults on the refund request.
    const order2 = await rechargeOrder(700, bob);
    const paid2 = await payRequest(order2.id, { method: "wechat", flow: "native" }, { user: bob });
    expect(paid2.status).toBe(201);
    const { outTradeNo: outTradeNo2 } = ((await paid2.json()) as { data: WechatPrepay }).data;
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order2.id, bob);
    await control("/faults", {
      faults: [
        { kind: "status", status: 503, afterCommit: true, path: "/v3/refund/domestic/refunds", method: "POST" },
        { kind: "timeout", delayMs: 1_000, path: "/v3/refund/domestic/refunds", method: "POST" },
      ],
    });
    expect((await replay(origin, await payerPays(outTradeNo2))).status).toBe(204);
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "due", attempts: 1 });
    await origin.advance(2 * 60_000);
    await origin.cron();
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "due", attempts: 2 });
    // The first request had gone through (503 after the change), and WeChat Pay settled it
    // meanwhile: the third request, under the same out_refund_no, gets that refund back.
    await origin.advance(4 * 60_000);
    await origin.cron();
    expect(await refundRow(outTradeNo2)).toMatchObject({ status: "succeeded", attempts: 2 });
    await origin.advance(60 * 60_000);
    await origin.cron();
    const refunds = (await control<{ refunds: Record<string, { status: string }> }>("/state")).data.refunds;
    expect(Object.values(refunds)).toHaveLength(1);
    expect(await clearingBalance()).toBe(0);
    expect(await balanceOf(bob.id)).toEqual({ available: 0, held: 0 });
    expect(await worldBalance()).toBe(-2_000);
    await expectLedgerWhole();
  });
});
