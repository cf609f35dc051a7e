// docs/decisions/070-parked-refunds-settled.md
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OpsWechatRefund } from "#contract/ops-refunds";
import type { OrderStory } from "#contract/ops-orders";
import type { Receipt } from "#contract/receipts";
import { balanceOf, expectLedgerWhole, seedOperator, seedUser } from "../../test/origin-client";
import { recordedNotification, wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import {
  clearingBalance,
  control,
  deliverNotifications,
  misreportNextRefundQuery,
  payerPays,
  refundRow,
  replay,
  type WechatOrigin,
  wechatTestEnv,
  worldBalance,
} from "../../test/wechat-support";
import { ledgerViolations } from "../ledger/invariants";
import { applyRefundResult } from "../wechat-pay/payments/refunds";

let origin: WechatOrigin;
let alice: SceneUser;
let finance: SceneUser;

const { rechargeOrder, startWechat, orderDetail, lateRechargeRefund } = wechatRequests(() => ({ origin, alice }));

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
  finance = await seedOperator("op_finance", "finance", origin.now());
});

type Answer<T> = { status: number; code: string; data: T; field?: string };
async function answerOf<T>(response: Response): Promise<Answer<T>> {
  return { status: response.status, ...((await response.json()) as { code: string; data: T; field?: string }) };
}

const reason = "The merchant platform shows 5.00 refunded to her card; ticket 31.";
const settleParked = async (
  outRefundNo: string,
  {
    by = finance,
    key = `sp-${crypto.randomUUID()}`,
    env: callEnv,
    body = { reason },
  }: { by?: SceneUser; key?: string; env?: Env; body?: unknown } = {},
) =>
  answerOf<OpsWechatRefund>(
    await origin.call(`/api/ops/wechat-refunds/${outRefundNo}/settle-parked`, {
      body,
      headers: { ...by.auth, "Idempotency-Key": key },
      ...(callEnv ? { env: callEnv } : {}),
    }),
  );
const needingAHand = async () =>
  answerOf<OpsWechatRefund[]>(await origin.call("/api/ops/wechat-refunds", { method: "GET", headers: finance.auth }));
const story = async (orderId: string) =>
  (await answerOf<OrderStory>(await origin.call(`/api/ops/orders/${orderId}`, { method: "GET", headers: finance.auth }))).data;
/** The audit rows of what moved refunds' money (asking WeChat Pay, which parks them, is audited too). */
const audited = async () =>
  (
    await env.DB.prepare("SELECT action, before, after FROM audit_log WHERE action LIKE 'refund.%' ORDER BY id").all<{
      action: string;
      before: string;
      after: string;
    }>()
  ).results;
const coveredBalance = async () =>
  (await env.DB.prepare("SELECT available FROM account WHERE id = 'acc_paydesk_covered'").first<number>("available")) ?? NaN;
const statement = async () =>
  (
    await answerOf<{ entries: { kind: string; amount: number; orderId: string | null; receipt: { kind: string; id: string } | null }[] }>(
      await origin.call("/api/wallet/entries", { method: "GET", headers: alice.auth }),
    )
  ).data.entries;

/** Finance asks to refund `amount` of the order (`threshold`: the deploy's REFUND_APPROVAL_THRESHOLD for this request). */
const askRefund = async (orderId: string, amount: number, { threshold }: { threshold?: number } = {}) =>
  answerOf<{ id: string; status: string; wechat: { outRefundNo: string } | null }>(
    await origin.call(`/api/ops/orders/${orderId}/refunds`, {
      body: { amount, reason: "The customer asked, ticket 42." },
      headers: { ...finance.auth, "Idempotency-Key": `rf-${crypto.randomUUID()}` },
      ...(threshold === undefined ? {} : { env: { ...origin.env, REFUND_APPROVAL_THRESHOLD: String(threshold) } }),
    }),
  );

/** The refund's receipt as the person reads it. */
const receipt = async (id: string) =>
  (await answerOf<Receipt>(await origin.call(`/api/receipts/refund/${id}`, { method: "GET", headers: alice.auth }))).data;

/**
 * WeChat Pay ends the refund `status` for `refunded` fen, not the amount asked. Its notification
 * is refused; asked about (as the cron asks, here by an operator), the refund is parked.
 */
async function endsForAnotherAmount(
  { orderId, outTradeNo, outRefundNo }: { orderId: string; outTradeNo: string; outRefundNo: string },
  status: "SUCCESS" | "ABNORMAL",
  refunded: number,
) {
  expect((await control(`/refunds/${outRefundNo}/complete`, { status, refund: refunded })).status).toBe(200);
  await deliverNotifications();
  expect((await replay(origin, await recordedNotification(outTradeNo, `REFUND.${status}`))).status).toBe(422);
  const asked = await origin.call(`/api/ops/orders/${orderId}/ask-wechat-pay`, { body: {}, headers: finance.auth });
  expect(asked.status).toBe(200);
  expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, parked: true }] });
}

describe("a parked refund WeChat Pay paid out for less than asked", () => {
  it("books the payout as money out and the rest to the owner's wallet, once, audited; the person sees it", async () => {
    const late = await lateRechargeRefund(800);
    const { orderId, outTradeNo, outRefundNo } = late;
    await endsForAnotherAmount(late, "SUCCESS", 500);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "processing" });
    const world = await worldBalance();

    const key = `sp-${crypto.randomUUID()}`;
    const settled = await settleParked(outRefundNo, { key });
    expect(settled).toMatchObject({
      status: 200,
      data: {
        outRefundNo,
        orderId,
        amount: 800,
        status: "succeeded",
        parked: false,
        returned: null,
        otherAmount: { refunded: 500, reason },
      },
    });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(world + 500);
    expect(await balanceOf(alice.id)).toEqual({ available: 300, held: 0 });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await audited()).toEqual([
      {
        action: "refund.settle_other_amount",
        before: JSON.stringify({ refund: outRefundNo, status: "processing", asked: 800 }),
        after: JSON.stringify({ refund: outRefundNo, refunded: 500, toWallet: 300, borne: 0, wallet: alice.id }),
      },
    ]);
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect((await story(orderId)).refunds[0]).toMatchObject({
      status: "succeeded",
      otherAmount: { refunded: 500, by: { handle: "op_finance" } },
    });
    // The rest is a refund line of the wallet, naming its order and the refund's receipt.
    expect((await statement())[0]).toMatchObject({ kind: "refund", amount: 300, orderId, receipt: { kind: "refund", id: outRefundNo } });
    // The order and the receipt say where it went: 5.00 through WeChat Pay, 3.00 to the wallet.
    expect((await orderDetail(orderId)).payments[0]).toMatchObject({ refund: { status: "succeeded", amount: 800, wechatPaidOut: 500 } });
    expect(await receipt(outRefundNo)).toMatchObject({ status: "succeeded", amount: 800, wechatPaidOut: 500 });

    // The same request replays its answer; another is refused: nothing moves twice.
    expect(await settleParked(outRefundNo, { key })).toEqual(settled);
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_PARKED" });
    // What WeChat Pay says of it later moves nothing: its state is final. Its notification of
    // the payout, refused while parked, is now received: WeChat Pay stops sending it.
    await applyRefundResult(env.DB, outRefundNo, { status: "SUCCESS", out_refund_no: outRefundNo, amount: { refund: 500 } }, origin.now());
    expect((await replay(origin, await recordedNotification(outTradeNo, "REFUND.SUCCESS"))).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 300, held: 0 });
    expect(await worldBalance()).toBe(world + 500);
    await expectLedgerWhole();
  });
});

describe("a parked refund WeChat Pay paid out for more than asked", () => {
  it("books the whole payout as money out, the difference borne by Paydesk; the wallet is not touched", async () => {
    const order = await rechargeOrder(3_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    const made = await askRefund(order.id, 1_200);
    expect(made.status).toBe(201);
    const outRefundNo = made.data.wechat?.outRefundNo ?? "";
    expect(await balanceOf(alice.id)).toEqual({ available: 1_800, held: 0 });
    await endsForAnotherAmount({ orderId: order.id, outTradeNo, outRefundNo }, "SUCCESS", 1_500);
    const world = await worldBalance();

    expect(await receipt(made.data.id)).toMatchObject({ status: "pending", wechatPaidOut: null });
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 200, data: { amount: 1_200, otherAmount: { refunded: 1_500 } } });
    expect((await orderDetail(order.id)).refunds).toEqual([
      expect.objectContaining({ amount: 1_200, status: "succeeded", wechatPaidOut: 1_500 }),
    ]);
    expect(await receipt(made.data.id)).toMatchObject({ status: "succeeded", amount: 1_200, wechatPaidOut: 1_500 });
    expect(await worldBalance()).toBe(world + 1_500);
    expect(await coveredBalance()).toBe(-300);
    expect(await clearingBalance()).toBe(0);
    expect(await balanceOf(alice.id)).toEqual({ available: 1_800, held: 0 });
    expect((await audited()).at(-1)).toMatchObject({
      action: "refund.settle_other_amount",
      after: JSON.stringify({ refund: outRefundNo, refunded: 1_500, toWallet: 0, borne: 300, wallet: alice.id }),
    });

    // What is left to refund counts the whole payout, as WeChat Pay does: 15.00, not 18.00.
    const refunds = await answerOf<{ payments: { paid: number; refundable: number }[] }>(
      await origin.call(`/api/ops/orders/${order.id}/refunds`, { method: "GET", headers: finance.auth }),
    );
    expect(refunds.data.payments).toEqual([expect.objectContaining({ paid: 3_000, refundable: 1_500 })]);
    expect(await askRefund(order.id, 1_501)).toMatchObject({ status: 422, code: "REFUND_EXCEEDS_PAYMENT", field: "amount" });
    // The database's own check counts it too, for a writer that skipped the route's.
    const payment = await env.DB.prepare("SELECT id FROM payment WHERE order_id = ?1 AND status = 'succeeded'")
      .bind(order.id)
      .first<string>("id");
    const insert = (amount: number) =>
      env.DB.prepare(
        `INSERT INTO refund_request (id, order_id, payment_id, method, amount, reason, status, requested_by, requested_at)
         VALUES (?1, ?2, ?3, 'wechat', ?4, 'direct', 'awaiting_approval', ?5, ?6)`,
      )
        .bind(`rfd_${crypto.randomUUID()}`, order.id, payment, amount, finance.id, origin.now())
        .run();
    await expect(insert(1_501)).rejects.toThrow(/refund_exceeds_payment/);
    expect((await askRefund(order.id, 1_500)).status).toBe(201);
    await expectLedgerWhole();
  });
});

describe("a refund waiting for a second operator while a parked one is settled for more", () => {
  it("is not approved past what is left (REFUND_EXCEEDS_PAYMENT, nothing moves); rejected, what is left is refunded", async () => {
    const checker = await seedOperator("op_checker", "finance", origin.now());
    const order = await rechargeOrder(3_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    const decide = async (id: string, decision: "approve" | "reject") =>
      answerOf(
        await origin.call(`/api/ops/refunds/${id}/${decision}`, {
          body: decision === "approve" ? {} : { reason: "WeChat Pay paid out more on the other refund." },
          headers: { ...checker.auth, "Idempotency-Key": `dc-${crypto.randomUUID()}` },
        }),
      );
    const made = await askRefund(order.id, 1_200);
    expect(made).toMatchObject({ status: 201, data: { status: "approved" } });
    const outRefundNo = made.data.wechat?.outRefundNo ?? "";
    // The rest of the payment, asked past the threshold: it waits for a second operator.
    const waiting = await askRefund(order.id, 1_800, { threshold: 1_000 });
    expect(waiting).toMatchObject({ status: 201, data: { status: "awaiting_approval" } });
    await endsForAnotherAmount({ orderId: order.id, outTradeNo, outRefundNo }, "SUCCESS", 1_500);
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 200, data: { otherAmount: { refunded: 1_500 } } });

    // WeChat Pay has paid out 15.00 of the 30.00: 18.00 more would be refused by it.
    expect(await decide(waiting.data.id, "approve")).toMatchObject({ status: 422, code: "REFUND_EXCEEDS_PAYMENT", field: "amount" });
    expect(await balanceOf(alice.id)).toEqual({ available: 1_800, held: 0 });
    expect(await clearingBalance()).toBe(0);
    expect(await decide(waiting.data.id, "reject")).toMatchObject({ status: 200, data: { status: "rejected" } });
    expect(await askRefund(order.id, 1_500)).toMatchObject({ status: 201, data: { status: "approved" } });
    await expectLedgerWhole();
  });
});

describe("a parked refund WeChat Pay reports failed", () => {
  it("returns the whole asked amount to the owner's wallet, as a failed refund's return, whatever amount it reported", async () => {
    const late = await lateRechargeRefund(800);
    const { orderId, outTradeNo, outRefundNo } = late;
    await endsForAnotherAmount(late, "ABNORMAL", 700);

    expect(await settleParked(outRefundNo)).toMatchObject({
      status: 200,
      data: {
        status: "abnormal",
        parked: false,
        otherAmount: null,
        returned: { to: { id: alice.id }, by: { handle: "op_finance" }, reason },
      },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 800, held: 0 });
    expect(await clearingBalance()).toBe(0);
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "abnormal" });
    expect(await audited()).toEqual([
      {
        action: "refund.return_to_wallet",
        // As it stood before: parked while WeChat Pay still had it under way.
        before: JSON.stringify({ refund: outRefundNo, status: "processing", parked: true, reported: 700 }),
        after: JSON.stringify({ refund: outRefundNo, wallet: alice.id, amount: 800 }),
      },
    ]);
    expect((await story(orderId)).refunds[0]).toMatchObject({ status: "abnormal", parked: false, returned: { reason } });
    expect((await statement())[0]).toMatchObject({ kind: "refund", amount: 800, orderId });
    expect((await orderDetail(orderId)).payments[0]).toMatchObject({ refund: { status: "returned" } });
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_PARKED" });
    await expectLedgerWhole();

    // Paid out at the merchant platform afterwards, for the amount WeChat Pay reports (7.00):
    // recorded with it, and the double payment is settled for it (decision 060).
    expect((await control(`/refunds/${outRefundNo}/pay-out-abnormal`, {})).status).toBe(200);
    await deliverNotifications();
    expect((await replay(origin, await recordedNotification(outTradeNo, "REFUND.SUCCESS"))).status).toBe(204);
    expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, returned: { lateSuccessAmount: 700, settled: null } }] });
    const world = await worldBalance();
    const settled = await origin.call(`/api/ops/wechat-refunds/${outRefundNo}/settle-paid-twice`, {
      body: { how: "take_back", reason: "She was paid 7.00 to her card as well; agreed on ticket 12." },
      headers: { ...finance.auth, "Idempotency-Key": `st-${crypto.randomUUID()}` },
    });
    expect(settled.status).toBe(200);
    expect(await balanceOf(alice.id)).toEqual({ available: 100, held: 0 });
    expect(await worldBalance()).toBe(world + 700);
    expect(await needingAHand()).toMatchObject({ data: [] });
    await expectLedgerWhole();
  });
});

describe("what is not settled", () => {
  it("a refund WeChat Pay still reports under way: REFUND_STILL_PROCESSING, nothing moves; for the asked amount, it is no longer parked and the cron follows it again", async () => {
    const { outRefundNo } = await lateRechargeRefund(600);
    // Reported for another amount (a notification, say) while WeChat Pay still holds it PROCESSING for 600.
    await applyRefundResult(env.DB, outRefundNo, { status: "PROCESSING", out_refund_no: outRefundNo, amount: { refund: 1 } }, origin.now());
    const schedule = () =>
      env.DB.prepare("SELECT status, parked_at IS NOT NULL AS parked, next_attempt_at FROM wechat_refund WHERE out_refund_no = ?1")
        .bind(outRefundNo)
        .first();
    expect(await schedule()).toEqual({ status: "processing", parked: 1, next_attempt_at: null });
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_STILL_PROCESSING" });
    expect(await schedule()).toEqual({ status: "processing", parked: 0, next_attempt_at: origin.now() });
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect(await clearingBalance()).toBe(600);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await audited()).toEqual([]);
    await expectLedgerWhole();
  });

  it("a refund WeChat Pay now reports done for the asked amount is booked as done: REFUND_NOT_PARKED, nothing else moves", async () => {
    const { outTradeNo, outRefundNo } = await lateRechargeRefund(600);
    await applyRefundResult(env.DB, outRefundNo, { status: "SUCCESS", out_refund_no: outRefundNo, amount: { refund: 1 } }, origin.now());
    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    const world = await worldBalance();
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_PARKED" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await worldBalance()).toBe(world + 600);
    expect(await clearingBalance()).toBe(0);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await audited()).toEqual([]);
    await expectLedgerWhole();
  });

  it("a payout that does not add up (more than the whole payment, or nothing): WECHAT_PAY_UNAVAILABLE, nothing moves", async () => {
    const late = await lateRechargeRefund(800);
    await endsForAnotherAmount(late, "SUCCESS", 500);
    const world = await worldBalance();
    // WeChat Pay's signed answer states a payout its payment of 8.00 could never make, then none at all.
    for (const refundAmount of [801, 0]) {
      await misreportNextRefundQuery(refundAmount);
      expect(await settleParked(late.outRefundNo), `${refundAmount}`).toMatchObject({ status: 503, code: "WECHAT_PAY_UNAVAILABLE" });
      expect(await clearingBalance()).toBe(800);
      expect(await worldBalance()).toBe(world);
      expect(await coveredBalance()).toBe(0);
      expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
      expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo: late.outRefundNo, parked: true }] });
    }
    expect(await audited()).toEqual([]);
    // Asked again with an answer that adds up, it is settled.
    expect(await settleParked(late.outRefundNo)).toMatchObject({ status: 200, data: { otherAmount: { refunded: 500 } } });
    await expectLedgerWhole();
  });

  it("a refund that is not parked: REFUND_NOT_PARKED, and WeChat Pay is not asked", async () => {
    const { outRefundNo } = await lateRechargeRefund(600);
    await control("/faults", { kind: "status", status: 503, path: "/v3/refund/domestic/refunds/", method: "GET" });
    expect(await settleParked(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_PARKED" });
    // The fault is still waiting: nothing asked.
    expect((await control<{ faults: unknown[] }>("/faults", undefined, "GET")).data.faults).toHaveLength(1);
    expect(await clearingBalance()).toBe(600);
  });

  it("no clear answer from WeChat Pay: WECHAT_PAY_UNAVAILABLE, nothing moves; not configured: WECHAT_PAY_NOT_CONFIGURED", async () => {
    const late = await lateRechargeRefund(500);
    const { outRefundNo } = late;
    await endsForAnotherAmount(late, "SUCCESS", 200);
    await control("/faults", { kind: "status", status: 503, path: "/v3/refund/domestic/refunds/", method: "GET" });
    const key = `sp-${crypto.randomUUID()}`;
    expect(await settleParked(outRefundNo, { key })).toMatchObject({ status: 503, code: "WECHAT_PAY_UNAVAILABLE" });
    expect(await settleParked(outRefundNo, { env: wechatTestEnv({ WECHATPAY_MCHID: undefined }) })).toMatchObject({
      status: 422,
      code: "WECHAT_PAY_NOT_CONFIGURED",
    });
    expect(await clearingBalance()).toBe(500);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect((await settleParked(outRefundNo, { key })).status).toBe(200);
    expect(await balanceOf(alice.id)).toEqual({ available: 300, held: 0 });
    await expectLedgerWhole();
  });

  it("two operators settling one refund at once settle it once", async () => {
    const late = await lateRechargeRefund(900);
    const { outRefundNo } = late;
    await endsForAnotherAmount(late, "SUCCESS", 100);
    const second = await seedOperator("op_finance_2", "finance", origin.now());
    const answers = await Promise.all([settleParked(outRefundNo), settleParked(outRefundNo, { by: second })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)).toMatchObject({ code: "REFUND_NOT_PARKED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 800, held: 0 });
    expect((await audited()).length).toBe(1);
    await expectLedgerWhole();
  });

  it("finance and admin only, never on one's own order; no reason or a malformed number is a 400 naming the field", async () => {
    const late = await lateRechargeRefund(300);
    const { outRefundNo } = late;
    await endsForAnotherAmount(late, "SUCCESS", 100);
    const support = await seedOperator("op_support", "support", origin.now());
    const nobody = await seedUser("nobody", origin.now());
    expect((await settleParked(outRefundNo, { by: support })).status).toBe(403);
    expect((await settleParked(outRefundNo, { by: nobody })).status).toBe(404);
    expect(await settleParked(`RF${"9".repeat(70)}`)).toMatchObject({ status: 400, field: "outRefundNo" });
    expect(await settleParked("RF404404404")).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(await settleParked(outRefundNo, { body: { reason: " \u200b " } })).toMatchObject({ status: 400, field: "reason" });
    await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'finance', 'cli', ?2)")
      .bind(alice.id, origin.now())
      .run();
    expect(await settleParked(outRefundNo, { by: alice })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    // The database refuses it as well (migration 0045).
    await expect(
      env.DB.prepare(
        "INSERT INTO wechat_refund_other_amount (out_refund_no, refunded, tx_id, user_id, reason, settled_by, settled_at) VALUES (?1, 100, 'tx_mine', ?2, 'Mine.', ?2, ?3)",
      )
        .bind(outRefundNo, alice.id, origin.now())
        .run(),
    ).rejects.toThrow(/not for the operator's own order/);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await audited()).toEqual([]);
  });
});

describe("the database and the ledger's checks", () => {
  it("write no settlement for a refund not parked, nor for the asked amount; and find one whose booking is wrong", async () => {
    const late = await lateRechargeRefund(500);
    const { outRefundNo } = late;
    const inTx =
      (await env.DB.prepare("SELECT in_tx_id FROM wechat_refund WHERE out_refund_no = ?1").bind(outRefundNo).first<string>("in_tx_id")) ??
      "";
    const insert = (refunded: number) =>
      env.DB.prepare(
        `INSERT INTO wechat_refund_other_amount (out_refund_no, refunded, tx_id, user_id, reason, settled_by, settled_at)
         VALUES (?1, ?2, ?3, ?4, 'x', ?5, 1)`,
      )
        .bind(outRefundNo, refunded, inTx, alice.id, finance.id)
        .run();
    await expect(insert(200)).rejects.toThrow(/the refund is not parked/);
    await endsForAnotherAmount(late, "SUCCESS", 200);
    await expect(insert(500)).rejects.toThrow(/the refund is not parked/);
    // A settlement whose transaction booked nothing of the kind (here, the refund's own way in),
    // with the refund marked done: what the ledger's checks find.
    await insert(200);
    await env.DB.prepare("UPDATE wechat_refund SET status = 'succeeded', out_tx_id = ?1 WHERE out_refund_no = ?2")
      .bind(inTx, outRefundNo)
      .run();
    expect((await ledgerViolations(env.DB)).map((violation) => violation.invariant)).toContainEqual(
      expect.stringMatching(/^each parked refund settled for another amount booked/),
    );
  });
});
