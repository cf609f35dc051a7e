import { describe, expect, it } from "vitest";
import type { OrderDetail } from "#contract/orders";
import { closedOrderNote, outcomeUnsettled } from "./payment-outcome";

type Payment = OrderDetail["payments"][number];

const at = "2026-11-28T10:00:00.000Z";
function order(status: OrderDetail["status"], payments: Payment[]): OrderDetail {
  return {
    id: "ord_1",
    kind: "recharge",
    status,
    amount: 3_000,
    description: "Wallet recharge of ¥30.00",
    closeReason: status === "closed" ? "cancelled" : null,
    createdAt: at,
    expiresAt: at,
    paidAt: status === "paid" ? at : null,
    closedAt: status === "closed" ? at : null,
    history: [],
    payments,
    refunds: [],
  };
}
const wechat = (status: Payment["status"], refund?: NonNullable<Payment["refund"]>["status"]): Payment => ({
  id: `pay_${status}`,
  method: "wechat",
  status,
  amount: 3_000,
  createdAt: at,
  ...(refund ? { refund: { id: "RF1", status: refund, amount: 3_000, wechatPaidOut: null } } : {}),
});

describe("the payment result's outcome", () => {
  it("keeps checking while the order waits, a payment is open or an automatic refund is on its way, and only then", () => {
    expect(outcomeUnsettled(order("pending", []))).toBe(true);
    expect(outcomeUnsettled(order("closed", [wechat("pending")]))).toBe(true);
    expect(outcomeUnsettled(order("closed", [wechat("refunded", "pending")]))).toBe(true);
    expect(outcomeUnsettled(order("paid", [wechat("refunded", "pending")]))).toBe(true);
    expect(outcomeUnsettled(order("closed", [wechat("refunded", "succeeded")]))).toBe(false);
    expect(outcomeUnsettled(order("closed", [wechat("refunded", "failed")]))).toBe(false);
    expect(outcomeUnsettled(order("paid", [wechat("succeeded")]))).toBe(false);
    expect(outcomeUnsettled(order("closed", [wechat("failed")]))).toBe(false);
  });

  it("says of a closed order that nothing was paid only when no WeChat Pay payment may still land or went back", () => {
    expect(closedOrderNote(order("closed", []))).toBe("nothingPaid");
    expect(closedOrderNote(order("closed", [wechat("failed")]))).toBe("nothingPaid");
    expect(closedOrderNote(order("closed", [wechat("failed"), wechat("pending")]))).toBe("mayStillLand");
    expect(closedOrderNote(order("closed", [wechat("refunded", "succeeded")]))).toBeNull();
  });
});
