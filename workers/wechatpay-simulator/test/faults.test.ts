import { beforeEach, describe, expect, it } from "vitest";
import { certificateConfig, control, inMinutes, outTradeNo, resetSimulator, simulatorFetch, simulatorState, testClient } from "./support";

beforeEach(async () => {
  await resetSimulator();
});

const order = () => ({ outTradeNo: outTradeNo("F"), description: "Paydesk recharge", amount: 100, expiresAt: inMinutes(30) });
const fault = (input: Record<string, unknown>) => control("/faults", input);

describe("fault injection surfaces as the right outcome", () => {
  it("429 FREQUENCY_LIMITED: failed, retryable, nothing created", async () => {
    const { client } = testClient();
    const input = order();
    await fault({ kind: "status", status: 429, path: "/v3/pay/transactions/native" });
    expect(await client.createNativeOrder(input)).toMatchObject({
      outcome: "failed",
      status: 429,
      code: "FREQUENCY_LIMITED",
      retryable: true,
    });
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "failed", code: "ORDER_NOT_EXIST" });
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
  });

  it("500 SYSTEM_ERROR before the change: unknown; the identical request again succeeds", async () => {
    const { client } = testClient();
    const input = order();
    await fault({ kind: "status", status: 500 });
    expect(await client.createNativeOrder(input)).toMatchObject({
      outcome: "unknown",
      reason: "server_error",
      status: 500,
      code: "SYSTEM_ERROR",
    });
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
  });

  it("500 after the change: unknown, and a query shows the change happened", async () => {
    const { client } = testClient();
    const input = order();
    await client.createNativeOrder(input);
    await fault({ kind: "status", status: 500, afterCommit: true, path: "/v3/pay/transactions/out-trade-no/" });
    expect(await client.closeOrder(input.outTradeNo)).toMatchObject({ outcome: "unknown", reason: "server_error" });
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "ok", data: { trade_state: "CLOSED" } });
  });

  it("502 and 503: unknown", async () => {
    const { client } = testClient();
    await fault({
      faults: [
        { kind: "status", status: 502 },
        { kind: "status", status: 503, code: "SERVICE_UNAVAILABLE" },
      ],
    });
    expect(await client.queryOrder("P000001")).toMatchObject({ outcome: "unknown", reason: "server_error", status: 502 });
    expect(await client.queryOrder("P000001")).toMatchObject({
      outcome: "unknown",
      reason: "server_error",
      status: 503,
      code: "SERVICE_UNAVAILABLE",
    });
  });

  it("a time-out after the order was created: unknown; the same request again gives a fresh code for the same order", async () => {
    const { client } = testClient({}, { timeoutMs: 200 });
    const input = order();
    await fault({ kind: "timeout", delayMs: 1_000, path: "/v3/pay/transactions/native" });
    expect(await client.createNativeOrder(input)).toEqual({ outcome: "unknown", reason: "timeout", requestId: null });
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "ok", data: { trade_state: "NOTPAY" } });
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
  });

  it("a time-out after a refund was accepted: unknown; the refund query finds it", async () => {
    const { client } = testClient({}, { timeoutMs: 200 });
    const input = order();
    await client.createNativeOrder(input);
    await control(`/orders/${input.outTradeNo}/pay`, {});
    await fault({ kind: "timeout", delayMs: 1_000, path: "/v3/refund/domestic/refunds" });
    expect(
      await client.refund({ outRefundNo: `R${input.outTradeNo}`, outTradeNo: input.outTradeNo, refund: 100, total: 100 }),
    ).toMatchObject({ outcome: "unknown", reason: "timeout" });
    expect(await client.queryRefund(`R${input.outTradeNo}`)).toMatchObject({ outcome: "ok", data: { status: "PROCESSING" } });
  });

  it("a misreported refund amount: a signed answer stating it, once; the refund itself is unchanged", async () => {
    const { client } = testClient();
    const input = order();
    await client.createNativeOrder(input);
    await control(`/orders/${input.outTradeNo}/pay`, {});
    const outRefundNo = `R${input.outTradeNo}`;
    expect(await client.refund({ outRefundNo, outTradeNo: input.outTradeNo, refund: 60, total: 100 })).toMatchObject({ outcome: "ok" });
    await fault({ kind: "misreport_refund", method: "GET", path: "/v3/refund/domestic/refunds/", refundAmount: 101 });
    expect(await client.queryRefund(outRefundNo)).toMatchObject({ outcome: "ok", data: { amount: { refund: 101, total: 100 } } });
    expect(await client.queryRefund(outRefundNo)).toMatchObject({ outcome: "ok", data: { amount: { refund: 60, total: 100 } } });
  });

  it("probe, missing, tampered, skewed and wrong-key signatures on a 2xx: unknown, never ok", async () => {
    const { client } = testClient();
    const input = order();
    await client.createNativeOrder(input);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: "probe_signature" }, "probe_signature"],
      [{ kind: "unsigned" }, "missing_headers"],
      [{ kind: "tamper_body" }, "bad_signature"],
      // Ahead by more than the five minutes and a slow second: the client reads its clock after the simulator signed.
      [{ kind: "skew", skewSeconds: 330 }, "stale_timestamp"],
      [{ kind: "skew", skewSeconds: -400 }, "stale_timestamp"],
      [{ kind: "wrong_key" }, "bad_signature"],
      [{ kind: "unknown_serial" }, "unknown_serial"],
    ];
    for (const [injected, verification] of cases) {
      await fault(injected);
      expect(await client.queryOrder(input.outTradeNo), JSON.stringify(injected)).toMatchObject({
        outcome: "unknown",
        reason: "unverified_answer",
        status: 200,
        verification,
      });
    }
    // A signature dated within five minutes passes.
    await fault({ kind: "skew", skewSeconds: 200 });
    expect((await client.queryOrder(input.outTradeNo)).outcome).toBe("ok");
  });

  it("a 204 close answer must be signed too", async () => {
    const { client } = testClient();
    const input = order();
    await client.createNativeOrder(input);
    await fault({ kind: "unsigned", path: "/v3/pay/transactions/out-trade-no/" });
    expect(await client.closeOrder(input.outTradeNo)).toMatchObject({
      outcome: "unknown",
      reason: "unverified_answer",
      status: 204,
      verification: "missing_headers",
    });
  });

  it("an unknown serial in certificate mode makes the client download certificates once, then still refuse", async () => {
    await control("/mode", { mode: "certificate" });
    const { client } = testClient(certificateConfig());
    const input = order();
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
    await fault({ kind: "unknown_serial", path: "/v3/pay/transactions/out-trade-no/", times: 2 });
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "unknown", verification: "unknown_serial" });
    // Within the cool-down, a second unknown serial downloads nothing more.
    expect(await client.queryOrder(input.outTradeNo)).toMatchObject({ outcome: "unknown", verification: "unknown_serial" });
    const downloads = (await simulatorState()).requests.filter((request) => request.path === "/v3/certificates");
    expect(downloads).toHaveLength(1);
  });

  it("our clock six minutes off: WeChat Pay refuses the signature (401 SIGN_ERROR, failed, not retryable)", async () => {
    const { client } = testClient({}, { offsetSeconds: () => -360 });
    expect(await client.queryOrder("P000001")).toMatchObject({ outcome: "failed", status: 401, code: "SIGN_ERROR", retryable: false });
  });

  it("a network error: unknown", async () => {
    const { client } = testClient({}, { fetch: async () => Promise.reject(new TypeError("connection reset")) });
    expect(await client.queryOrder("P000001")).toEqual({ outcome: "unknown", reason: "network_error", requestId: null });
  });

  it("a fault is scoped by method and path and used up", async () => {
    const { client } = testClient();
    const input = order();
    await fault({ kind: "status", status: 500, method: "GET", path: "/v3/pay/transactions/out-trade-no/", times: 1 });
    expect((await client.createNativeOrder(input)).outcome).toBe("ok");
    expect((await client.queryOrder(input.outTradeNo)).outcome).toBe("unknown");
    expect((await client.queryOrder(input.outTradeNo)).outcome).toBe("ok");
    expect((await control<{ faults: unknown[] }>("/faults")).data.faults).toEqual([]);
    expect((await simulatorFetch(new Request("https://x.test/__simulator/faults", { method: "DELETE" }))).status).toBe(200);
  });
});
