import { beforeEach, describe, expect, it } from "vitest";
import { retryScheduleSeconds, type SimDelivery } from "../src/state";
import { testPlatformCertificates, testWechatPublicKey } from "../src/test-only-keys";
import {
  advanceClock,
  control,
  deliverDue,
  inMinutes,
  outTradeNo,
  planAnswers,
  receivedAt,
  resetSimulator,
  simulatorState,
  testClient,
} from "./support";

beforeEach(async () => {
  await resetSimulator();
});

async function paidOrder(options: { notify?: Record<string, unknown>; amount?: number } = {}) {
  let offset = 0;
  const harness = testClient({}, { offsetSeconds: () => offset });
  const input = { outTradeNo: outTradeNo("N"), description: "Paydesk recharge", amount: options.amount ?? 2500, expiresAt: inMinutes(30) };
  expect((await harness.client.createNativeOrder(input)).outcome).toBe("ok");
  const paid = await control(`/orders/${input.outTradeNo}/pay`, options.notify ? { notify: options.notify } : {});
  expect(paid.status).toBe(200);
  const advance = async (seconds: number) => {
    await advanceClock(seconds);
    offset += seconds;
  };
  return { ...harness, input, advance };
}

describe("payment notifications", () => {
  it("arrive signed over the exact body, with an AEAD-sealed transaction the client opens", async () => {
    const { client, config, input } = await paidOrder();
    expect(await deliverDue()).toMatchObject([
      { eventType: "TRANSACTION.SUCCESS", outTradeNo: input.outTradeNo, attempts: [{ status: 204, probe: false }] },
    ]);
    const [notification] = await receivedAt(config.notifyUrl);
    expect(notification!.headers).toMatchObject({
      "content-type": "application/json",
      "wechatpay-serial": testWechatPublicKey.id,
      "wechatpay-signature-type": "WECHATPAY2-SHA256-RSA2048",
      "wechatpay-nonce": expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const envelope = JSON.parse(notification!.body);
    expect(envelope).toMatchObject({
      event_type: "TRANSACTION.SUCCESS",
      resource_type: "encrypt-resource",
      resource: {
        algorithm: "AEAD_AES_256_GCM",
        associated_data: "transaction",
        original_type: "transaction",
        nonce: expect.stringMatching(/^[0-9A-Za-z]{12}$/),
      },
    });
    const read = await client.readNotification(notification!.headers, notification!.body);
    expect(read).toMatchObject({
      ok: true,
      kind: "transaction",
      transaction: {
        out_trade_no: input.outTradeNo,
        trade_state: "SUCCESS",
        amount: { total: input.amount },
        transaction_id: expect.stringMatching(/^\d{28}$/),
      },
    });
    // The same content re-serialised differently no longer verifies: only the raw body does.
    expect(await client.verifyNotification(notification!.headers, JSON.stringify(envelope, null, 2))).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("sent late on request (delaySeconds) wait that long before their first attempt", async () => {
    const { config, advance } = await paidOrder({ notify: { delaySeconds: 120 } });
    expect(await deliverDue()).toEqual([]);
    await advance(119);
    expect(await deliverDue()).toEqual([]);
    expect(await receivedAt(config.notifyUrl)).toEqual([]);
    await advance(1);
    expect((await deliverDue())[0]).toMatchObject({ eventType: "TRANSACTION.SUCCESS", attempts: [{ status: 204 }] });
    expect(await receivedAt(config.notifyUrl)).toHaveLength(1);
    expect((await control("/orders/x/pay", { notify: { delaySeconds: 3601 } })).status).toBe(400);
  });

  it("are retried on the schedule until answered 200/204, each time re-signed over the same body", async () => {
    const { config, advance } = await paidOrder();
    await planAnswers(config.notifyUrl, [500, 404, 200]);
    await deliverDue();
    expect(await deliverDue()).toEqual([]);
    await advance(14);
    expect(await deliverDue()).toEqual([]);
    await advance(1);
    expect((await deliverDue())[0]?.attempts[0]?.status).toBe(404);
    await advance(15);
    expect((await deliverDue())[0]?.attempts[0]?.status).toBe(200);
    await advance(30);
    expect(await deliverDue()).toEqual([]);
    const received = await receivedAt(config.notifyUrl);
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.body)).size).toBe(1);
    expect(new Set(received.map((r) => r.headers["wechatpay-nonce"])).size).toBe(3);
    expect(new Set(received.map((r) => r.headers["wechatpay-timestamp"])).size).toBe(3);
  });

  it("stop after fifteen retries spread over 24 h 4 min", async () => {
    const { config, advance } = await paidOrder();
    await planAnswers(
      config.notifyUrl,
      Array.from({ length: 20 }, () => 500),
    );
    await deliverDue();
    for (const wait of retryScheduleSeconds) {
      await advance(wait - 1);
      expect(await deliverDue()).toEqual([]);
      await advance(1);
      expect(await deliverDue()).toHaveLength(1);
    }
    await advance(24 * 3600);
    expect(await deliverDue()).toEqual([]);
    expect(retryScheduleSeconds.reduce((sum, seconds) => sum + seconds, 0)).toBe(24 * 3600 + 4 * 60);
    const [delivery] = (await simulatorState()).deliveries as SimDelivery[];
    expect(delivery).toMatchObject({ delivered: false, gaveUp: true, nextAttemptAt: null });
    expect(delivery!.attempts).toHaveLength(16);
    expect(await receivedAt(config.notifyUrl)).toHaveLength(16);
  });

  it("an answer later than 5 s counts as not received", { timeout: 15_000 }, async () => {
    const { config } = await paidOrder();
    await planAnswers(config.notifyUrl, [{ status: 204, delayMs: 5_500 }]);
    expect((await deliverDue())[0]?.attempts[0]?.status).toBe("timeout");
    expect((await simulatorState()).deliveries[0]).toMatchObject({ delivered: false, failures: 1 });
  });

  it("a probe signature first: the client refuses it, the merchant answers 5xx, the real one follows", async () => {
    const { client, config, advance } = await paidOrder({ notify: { probeFirst: true } });
    await planAnswers(config.notifyUrl, [500]);
    expect((await deliverDue())[0]?.attempts[0]).toMatchObject({ probe: true, status: 500 });
    await advance(15);
    expect((await deliverDue())[0]?.attempts[0]).toMatchObject({ probe: false, status: 204 });
    const [probe, real] = await receivedAt(config.notifyUrl);
    expect(probe!.headers["wechatpay-signature"]).toMatch(/^WECHATPAY\/SIGNTEST\//);
    expect(await client.readNotification(probe!.headers, probe!.body)).toEqual({ ok: false, reason: "probe_signature" });
    expect((await client.readNotification(real!.headers, real!.body)).ok).toBe(true);
    expect((await simulatorState()).deliveries[0]?.probeAccepted).toBe(false);
  });

  it("a first attempt with a skewed clock or an unknown serial is refused by the client; the retry verifies", async () => {
    for (const notify of [{ skewFirstSeconds: -600 }, { unknownSerialFirst: true }]) {
      const { client, config, advance } = await paidOrder({ notify });
      await planAnswers(config.notifyUrl, [500]);
      await deliverDue();
      await advance(15);
      await deliverDue();
      const [first, retry] = await receivedAt(config.notifyUrl);
      expect(await client.readNotification(first!.headers, first!.body)).toEqual({
        ok: false,
        reason: "skewFirstSeconds" in notify ? "stale_timestamp" : "unknown_serial",
      });
      expect((await client.readNotification(retry!.headers, retry!.body)).ok).toBe(true);
      await resetSimulator();
    }
  });

  it("a merchant that acknowledges a probe is caught", async () => {
    await paidOrder({ notify: { probeFirst: true } });
    await deliverDue();
    expect((await simulatorState()).deliveries[0]).toMatchObject({ probeAccepted: true });
  });

  it("duplicates arrive concurrently with the same notification id", async () => {
    const { client, config } = await paidOrder({ notify: { duplicate: true } });
    expect((await deliverDue())[0]?.attempts).toHaveLength(2);
    const received = await receivedAt(config.notifyUrl);
    expect(received).toHaveLength(2);
    const reads = await Promise.all(received.map((r) => client.readNotification(r.headers, r.body)));
    expect(reads.every((read) => read.ok)).toBe(true);
    expect(new Set(received.map((r) => JSON.parse(r.body).id)).size).toBe(1);
  });

  it("are refused by a client of another merchant, and by a wrong APIv3 key", async () => {
    const { config } = await paidOrder();
    await deliverDue();
    const [notification] = await receivedAt(config.notifyUrl);
    const other = testClient({ mchid: "1900000999" }).client;
    expect(await other.readNotification(notification!.headers, notification!.body)).toEqual({ ok: false, reason: "foreign_merchant" });
    const wrongKey = testClient({ apiV3Key: "0123456789abcdef0123456789abcdef" }).client;
    expect(await wrongKey.readNotification(notification!.headers, notification!.body)).toEqual({ ok: false, reason: "decrypt_failed" });
  });
});

describe("refund notifications", () => {
  it("REFUND.SUCCESS reaches the refund notify URL with refund_status", async () => {
    const { client, config, input } = await paidOrder({ amount: 3000 });
    await deliverDue();
    const refunded = await client.refund({ outRefundNo: `R${input.outTradeNo}`, outTradeNo: input.outTradeNo, refund: 1000, total: 3000 });
    expect(refunded).toMatchObject({ outcome: "ok", data: { status: "PROCESSING" } });
    await control(`/refunds/R${input.outTradeNo}/complete`, { status: "SUCCESS" });
    expect(await deliverDue()).toMatchObject([{ eventType: "REFUND.SUCCESS" }]);
    const [notification] = await receivedAt(config.refundNotifyUrl!);
    expect(await client.readNotification(notification!.headers, notification!.body)).toMatchObject({
      ok: true,
      kind: "refund",
      refund: { out_refund_no: `R${input.outTradeNo}`, refund_status: "SUCCESS", amount: { refund: 1000, total: 3000 } },
      notification: { event_type: "REFUND.SUCCESS" },
    });
  });

  it("an ABNORMAL refund the merchant platform pays out to another card ends SUCCESS through OTHER_BANKCARD, notified", async () => {
    const { client, config, input } = await paidOrder({ amount: 3000 });
    await deliverDue();
    const outRefundNo = `R${input.outTradeNo}`;
    await client.refund({ outRefundNo, outTradeNo: input.outTradeNo, refund: 1200, total: 3000 });
    // Only an abnormal refund is paid out this way.
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(409);
    await control(`/refunds/${outRefundNo}/complete`, { status: "ABNORMAL" });
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    expect(await client.queryRefund(outRefundNo)).toMatchObject({
      outcome: "ok",
      data: {
        status: "SUCCESS",
        channel: "OTHER_BANKCARD",
        user_received_account: expect.stringContaining("银行"),
        amount: { refund: 1200 },
      },
    });
    expect((await deliverDue()).map((delivery) => delivery.eventType)).toEqual(["REFUND.ABNORMAL", "REFUND.SUCCESS"]);
    const received = await receivedAt(config.refundNotifyUrl!);
    expect(await client.readNotification(received[1]!.headers, received[1]!.body)).toMatchObject({
      ok: true,
      refund: { out_refund_no: outRefundNo, refund_status: "SUCCESS", amount: { refund: 1200 } },
    });
    // Counted as refunded again: the order refunds no more than what is left.
    const over = await client.refund({ outRefundNo: `${outRefundNo}2`, outTradeNo: input.outTradeNo, refund: 1801, total: 3000 });
    expect(over).toMatchObject({ outcome: "failed", code: "INVALID_REQUEST" });
  });

  it("a PROCESSING refund settles by itself after a while", async () => {
    const { client, input, advance } = await paidOrder();
    await client.refund({ outRefundNo: `R${input.outTradeNo}`, outTradeNo: input.outTradeNo, refund: 100, total: 2500 });
    await advance(61);
    expect(await client.queryRefund(`R${input.outTradeNo}`)).toMatchObject({ outcome: "ok", data: { status: "SUCCESS" } });
  });
});

describe("key migration", () => {
  it("in 'both' mode notifications alternate between certificate and public key, and a client holding both verifies each", async () => {
    await control("/mode", { mode: "both" });
    const { client, config, input } = await paidOrder();
    const second = { ...input, outTradeNo: outTradeNo("N") };
    await client.createNativeOrder(second);
    await control(`/orders/${second.outTradeNo}/pay`, {});
    await deliverDue();
    const received = await receivedAt(config.notifyUrl);
    expect(received.map((r) => r.headers["wechatpay-serial"]).sort()).toEqual(
      [testPlatformCertificates.A.serial, testWechatPublicKey.id].sort(),
    );
    const both = testClient({ ...config, platformCertificates: [testPlatformCertificates.A.certificatePem] }).client;
    for (const r of received) expect((await both.readNotification(r.headers, r.body)).ok).toBe(true);
    // A client that knows only the public key cannot verify the certificate-signed one.
    const reads = await Promise.all(received.map((r) => client.readNotification(r.headers, r.body)));
    expect(reads.map((read) => (read.ok ? "ok" : read.reason)).sort()).toEqual(["ok", "unknown_serial"]);
  });
});
