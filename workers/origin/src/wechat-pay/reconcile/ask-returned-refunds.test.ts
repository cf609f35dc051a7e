// docs/decisions/071-returned-refunds-asked-again.md
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OrderStory } from "#contract/ops-orders";
import type { OpsWechatRefund } from "#contract/ops-refunds";
import { expectLedgerWhole, seedOperator } from "../../../test/origin-client";
import { recordedNotification, wechatRequests, wechatScene, type SceneUser } from "../../../test/wechat-scene";
import { control, deliverNotifications, misreportNextRefundQuery, replay, type WechatOrigin } from "../../../test/wechat-support";
import { askReturnedRefunds, nextReturnedRefundAsk, returnedRefundAsks } from "./ask-returned-refunds";

let origin: WechatOrigin;
let alice: SceneUser;
let finance: SceneUser;

const { lateRechargeRefund } = wechatRequests(() => ({ origin, alice }));

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
  finance = await seedOperator("op_finance", "finance", origin.now());
});

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** A refund WeChat Pay ended ABNORMAL, returned to alice's wallet by finance. */
async function returnedRefund(amount: number) {
  const late = await lateRechargeRefund(amount);
  expect((await control(`/refunds/${late.outRefundNo}/complete`, { status: "ABNORMAL" })).status).toBe(200);
  await deliverNotifications();
  expect((await replay(origin, await recordedNotification(late.outTradeNo, "REFUND.ABNORMAL"))).status).toBe(204);
  const returned = await origin.call(`/api/ops/wechat-refunds/${late.outRefundNo}/return-to-wallet`, {
    body: { reason: "Her card was cancelled; agreed on ticket 8." },
    headers: { ...finance.auth, "Idempotency-Key": `rt-${crypto.randomUUID()}` },
  });
  expect(returned.status).toBe(200);
  return late;
}

const returnRow = (outRefundNo: string) =>
  env.DB.prepare("SELECT returned_at, next_ask_at, late_success_at, late_success_amount FROM wechat_refund_return WHERE out_refund_no = ?1")
    .bind(outRefundNo)
    .first<{ returned_at: number; next_ask_at: number | null; late_success_at: number | null; late_success_amount: number | null }>();
const story = async (orderId: string) =>
  ((await (await origin.call(`/api/ops/orders/${orderId}`, { method: "GET", headers: finance.auth })).json()) as { data: OrderStory }).data;
const returnedAsked = async () => (await origin.cron()).wechat?.returnedRefundsAsked;
const refundQueries = async (outRefundNo: string) =>
  (await control<{ requests: { method: string; path: string }[] }>("/state")).data.requests.filter(
    (request) => request.method === "GET" && request.path.startsWith(`/v3/refund/domestic/refunds/${outRefundNo}`),
  ).length;

describe("a refund returned to the wallet", () => {
  it("paid out at the merchant platform with its notification lost, is found by the cron's ask and listed for finance", async () => {
    const { orderId, outRefundNo } = await returnedRefund(900);
    const returned = await returnRow(outRefundNo);
    expect(returned?.next_ask_at).toBe((returned?.returned_at ?? NaN) + hourMs);
    // The order's page tells finance when WeChat Pay is asked again.
    const nextAskShown = async () => (await story(orderId)).refunds[0]?.returned?.nextAskAt;
    expect(await nextAskShown()).toBe(new Date(origin.now() + hourMs).toISOString());

    // Someone at the merchant platform pays it out. WeChat Pay's notification never arrives.
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    const queriesBefore = await refundQueries(outRefundNo);
    expect(await returnedAsked()).toBe(0);
    expect(await refundQueries(outRefundNo)).toBe(queriesBefore);

    await origin.advance(hourMs);
    expect(await returnedAsked()).toBe(1);
    expect(await refundQueries(outRefundNo)).toBe(queriesBefore + 1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: origin.now(), late_success_amount: null, next_ask_at: null });
    expect(await nextAskShown()).toBeNull();
    const listed = await origin.call("/api/ops/wechat-refunds", { method: "GET", headers: finance.auth });
    expect(((await listed.json()) as { data: OpsWechatRefund[] }).data).toMatchObject([
      { outRefundNo, returned: { lateSuccessAmount: 900, settled: null } },
    ]);

    // Recorded once: it is not asked about again.
    await origin.advance(8 * dayMs);
    expect(await returnedAsked()).toBe(0);
    expect(await refundQueries(outRefundNo)).toBe(queriesBefore + 1);
    await expectLedgerWhole();
  });

  it("that WeChat Pay still reports failed is asked again a day later; an unclear answer, an hour later", async () => {
    const { outRefundNo } = await returnedRefund(600);
    await origin.advance(hourMs);
    expect(await returnedAsked()).toBe(1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: null, next_ask_at: origin.now() + dayMs });
    expect(await returnedAsked()).toBe(0);

    await origin.advance(dayMs);
    await control("/faults", { kind: "status", status: 500, path: `/v3/refund/domestic/refunds/${outRefundNo}`, method: "GET" });
    expect(await returnedAsked()).toBe(1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: null, next_ask_at: origin.now() + hourMs });

    // A notification of the payout, received meanwhile, ends the asks too.
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    await deliverNotifications();
    const [, outTradeNo] = /^RF(.+)$/.exec(outRefundNo) ?? [];
    expect((await replay(origin, await recordedNotification(outTradeNo ?? "", "REFUND.SUCCESS"))).status).toBe(204);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: origin.now(), next_ask_at: null });
    await origin.advance(hourMs);
    expect(await returnedAsked()).toBe(0);
    await expectLedgerWhole();
  });
  it("paid out for another amount than asked is reported, not recorded, and not asked about again: WeChat Pay's success is final", async () => {
    const { outRefundNo } = await returnedRefund(600);
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    await origin.advance(hourMs);
    await misreportNextRefundQuery(500, outRefundNo);
    expect(await returnedAsked()).toBe(1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: null, next_ask_at: null });
    await origin.advance(dayMs);
    expect(await returnedAsked()).toBe(0);
    await expectLedgerWhole();
  });

  it("whose ask fails has its turn moved on an hour, so it does not hold up the others", async () => {
    const stuck = await returnedRefund(600);
    await origin.advance(60_000);
    const other = await returnedRefund(700);
    await origin.advance(hourMs);
    // The database refuses to read the first refund, as a fault would: the ask throws.
    const failing = new Proxy(env.DB, {
      get: (db, property) =>
        property === "prepare"
          ? (sql: string) => {
              if (sql.includes("WHERE wechat_refund.out_refund_no = ?1")) throw new Error("D1_ERROR: injected by the test");
              return db.prepare(sql);
            }
          : Reflect.get(db, property, db),
    });
    expect(await askReturnedRefunds(failing, await origin.wechatPay(), origin.now(), 1)).toBe(0);
    expect(await returnRow(stuck.outRefundNo)).toMatchObject({ next_ask_at: origin.now() + hourMs });
    // The next run, one refund at a time, reaches the other.
    expect(await askReturnedRefunds(env.DB, await origin.wechatPay(), origin.now(), 1)).toBe(1);
    expect(await returnRow(other.outRefundNo)).toMatchObject({ next_ask_at: origin.now() + dayMs });
  });
});

describe("a parked refund returned to the wallet", () => {
  it("is recorded paid out for the amount WeChat Pay reports, between one fen and the whole payment; an answer beyond it is not", async () => {
    // WeChat Pay ends the refund of 8.00 ABNORMAL, reporting 7.00: parked, then settled by finance, returned whole.
    const { orderId, outTradeNo, outRefundNo } = await lateRechargeRefund(800);
    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "ABNORMAL", refund: 700 })).status).toBe(200);
    await deliverNotifications();
    expect((await replay(origin, await recordedNotification(outTradeNo, "REFUND.ABNORMAL"))).status).toBe(422);
    expect((await origin.call(`/api/ops/orders/${orderId}/ask-wechat-pay`, { body: {}, headers: finance.auth })).status).toBe(200);
    const settled = await origin.call(`/api/ops/wechat-refunds/${outRefundNo}/settle-parked`, {
      body: { reason: "The merchant platform shows it failed; ticket 9." },
      headers: { ...finance.auth, "Idempotency-Key": `sp-${crypto.randomUUID()}` },
    });
    expect(settled.status).toBe(200);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: null });

    // Paid out at the merchant platform; its notification lost. The first ask hears 8.01, more
    // than the payment: not recorded, asked again a day later, when 7.00 is.
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    await origin.advance(hourMs);
    await misreportNextRefundQuery(801, outRefundNo);
    expect(await returnedAsked()).toBe(1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: null, next_ask_at: origin.now() + dayMs });
    await origin.advance(dayMs);
    expect(await returnedAsked()).toBe(1);
    expect(await returnRow(outRefundNo)).toMatchObject({ late_success_at: origin.now(), late_success_amount: 700, next_ask_at: null });
    await expectLedgerWhole();
  });
});

describe("when a returned refund is asked about", () => {
  const returnedAt = Date.parse("2026-01-01T00:00:00Z");
  it("daily for 30 days after the return, weekly after, never past a year", () => {
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + hourMs)).toBe(returnedAt + hourMs + dayMs);
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + 29 * dayMs)).toBe(returnedAt + 30 * dayMs);
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + 30 * dayMs)).toBe(returnedAt + 37 * dayMs);
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + 362 * dayMs)).toBe(returnedAt + returnedRefundAsks.askedForMs);
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + returnedRefundAsks.askedForMs)).toBeNull();
  });

  it("an hour after an unclear answer, within the year", () => {
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + 40 * dayMs, { unclear: true })).toBe(returnedAt + 40 * dayMs + hourMs);
    expect(nextReturnedRefundAsk(returnedAt, returnedAt + returnedRefundAsks.askedForMs - 60_000, { unclear: true })).toBe(
      returnedAt + returnedRefundAsks.askedForMs,
    );
  });
});
