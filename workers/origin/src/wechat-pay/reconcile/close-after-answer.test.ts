import { beforeEach, describe, expect, it, vi } from "vitest";
import { balanceOf, expectLedgerWhole, fundWallet } from "../../../test/origin-client";
import { key, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { paymentRow, simulatorOrder, type WechatOrigin } from "../../../test/wechat-support";
import { createOriginApp } from "../../app";
import { simulatorBound } from "../config";

let origin: WechatOrigin;
let alice: SceneUser;

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
});

const { rechargeOrder, taskBudgetOrder, startWechat } = wechatRequests(() => ({ origin, alice }));

/**
 * The same origin, on the same database and clock, whose WeChat Pay client cannot be built
 * (its module failed to load, say): what `c.var.wechatPay()` answers is a rejection.
 */
async function originWithoutWechatClient() {
  const app = await createOriginApp({
    clock: { now: origin.now },
    emulation: simulatorBound(origin.env),
    wechatPay: () => Promise.reject(new Error("WeChat Pay's client could not be built")),
  });
  return (path: string, headers: Record<string, string>, body?: unknown) =>
    app.request(
      path,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      origin.env,
    );
}

describe("closing a WeChat Pay order after the answer", () => {
  it("does not change a cancel's answer when the WeChat Pay client cannot be built; the cron closes it later", async () => {
    const order = await rechargeOrder(800);
    const { outTradeNo } = await startWechat(order.id);
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const call = await originWithoutWechatClient();
      const cancelled = await call(`/api/orders/${order.id}/cancel`, alice.auth);
      expect(cancelled.status).toBe(200);
      expect(await cancelled.json()).toMatchObject({ code: "SUCCESS", data: { id: order.id, status: "closed" } });
      expect(reported).toHaveBeenCalledWith("Closing the WeChat Pay order failed", expect.any(Error));
    } finally {
      reported.mockRestore();
    }
    // Nothing was closed at WeChat Pay; the payment is due for the cron, which closes it.
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("NOTPAY");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "pending", next_check_at: origin.now() });
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, closed: 1 });
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    expect(await paymentRow(outTradeNo)).toMatchObject({ status: "failed", remote_state: "closed" });
  });

  it("does not change a wallet payment's answer either", async () => {
    const { orderId, amount } = await taskBudgetOrder(alice);
    const { outTradeNo } = await startWechat(orderId);
    await fundWallet(origin, alice, amount);
    const reported = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const call = await originWithoutWechatClient();
      const paid = await call(`/api/orders/${orderId}/pay`, { ...alice.auth, "Idempotency-Key": key() }, { method: "wallet" });
      expect(paid.status).toBe(201);
      expect(reported).toHaveBeenCalledWith("Closing the WeChat Pay order failed", expect.any(Error));
    } finally {
      reported.mockRestore();
    }
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: amount });
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("NOTPAY");
    expect((await origin.cron()).wechat).toMatchObject({ checked: 1, closed: 1 });
    expect((await simulatorOrder(outTradeNo)).order.tradeState).toBe("CLOSED");
    await expectLedgerWhole();
  });
});
