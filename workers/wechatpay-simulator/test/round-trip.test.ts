import { beforeEach, describe, expect, it } from "vitest";
import { control, inMinutes, outTradeNo, resetSimulator, simulatorState, testClient } from "./support";

beforeEach(async () => {
  await resetSimulator();
});

const order = (overrides: Partial<{ outTradeNo: string; amount: number; expiresAt: number; description: string }> = {}) => ({
  outTradeNo: outTradeNo(),
  description: "Paydesk 充值 ¥12.34",
  amount: 1234,
  expiresAt: inMinutes(30),
  ...overrides,
});

describe("client ↔ simulator: creating payments", () => {
  it("Native: a weixin:// code URL, the order NOTPAY with time_expire equal to the order's own expiry", async () => {
    const { client } = testClient();
    const input = order({ expiresAt: Date.parse("2030-01-02T03:04:05.678Z") });
    const created = await client.createNativeOrder(input);
    expect(created).toMatchObject({
      outcome: "ok",
      data: { codeUrl: expect.stringMatching(/^weixin:\/\/wxpay\/bizpayurl\?pr=[0-9A-Za-z]{9}$/) },
    });
    const state = await simulatorState();
    const stored = Object.values(state.orders)[0]!;
    expect(stored).toMatchObject({ outTradeNo: input.outTradeNo, tradeType: "NATIVE", tradeState: "NOTPAY", total: 1234 });
    // Truncated to the second, never later than the order's own expiry.
    expect(stored.timeExpire).toBe(Date.parse("2030-01-02T03:04:05.000Z"));

    const queried = await client.queryOrder(input.outTradeNo);
    expect(queried).toMatchObject({
      outcome: "ok",
      data: { trade_state: "NOTPAY", out_trade_no: input.outTradeNo, amount: { total: 1234 } },
    });
    expect(queried.outcome === "ok" && queried.data.transaction_id).toBeFalsy();
  });

  it("H5: an h5_url for the payer's IP and scene", async () => {
    const { client } = testClient();
    const created = await client.createH5Order({ ...order(), payerClientIp: "203.0.113.7", sceneType: "Wap" });
    expect(created).toMatchObject({
      outcome: "ok",
      data: {
        h5Url: expect.stringMatching(
          /^https:\/\/wx\.tenpay\.com\/cgi-bin\/mmpayweb-bin\/checkmweb\?prepay_id=wx\d{14}[0-9a-f]{20}&package=\d{10}$/,
        ),
      },
    });
  });

  it("JSAPI: a prepay id and paySign parameters WeixinJSBridge accepts; paying through them succeeds", async () => {
    const { client } = testClient();
    const input = order();
    const created = await client.createJsapiOrder({ ...input, openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" });
    if (created.outcome !== "ok") throw new Error(JSON.stringify(created));
    expect(created.data.prepayId).toMatch(/^wx\d{14}[0-9a-f]{20}$/);
    expect(created.data.payParams).toMatchObject({
      appId: client.config.appid,
      package: `prepay_id=${created.data.prepayId}`,
      signType: "RSA",
    });

    const forged = await control<{ valid: boolean; reason?: string }>("/jsapi/verify", { ...created.data.payParams, nonceStr: "another" });
    expect(forged.data).toEqual({ valid: false, reason: "PAY_SIGN" });
    const paid = await control<{ valid: boolean; transaction: { trade_state: string; payer: { openid: string } } }>("/jsapi/verify", {
      ...created.data.payParams,
      pay: true,
    });
    expect(paid.data).toMatchObject({
      valid: true,
      transaction: { trade_state: "SUCCESS", payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" } },
    });

    const queried = await client.queryOrder(input.outTradeNo);
    expect(queried).toMatchObject({
      outcome: "ok",
      data: { trade_state: "SUCCESS", trade_type: "JSAPI", transaction_id: expect.stringMatching(/^\d{28}$/) },
    });
  });

  it("the same out_trade_no with identical parameters gives a fresh code; with other parameters it is refused", async () => {
    const { client } = testClient();
    const input = order();
    const first = await client.createNativeOrder(input);
    const again = await client.createNativeOrder(input);
    expect(first.outcome === "ok" && again.outcome === "ok" && first.data.codeUrl !== again.data.codeUrl).toBe(true);
    expect(await client.createNativeOrder({ ...input, amount: 999 })).toMatchObject({
      outcome: "failed",
      status: 403,
      code: "OUT_TRADE_NO_USED",
      retryable: false,
    });
  });

  it("refuses what WeChat Pay refuses, before anything is sent", async () => {
    const { client } = testClient();
    await expect(client.createNativeOrder(order({ description: "充值 😀" }))).rejects.toThrow(/4-byte/);
    await expect(client.createNativeOrder(order({ outTradeNo: "bad no!" }))).rejects.toThrow(/valid/);
    await expect(client.createNativeOrder(order({ amount: 0 }))).rejects.toThrow(/valid/);
    await expect(client.createNativeOrder(order({ expiresAt: Date.now() - 1000 }))).rejects.toThrow(/expired/);
    expect((await simulatorState()).requests).toEqual([]);
  });
});

describe("client ↔ simulator: query, close, expiry", () => {
  it("an unknown order is ORDER_NOT_EXIST; closing is re-entrant; a closed order cannot be ordered again", async () => {
    const { client } = testClient();
    expect(await client.queryOrder("NOSUCHORDER1")).toMatchObject({ outcome: "failed", status: 404, code: "ORDER_NOT_EXIST" });
    const input = order();
    await client.createNativeOrder(input);
    expect(await client.closeOrder(input.outTradeNo)).toEqual({ outcome: "ok", data: null, requestId: expect.any(String) });
    expect(await client.closeOrder(input.outTradeNo)).toMatchObject({ outcome: "ok" });
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({
      outcome: "ok",
      data: { trade_state: "CLOSED", trade_state_desc: "订单已关闭" },
    });
    expect(await client.createNativeOrder(input)).toMatchObject({ outcome: "failed", code: "ORDER_CLOSED" });
    expect(await control(`/orders/${input.outTradeNo}/pay`, {})).toEqual({ status: 409, data: { error: "ORDER_CLOSED" } });
  });

  it("a paid order cannot be closed", async () => {
    const { client } = testClient();
    const input = order();
    await client.createNativeOrder(input);
    expect((await control(`/orders/${input.outTradeNo}/pay`, {})).status).toBe(200);
    expect(await client.closeOrder(input.outTradeNo)).toMatchObject({ outcome: "failed", status: 400, code: "ORDER_PAID" });
  });

  it("an unpaid order closes by itself at time_expire, and cannot be paid after", async () => {
    let offset = 0;
    const { client } = testClient({}, { offsetSeconds: () => offset });
    const input = order({ expiresAt: inMinutes(30) });
    await client.createNativeOrder(input);
    const { data } = await control<{ offsetSeconds: number }>("/clock", { advanceSeconds: 31 * 60 });
    offset = data.offsetSeconds;
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "ok", data: { trade_state: "CLOSED" } });
    expect((await control(`/orders/${input.outTradeNo}/pay`, {})).status).toBe(409);
  });

  it("an H5 link lives five minutes; ordering again renews it", async () => {
    let offset = 0;
    const { client } = testClient({}, { offsetSeconds: () => offset });
    const input = { ...order(), payerClientIp: "203.0.113.7" };
    await client.createH5Order(input);
    offset = (await control<{ offsetSeconds: number }>("/clock", { advanceSeconds: 6 * 60 })).data.offsetSeconds;
    expect(await control(`/orders/${input.outTradeNo}/pay`, {})).toEqual({ status: 409, data: { error: "PAYMENT_LINK_EXPIRED" } });
    expect((await client.createH5Order(input)).outcome).toBe("ok");
    expect((await control(`/orders/${input.outTradeNo}/pay`, {})).status).toBe(200);
  });
});

describe("client ↔ simulator: refunds", () => {
  it("refund, refund query, and the order turns REFUND; the same out_refund_no refunds once", async () => {
    const { client } = testClient();
    const input = order({ amount: 5000 });
    await client.createNativeOrder(input);
    const paid = await control<{ transaction: { transaction_id: string } }>(`/orders/${input.outTradeNo}/pay`, {});
    const refund = await client.refund({
      outRefundNo: `R${input.outTradeNo}`,
      outTradeNo: input.outTradeNo,
      refund: 2000,
      total: 5000,
      reason: "用户取消",
    });
    expect(refund).toMatchObject({
      outcome: "ok",
      data: {
        status: "PROCESSING",
        out_refund_no: `R${input.outTradeNo}`,
        transaction_id: paid.data.transaction.transaction_id,
        amount: { refund: 2000, total: 5000 },
      },
    });
    const again = await client.refund({
      outRefundNo: `R${input.outTradeNo}`,
      outTradeNo: input.outTradeNo,
      refund: 2000,
      total: 5000,
      reason: "用户取消",
    });
    expect(again.outcome === "ok" && refund.outcome === "ok" && again.data.refund_id === refund.data.refund_id).toBe(true);
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "ok", data: { trade_state: "REFUND" } });

    await control(`/refunds/R${input.outTradeNo}/complete`, { status: "SUCCESS" });
    expect(await client.queryRefund(`R${input.outTradeNo}`)).toMatchObject({
      outcome: "ok",
      data: { status: "SUCCESS", success_time: expect.stringMatching(/\+08:00$/) },
    });
  });

  it("a payer's refunds end after the time the payer was given (refundAfterSeconds), else after the simulator's own", async () => {
    const { client } = testClient();
    const settleAfter = async (payerInput: Record<string, unknown>) => {
      const input = order({ amount: 1200 });
      await client.createNativeOrder(input);
      expect((await control(`/orders/${input.outTradeNo}/pay`, payerInput)).status).toBe(200);
      await client.refund({ outRefundNo: `R${input.outTradeNo}`, outTradeNo: input.outTradeNo, refund: 1200, total: 1200 });
      const refund = Object.values((await simulatorState()).refunds).find((item) => item.outTradeNo === input.outTradeNo);
      return refund ? (refund.settleAt - refund.createdAt) / 1000 : null;
    };
    expect(await settleAfter({ refundAfterSeconds: 45 })).toBe(45);
    expect(await settleAfter({})).not.toBe(45);
    expect((await control("/orders/x/pay", { refundAfterSeconds: 86_401 })).status).toBe(400);
  });

  it("refuses refunds of unpaid orders, beyond the total, with another total, and unknown refund numbers", async () => {
    const { client } = testClient();
    const input = order({ amount: 1000 });
    await client.createNativeOrder(input);
    expect(await client.refund({ outRefundNo: "R1", outTradeNo: input.outTradeNo, refund: 100, total: 1000 })).toMatchObject({
      outcome: "failed",
      code: "TRADE_ERROR",
    });
    await control(`/orders/${input.outTradeNo}/pay`, {});
    expect(await client.refund({ outRefundNo: "R2", outTradeNo: input.outTradeNo, refund: 100, total: 999 })).toMatchObject({
      outcome: "failed",
      code: "PARAM_ERROR",
    });
    expect((await client.refund({ outRefundNo: "R3", outTradeNo: input.outTradeNo, refund: 600, total: 1000 })).outcome).toBe("ok");
    expect(await client.refund({ outRefundNo: "R4", outTradeNo: input.outTradeNo, refund: 500, total: 1000 })).toMatchObject({
      outcome: "failed",
      code: "INVALID_REQUEST",
    });
    expect(await client.queryRefund("NOSUCHREFUND")).toMatchObject({ outcome: "failed", status: 404, code: "RESOURCE_NOT_EXISTS" });
  });
});
