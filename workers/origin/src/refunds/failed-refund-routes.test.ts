import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OpsWechatRefund } from "#contract/ops-refunds";
import type { OrderStory } from "#contract/ops-orders";
import { balanceOf, beforeBatch, expectLedgerWhole, seedOperator, seedUser } from "../../test/origin-client";
import { recordedNotification, wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import {
  clearingBalance,
  control,
  deliverNotifications,
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

const returnToWallet = async (
  outRefundNo: string,
  { by = finance, key = `rt-${crypto.randomUUID()}`, env: callEnv }: { by?: SceneUser; key?: string; env?: Env } = {},
) =>
  answerOf<OpsWechatRefund>(
    await origin.call(`/api/ops/wechat-refunds/${outRefundNo}/return-to-wallet`, {
      body: { reason: "WeChat Pay could not refund her card; agreed by phone, ticket 7." },
      headers: { ...by.auth, "Idempotency-Key": key },
      ...(callEnv ? { env: callEnv } : {}),
    }),
  );
const needingAHand = async (by: SceneUser = finance) =>
  answerOf<OpsWechatRefund[]>(await origin.call("/api/ops/wechat-refunds", { method: "GET", headers: by.auth }));
const stuckCount = async () =>
  (
    await answerOf<{ pending: { wechatRefunds: number; wechatRefundsStuck: number } }>(
      await origin.call("/api/ops/overview", { method: "GET", headers: finance.auth }),
    )
  ).data.pending;
const story = async (orderId: string) =>
  (await answerOf<OrderStory>(await origin.call(`/api/ops/orders/${orderId}`, { method: "GET", headers: finance.auth }))).data;
const audited = async () =>
  (await env.DB.prepare("SELECT action, reason FROM audit_log ORDER BY id").all<{ action: string; reason: string | null }>()).results;

/** The same, with WeChat Pay ending the refund ABNORMAL or CLOSED and notifying it. */
async function failedRefund(amount: number, status: "ABNORMAL" | "CLOSED" = "ABNORMAL") {
  const late = await lateRechargeRefund(amount);
  expect((await control(`/refunds/${late.outRefundNo}/complete`, { status })).status).toBe(200);
  await deliverNotifications();
  expect((await replay(origin, await recordedNotification(late.outTradeNo, `REFUND.${status}`))).status).toBe(204);
  expect(await refundRow(late.outTradeNo)).toMatchObject({ status: status.toLowerCase() });
  return late;
}

describe("returning a failed WeChat Pay refund to the wallet", () => {
  it("moves its money from the clearing account to the order owner's wallet once, audited, and the person sees it", async () => {
    const { orderId, outRefundNo } = await failedRefund(900);
    expect(await stuckCount()).toMatchObject({ wechatRefunds: 0, wechatRefundsStuck: 1 });
    const listed = await needingAHand();
    expect(listed).toMatchObject({ status: 200, data: [{ outRefundNo, orderId, status: "abnormal", parked: false, returned: null }] });
    expect(listed.data[0]?.person).toEqual({ id: alice.id, handle: expect.any(String), displayName: expect.any(String) });
    const world = await worldBalance();

    const key = `rt-${crypto.randomUUID()}`;
    const returned = await returnToWallet(outRefundNo, { key });
    expect(returned).toMatchObject({
      status: 200,
      data: {
        outRefundNo,
        orderId,
        amount: 900,
        status: "abnormal",
        // Asked about again from an hour on (docs/decisions/071-returned-refunds-asked-again.md).
        returned: { to: { id: alice.id }, by: { handle: "op_finance" }, nextAskAt: new Date(origin.now() + 3_600_000).toISOString() },
      },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 900, held: 0 });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(world);
    await expectLedgerWhole();
    expect((await orderDetail(orderId)).payments[0]).toMatchObject({ status: "refunded", refund: { status: "returned", amount: 900 } });
    expect(await audited()).toEqual([
      { action: "refund.return_to_wallet", reason: "WeChat Pay could not refund her card; agreed by phone, ticket 7." },
    ]);
    expect((await story(orderId)).refunds[0]?.returned).toMatchObject({ to: { id: alice.id }, lateSuccessAt: null });
    // The wallet's statement names the order the money came back for.
    const entries = await answerOf<{ entries: { kind: string; amount: number; orderId: string | null }[] }>(
      await origin.call("/api/wallet/entries", { method: "GET", headers: alice.auth }),
    );
    expect(entries.data.entries[0]).toMatchObject({ kind: "refund", amount: 900, orderId });
    expect(await needingAHand()).toMatchObject({ status: 200, data: [] });
    expect(await stuckCount()).toMatchObject({ wechatRefunds: 0, wechatRefundsStuck: 0 });

    // The same request again replays its answer; another is refused: nothing moves twice.
    expect(await returnToWallet(outRefundNo, { key })).toEqual(returned);
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_RETURNED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 900, held: 0 });
    await expectLedgerWhole();
  });

  it("a CLOSED refund is returned too, and what WeChat Pay says of it later moves nothing: a late success is recorded and reported", async () => {
    const { orderId, outRefundNo } = await failedRefund(700, "CLOSED");
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    const world = await worldBalance();
    // WeChat Pay says CLOSED again, then (an operator paid it out at the merchant platform) SUCCESS.
    const now = origin.now();
    expect(await applyRefundResult(env.DB, outRefundNo, { status: "CLOSED", out_refund_no: outRefundNo }, now)).toBe("closed");
    const success = { status: "SUCCESS" as const, out_refund_no: outRefundNo, amount: { refund: 700 } };
    expect(await applyRefundResult(env.DB, outRefundNo, success, now)).toBe("closed");
    expect(await balanceOf(alice.id)).toEqual({ available: 700, held: 0 });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(world);
    expect((await story(orderId)).refunds[0]).toMatchObject({ status: "closed", returned: { lateSuccessAt: new Date(now).toISOString() } });
    // Paid twice: it needs a hand again.
    expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, returned: { lateSuccessAt: new Date(now).toISOString() } }] });
    expect(await stuckCount()).toMatchObject({ wechatRefundsStuck: 1 });
    await origin.advance(24 * 60 * 60_000);
    expect((await origin.cron()).wechat).toMatchObject({ refundsAdvanced: 0 });
    await expectLedgerWhole();
  });

  it("a refund WeChat Pay refused every time, and never made, is returned", async () => {
    // WeChat Pay refuses the refund itself, for good; after 12 refusals it is left for an operator.
    await control("/faults", { kind: "status", status: 400, code: "INVALID_REQUEST", path: "/v3/refund/domestic/refunds", times: 20 });
    const { outTradeNo, outRefundNo } = await lateRechargeRefund(500);
    await env.DB.prepare("UPDATE wechat_refund SET attempts = 11, next_attempt_at = ?1 WHERE out_refund_no = ?2")
      .bind(origin.now(), outRefundNo)
      .run();
    await origin.cron();
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "refused", attempts: 12 });
    await control("/faults", undefined, "DELETE");
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 0 });
    await expectLedgerWhole();
  });
});

describe("what is not returned", () => {
  it("a refund on its way, or parked for another amount: REFUND_NOT_FAILED, nothing moves; the parked one is listed", async () => {
    const { outRefundNo } = await lateRechargeRefund(800);
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await needingAHand()).toMatchObject({ data: [] });
    // WeChat Pay reports another amount: parked, listed as needing a hand, still not returned.
    await applyRefundResult(env.DB, outRefundNo, { status: "SUCCESS", out_refund_no: outRefundNo, amount: { refund: 1 } }, origin.now());
    expect(await needingAHand()).toMatchObject({
      data: [{ outRefundNo, status: "processing", parked: true, lastError: "WeChat Pay reports 1 fen refunded, not 800" }],
    });
    expect(await stuckCount()).toMatchObject({ wechatRefunds: 0, wechatRefundsStuck: 1 });
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(800);
    await expectLedgerWhole();
  });

  it("asks WeChat Pay first: a failed refund it now reports paid out is settled as paid, not returned", async () => {
    const { outTradeNo, outRefundNo } = await lateRechargeRefund(600);
    // Recorded as CLOSED here (say, from a notification), while WeChat Pay has since paid it out.
    await applyRefundResult(env.DB, outRefundNo, { status: "CLOSED", out_refund_no: outRefundNo }, origin.now());
    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it("a failed refund WeChat Pay now reports under way goes back to the cron", async () => {
    const { outTradeNo, outRefundNo } = await lateRechargeRefund(600);
    await applyRefundResult(env.DB, outRefundNo, { status: "ABNORMAL", out_refund_no: outRefundNo }, origin.now());
    // The simulator still holds it PROCESSING.
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "processing" });
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect(await clearingBalance()).toBe(600);
    await expectLedgerWhole();
  });

  it("no clear answer from WeChat Pay: WECHAT_PAY_UNAVAILABLE, nothing moves, and the same key can try again", async () => {
    const { outRefundNo } = await failedRefund(400);
    await control("/faults", { kind: "status", status: 503, path: "/v3/refund/domestic/refunds/", method: "GET" });
    const key = `rt-${crypto.randomUUID()}`;
    expect(await returnToWallet(outRefundNo, { key })).toMatchObject({ status: 503, code: "WECHAT_PAY_UNAVAILABLE" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect((await returnToWallet(outRefundNo, { key })).status).toBe(200);
    expect(await balanceOf(alice.id)).toEqual({ available: 400, held: 0 });
    await expectLedgerWhole();
  });

  it("two operators returning one refund at once return it once", async () => {
    const { outRefundNo } = await failedRefund(900);
    const second = await seedOperator("op_finance_2", "finance", origin.now());
    const answers = await Promise.all([returnToWallet(outRefundNo), returnToWallet(outRefundNo, { by: second })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)).toMatchObject({ code: "REFUND_RETURNED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 900, held: 0 });
    expect((await audited()).length).toBe(1);
    await expectLedgerWhole();
  });

  it("finance and admin only: support hears 403, anyone else 404, and a malformed number 400", async () => {
    const { outRefundNo } = await failedRefund(300);
    const support = await seedOperator("op_support", "support", origin.now());
    const nobody = await seedUser("nobody", origin.now());
    expect((await returnToWallet(outRefundNo, { by: support })).status).toBe(403);
    expect((await needingAHand(support)).status).toBe(403);
    expect((await returnToWallet(outRefundNo, { by: nobody })).status).toBe(404);
    expect((await needingAHand(nobody)).status).toBe(404);
    expect(await returnToWallet(`RF${"9".repeat(70)}`)).toMatchObject({ status: 400, field: "outRefundNo" });
    expect(await returnToWallet("RF404404404")).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await audited()).toEqual([]);
  });

  it("a failed refund WeChat Pay reports with another amount is parked: listed, and never returned", async () => {
    const { outRefundNo } = await failedRefund(500);
    const other = { status: "ABNORMAL" as const, out_refund_no: outRefundNo, amount: { refund: 499 } };
    await applyRefundResult(env.DB, outRefundNo, other, origin.now());
    expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, status: "abnormal", parked: true }] });
    expect(await returnToWallet(outRefundNo)).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerWhole();
  });

  it("WeChat Pay not configured: it cannot be asked, so nothing is returned", async () => {
    const { outRefundNo } = await failedRefund(500);
    expect(await returnToWallet(outRefundNo, { env: wechatTestEnv({ WECHATPAY_MCHID: undefined }) })).toMatchObject({
      status: 422,
      code: "WECHAT_PAY_NOT_CONFIGURED",
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
  });
});

describe("the database's own guards", () => {
  it("a refund WeChat Pay pays out between the route's check and its batch is not returned: the batch refuses it", async () => {
    const { outTradeNo, outRefundNo } = await failedRefund(900);
    const success = { status: "SUCCESS" as const, out_refund_no: outRefundNo, amount: { refund: 900 } };
    // A notification's success lands just before the return's batch.
    const db = beforeBatch(1, () => applyRefundResult(env.DB, outRefundNo, success, origin.now()));
    expect(await returnToWallet(outRefundNo, { env: { ...origin.env, DB: db } })).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "succeeded" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(0);
    await expectLedgerWhole();
  });

  it("a refund parked for another amount while an operator returns it is not returned: REFUND_NOT_FAILED, nothing moves", async () => {
    const { outRefundNo } = await failedRefund(900);
    const other = { status: "ABNORMAL" as const, out_refund_no: outRefundNo, amount: { refund: 899 } };
    // Parked between the return's ask and its batch: the batch states that it is not (decision 070).
    const db = beforeBatch(1, () => applyRefundResult(env.DB, outRefundNo, other, origin.now()));
    expect(await returnToWallet(outRefundNo, { env: { ...origin.env, DB: db } })).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, status: "abnormal", parked: true }] });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await clearingBalance()).toBe(900);
    await expectLedgerWhole();
  });

  it("a success that lands while an operator returns the refund books nothing: the return is kept, the success recorded", async () => {
    const { orderId, outRefundNo } = await failedRefund(900);
    const world = await worldBalance();
    const success = { status: "SUCCESS" as const, out_refund_no: outRefundNo, amount: { refund: 900 } };
    // The return commits between the success's read of the refund and its batch.
    const db = beforeBatch(1, async () => expect((await returnToWallet(outRefundNo)).status).toBe(200));
    expect(await applyRefundResult(db, outRefundNo, success, origin.now())).toBe("abnormal");
    expect(await balanceOf(alice.id)).toEqual({ available: 900, held: 0 });
    expect(await clearingBalance()).toBe(0);
    expect(await worldBalance()).toBe(world);
    expect((await story(orderId)).refunds[0]?.returned?.lateSuccessAt).not.toBeNull();
    await expectLedgerWhole();
  });

  it("a return is kept as made: only a failed refund is returned, and its status, the return and a late success stay", async () => {
    const { outRefundNo } = await failedRefund(400, "CLOSED");
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    await expect(
      env.DB.prepare("UPDATE wechat_refund SET status = 'due' WHERE out_refund_no = ?1").bind(outRefundNo).run(),
    ).rejects.toThrow(/returned to a wallet does not change/);
    await expect(env.DB.prepare("DELETE FROM wechat_refund_return WHERE out_refund_no = ?1").bind(outRefundNo).run()).rejects.toThrow(
      /returns are kept/,
    );
    await env.DB.prepare("UPDATE wechat_refund_return SET late_success_at = 5 WHERE out_refund_no = ?1").bind(outRefundNo).run();
    await expect(
      env.DB.prepare("UPDATE wechat_refund_return SET late_success_at = NULL WHERE out_refund_no = ?1").bind(outRefundNo).run(),
    ).rejects.toThrow(/a return does not change/);

    // A refund under way, not failed: no return can be written, whoever writes it.
    const { outRefundNo: underWay } = await lateRechargeRefund(300);
    await expect(
      env.DB.prepare(
        "INSERT INTO wechat_refund_return (out_refund_no, tx_id, user_id, reason, returned_by, returned_at) VALUES (?1, 'tx_none', ?2, 'x', ?3, 1)",
      )
        .bind(underWay, alice.id, finance.id)
        .run(),
    ).rejects.toThrow(/the refund has not failed/);
    await expectLedgerWhole();
  });

  it("an automatic refund has its own receipt, linked from the order and the statement, from on its way to returned", async () => {
    const receipt = async (id: string, by: SceneUser = alice) =>
      answerOf<Record<string, unknown>>(await origin.call(`/api/receipts/refund/${id}`, { method: "GET", headers: by.auth }));
    const late = await lateRechargeRefund(700);
    expect((await orderDetail(late.orderId)).payments[0]?.refund).toEqual({
      id: late.outRefundNo,
      status: "pending",
      amount: 700,
      wechatPaidOut: null,
    });
    expect(await receipt(late.outRefundNo)).toMatchObject({
      status: 200,
      data: {
        kind: "refund",
        id: late.outRefundNo,
        status: "pending",
        amount: 700,
        method: "wechat",
        payer: null,
        order: { id: late.orderId },
      },
    });
    expect((await receipt(late.outRefundNo)).data.payee).toMatchObject({ handle: expect.any(String) });

    expect((await control(`/refunds/${late.outRefundNo}/complete`, { status: "ABNORMAL" })).status).toBe(200);
    await applyRefundResult(env.DB, late.outRefundNo, { status: "ABNORMAL", out_refund_no: late.outRefundNo }, origin.now());
    expect((await receipt(late.outRefundNo)).data.status).toBe("failed");
    expect((await returnToWallet(late.outRefundNo)).status).toBe(200);
    expect((await receipt(late.outRefundNo)).data.status).toBe("returned");
    const entries = await answerOf<{ entries: { kind: string; receipt: { kind: string; id: string } | null }[] }>(
      await origin.call("/api/wallet/entries", { method: "GET", headers: alice.auth }),
    );
    expect(entries.data.entries[0]).toMatchObject({ kind: "refund", receipt: { kind: "refund", id: late.outRefundNo } });
    // Nobody else's, as for every receipt: an operator reads it in the back office instead.
    expect(await receipt(late.outRefundNo, finance)).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });

  it("an operator's refund that failed and was returned: the person's order page and receipt say so", async () => {
    const order = await rechargeOrder(1_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    const made = await answerOf<{ id: string; wechat: { outRefundNo: string } }>(
      await origin.call(`/api/ops/orders/${order.id}/refunds`, {
        body: { amount: 1_000, reason: "Charged for nothing." },
        headers: { ...finance.auth, "Idempotency-Key": `rf-${crypto.randomUUID()}` },
      }),
    );
    const outRefundNo = made.data.wechat.outRefundNo;
    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "ABNORMAL" })).status).toBe(200);
    await applyRefundResult(env.DB, outRefundNo, { status: "ABNORMAL", out_refund_no: outRefundNo }, origin.now());
    expect((await orderDetail(order.id)).refunds[0]?.status).toBe("failed");
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    expect((await orderDetail(order.id)).refunds[0]?.status).toBe("returned");
    const receipt = await answerOf<{ status: string }>(
      await origin.call(`/api/receipts/refund/${made.data.id}`, { method: "GET", headers: alice.auth }),
    );
    expect(receipt).toMatchObject({ status: 200, data: { status: "returned" } });
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    await expectLedgerWhole();
  });
});

// docs/decisions/060-refunds-paid-twice.md
describe("settling a refund paid twice", () => {
  const coveredBalance = async () =>
    (await env.DB.prepare("SELECT available FROM account WHERE id = 'acc_paydesk_covered'").first<number>("available")) ?? NaN;
  const settle = async (
    outRefundNo: string,
    how: string,
    { by = finance, key = `st-${crypto.randomUUID()}`, db }: { by?: SceneUser; key?: string; db?: D1Database } = {},
  ) =>
    answerOf<OpsWechatRefund>(
      await origin.call(`/api/ops/wechat-refunds/${outRefundNo}/settle-paid-twice`, {
        body: { how, reason: "Her bank paid her as well; agreed on ticket 12." },
        headers: { ...by.auth, "Idempotency-Key": key },
        ...(db ? { env: { ...origin.env, DB: db } } : {}),
      }),
    );
  const transfer = (from: { auth: Record<string, string> }, toHandle: string, amount: number) =>
    origin.call("/api/transfers", {
      body: { toHandle, amount },
      headers: { ...from.auth, "Idempotency-Key": `tr-${crypto.randomUUID()}` },
    });

  const payOutAtMerchantPlatform = (outRefundNo: string, by: SceneUser = finance) =>
    origin.call(`/api/payments/wechat/simulator/merchant-platform/refunds/${outRefundNo}/pay-out`, { body: {}, headers: by.auth });

  /**
   * A failed refund of `amount` returned to Alice's wallet, then paid out as well by someone at
   * WeChat Pay's merchant platform (the simulator's stand-in), whose success WeChat Pay notifies.
   */
  async function paidTwice(amount: number) {
    const failed = await failedRefund(amount);
    expect((await returnToWallet(failed.outRefundNo)).status).toBe(200);
    expect((await payOutAtMerchantPlatform(failed.outRefundNo)).status).toBe(200);
    await deliverNotifications();
    expect((await replay(origin, await recordedNotification(failed.outTradeNo, "REFUND.SUCCESS"))).status).toBe(204);
    // Listed again, with where WeChat Pay says the money went.
    expect(await needingAHand()).toMatchObject({
      data: [{ outRefundNo: failed.outRefundNo, returned: { lateSuccessAccount: "招商银行借记卡0403", settled: null } }],
    });
    return failed;
  }

  it("the merchant platform's stand-in pays out only an abnormal refund, for finance", async () => {
    const { outRefundNo } = await lateRechargeRefund(300);
    expect(await answerOf(await payOutAtMerchantPlatform(outRefundNo))).toMatchObject({ status: 409, code: "REFUND_NOT_FAILED" });
    expect(await answerOf(await payOutAtMerchantPlatform("RF404404404"))).toMatchObject({ status: 404 });
    const support = await seedOperator("op_support", "support", origin.now());
    expect((await payOutAtMerchantPlatform(outRefundNo, support)).status).toBe(403);
    expect((await payOutAtMerchantPlatform(outRefundNo, alice)).status).toBe(404);
  });

  it("take back: WeChat Pay's payout leaves the wallet the money was returned to, once, audited; the list lets it go; the statement shows it", async () => {
    const { orderId, outRefundNo } = await paidTwice(700);
    const world = await worldBalance();
    const key = `st-${crypto.randomUUID()}`;
    const settled = await settle(outRefundNo, "take_back", { key });
    expect(settled).toMatchObject({
      status: 200,
      data: { outRefundNo, returned: { to: { id: alice.id }, settled: { how: "take_back", by: { handle: "op_finance" } } } },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await worldBalance()).toBe(world + 700);
    expect(await clearingBalance()).toBe(0);
    expect(await coveredBalance()).toBe(0);
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect(await stuckCount()).toMatchObject({ wechatRefundsStuck: 0 });
    expect((await story(orderId)).refunds[0]?.returned?.settled).toMatchObject({
      how: "take_back",
      reason: expect.stringContaining("ticket 12"),
    });
    // Alice's order page: the refund reached her card, and no longer the wallet.
    expect((await orderDetail(orderId)).payments[0]).toMatchObject({ refund: { status: "succeeded", amount: 700 } });
    expect((await audited()).map((row) => row.action)).toEqual(["refund.return_to_wallet", "refund.settle_paid_twice"]);
    // The same request again is answered as before; another is refused, and nothing moves twice.
    expect(await settle(outRefundNo, "take_back", { key })).toEqual(settled);
    expect(await settle(outRefundNo, "bear")).toMatchObject({ status: 409, code: "REFUND_SETTLED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    // Alice's statement: the return in, the take back out, both naming the order.
    const entries = await answerOf<{ entries: { kind: string; amount: number; orderId: string | null }[] }>(
      await origin.call("/api/wallet/entries", { method: "GET", headers: alice.auth }),
    );
    expect(entries.data.entries.slice(0, 2)).toMatchObject([
      { kind: "refund", amount: -700, orderId, receipt: { kind: "refund", id: outRefundNo } },
      { kind: "refund", amount: 700, orderId, receipt: { kind: "refund", id: outRefundNo } },
    ]);
    await expectLedgerWhole();
  });

  it("to Paydesk's own account: nothing is booked, the person keeps what was returned, and the list lets it go", async () => {
    const { orderId, outRefundNo } = await paidTwice(400);
    const world = await worldBalance();
    expect(await settle(outRefundNo, "to_paydesk")).toMatchObject({ status: 200, data: { returned: { settled: { how: "to_paydesk" } } } });
    expect(await balanceOf(alice.id)).toEqual({ available: 400, held: 0 });
    expect(await worldBalance()).toBe(world);
    expect(await coveredBalance()).toBe(0);
    expect(
      await env.DB.prepare("SELECT tx_id FROM wechat_refund_settlement WHERE out_refund_no = ?1").bind(outRefundNo).first("tx_id"),
    ).toBeNull();
    expect(await needingAHand()).toMatchObject({ data: [] });
    expect((await orderDetail(orderId)).payments[0]).toMatchObject({ refund: { status: "returned" } });
    await expectLedgerWhole();
  });

  it("never on the operator's own order: NOT_FOR_YOURSELF, for the return and the settlement alike", async () => {
    const { outRefundNo, outTradeNo } = await failedRefund(300);
    await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'finance', 'cli', ?2)")
      .bind(alice.id, origin.now())
      .run();
    expect(await returnToWallet(outRefundNo, { by: alice })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    // The database refuses it too (migration 0043), whatever route would write it, and whichever
    // wallet it would name.
    for (const wallet of [alice.id, finance.id]) {
      await expect(
        env.DB.prepare(
          "INSERT INTO wechat_refund_return (out_refund_no, tx_id, user_id, reason, returned_by, returned_at) VALUES (?1, 'tx_mine', ?2, 'Mine.', ?3, ?4)",
        )
          .bind(outRefundNo, wallet, alice.id, origin.now())
          .run(),
      ).rejects.toThrow(/not for the operator's own order/);
    }
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    expect((await payOutAtMerchantPlatform(outRefundNo)).status).toBe(200);
    await deliverNotifications();
    expect((await replay(origin, await recordedNotification(outTradeNo, "REFUND.SUCCESS"))).status).toBe(204);
    for (const how of ["bear", "take_back", "to_paydesk"]) {
      expect(await settle(outRefundNo, how, { by: alice })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    }
    await expect(
      env.DB.prepare(
        "INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at) VALUES (?1, 'to_paydesk', NULL, 'Mine.', ?2, ?3)",
      )
        .bind(outRefundNo, alice.id, origin.now())
        .run(),
    ).rejects.toThrow(/not for the operator's own order/);
    expect(await coveredBalance()).toBe(0);
    expect((await settle(outRefundNo, "bear")).status).toBe(200);
  });

  it("a settlement racing another, or an operator demoted meanwhile: refused in the batch, nothing moves twice", async () => {
    const { outRefundNo } = await paidTwice(500);
    const second = await seedOperator("op_finance_2", "finance", origin.now());
    // Another operator settles between this request's read and its batch: the primary key refuses it.
    const raced = await settle(outRefundNo, "bear", { db: beforeBatch(1, () => settle(outRefundNo, "take_back", { by: second })) });
    expect(raced).toMatchObject({ status: 409, code: "REFUND_SETTLED" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await coveredBalance()).toBe(0);
    // Demoted while another settles it too: 403, the audit row's, before the primary key's 409.
    const { outRefundNo: other } = await paidTwice(200);
    const demoted = await settle(other, "bear", {
      db: beforeBatch(1, async () => {
        expect((await settle(other, "to_paydesk", { by: second })).status).toBe(200);
        await env.DB.prepare("UPDATE operator_role SET role = 'support' WHERE user_id = ?1").bind(finance.id).run();
      }),
    });
    expect(demoted).toMatchObject({ status: 403, code: "FORBIDDEN" });
    expect(await coveredBalance()).toBe(0);
    await env.DB.prepare("UPDATE operator_role SET role = 'finance' WHERE user_id = ?1").bind(finance.id).run();
    // The return's row comes first too: demoted while another returns it, 403 rather than 409.
    const { outRefundNo: failed } = await failedRefund(300);
    const returned = await returnToWallet(failed, {
      env: {
        ...origin.env,
        DB: beforeBatch(1, async () => {
          expect((await returnToWallet(failed, { by: second })).status).toBe(200);
          await env.DB.prepare("UPDATE operator_role SET role = 'support' WHERE user_id = ?1").bind(finance.id).run();
        }),
      },
    });
    expect(returned).toMatchObject({ status: 403, code: "FORBIDDEN" });
    await expectLedgerWhole();
  });

  it("a success WeChat Pay reports for another amount, after the return, is no double payment: not recorded; a repeated one is recorded once", async () => {
    const { outRefundNo } = await failedRefund(600);
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    const now = origin.now();
    await applyRefundResult(env.DB, outRefundNo, { status: "SUCCESS", out_refund_no: outRefundNo, amount: { refund: 599 } }, now);
    expect(await needingAHand()).toMatchObject({ data: [] });
    const success = {
      status: "SUCCESS" as const,
      out_refund_no: outRefundNo,
      amount: { refund: 600 },
      user_received_account: "支付用户零钱",
    };
    await applyRefundResult(env.DB, outRefundNo, success, now);
    await applyRefundResult(env.DB, outRefundNo, { ...success, user_received_account: "商户基本账户" }, now + 1000);
    expect(await needingAHand()).toMatchObject({
      data: [{ outRefundNo, returned: { lateSuccessAt: new Date(now).toISOString(), lateSuccessAccount: "支付用户零钱" } }],
    });
  });

  it("bear: Paydesk's own money covers the payout, the wallet keeps what was returned, and money in less money out stays what the wallets hold", async () => {
    const { outRefundNo } = await paidTwice(500);
    const world = await worldBalance();
    expect(await settle(outRefundNo, "bear")).toMatchObject({ status: 200, data: { returned: { settled: { how: "bear" } } } });
    expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 0 });
    expect(await worldBalance()).toBe(world + 500);
    expect(await coveredBalance()).toBe(-500);
    const outside = await env.DB.prepare("SELECT sum(available + held) AS total FROM account WHERE kind = 'world'").first<number>("total");
    expect(outside).toBe(world);
    // The overview shows what Paydesk bore beside the world account.
    const overview = await answerOf<{ money: { world: number; paydeskCovered: number } }>(
      await origin.call("/api/ops/overview", { method: "GET", headers: finance.auth }),
    );
    expect(overview.data.money).toMatchObject({ world: world + 500, paydeskCovered: 500 });
    expect(await needingAHand()).toMatchObject({ data: [] });
    await expectLedgerWhole();
  });

  it("a take back larger than the wallet's available balance moves nothing, and the same request succeeds once the wallet holds enough", async () => {
    const { outRefundNo } = await paidTwice(800);
    const bob = await seedUser("bob_payee", origin.now());
    expect((await transfer(alice, "bob_payee", 300)).status).toBe(201);
    const key = `st-${crypto.randomUUID()}`;
    expect(await settle(outRefundNo, "take_back", { key })).toMatchObject({
      status: 422,
      code: "TAKE_BACK_EXCEEDS_BALANCE",
      field: "how",
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 0 });
    expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo }] });
    expect((await transfer(bob, "alice", 300)).status).toBe(201);
    expect(await settle(outRefundNo, "take_back", { key })).toMatchObject({ status: 200 });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    await expectLedgerWhole();
  });

  it("a locked account's money stays where it is: WALLET_LOCKED for a take back; Paydesk may bear it", async () => {
    const { outRefundNo } = await paidTwice(600);
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), alice.id).run();
    expect(await settle(outRefundNo, "take_back")).toMatchObject({ status: 409, code: "WALLET_LOCKED", field: "how" });
    expect(await balanceOf(alice.id)).toEqual({ available: 600, held: 0 });
    expect(await settle(outRefundNo, "bear")).toMatchObject({ status: 200 });
    await expectLedgerWhole();
  });

  it("only a refund paid twice: a returned one WeChat Pay did not pay out, and a failed one not returned, are refused; a bad body names its field", async () => {
    const { outRefundNo } = await failedRefund(400);
    expect(await settle(outRefundNo, "bear")).toMatchObject({ status: 409, code: "REFUND_NOT_PAID_TWICE" });
    expect((await returnToWallet(outRefundNo)).status).toBe(200);
    expect(await settle(outRefundNo, "bear")).toMatchObject({ status: 409, code: "REFUND_NOT_PAID_TWICE" });
    expect(await settle(outRefundNo, "forgive")).toMatchObject({ status: 400, field: "how" });
    expect(await settle("RF404404404", "bear")).toMatchObject({ status: 404, code: "NOT_FOUND" });
    const support = await seedOperator("op_support", "support", origin.now());
    expect((await settle(outRefundNo, "bear", { by: support })).status).toBe(403);
    expect(await coveredBalance()).toBe(0);
    expect((await audited()).map((row) => row.action)).toEqual(["refund.return_to_wallet"]);
    await expectLedgerWhole();
  });

  it("two operators settling one refund at once settle it once", async () => {
    const { outRefundNo } = await paidTwice(900);
    const second = await seedOperator("op_finance_2", "finance", origin.now());
    const answers = await Promise.all([settle(outRefundNo, "take_back"), settle(outRefundNo, "bear", { by: second })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)).toMatchObject({ code: "REFUND_SETTLED" });
    const taken = (await balanceOf(alice.id)).available === 0;
    expect(await coveredBalance()).toBe(taken ? 0 : -900);
    expect((await audited()).filter((row) => row.action === "refund.settle_paid_twice")).toHaveLength(1);
    await expectLedgerWhole();
  });

  it("the database keeps a settlement as made, and writes none for a refund not paid twice, whoever writes it", async () => {
    const { outRefundNo } = await paidTwice(300);
    expect((await settle(outRefundNo, "bear")).status).toBe(200);
    await expect(
      env.DB.prepare("UPDATE wechat_refund_settlement SET how = 'take_back' WHERE out_refund_no = ?1").bind(outRefundNo).run(),
    ).rejects.toThrow(/a settlement does not change/);
    await expect(env.DB.prepare("DELETE FROM wechat_refund_settlement WHERE out_refund_no = ?1").bind(outRefundNo).run()).rejects.toThrow(
      /settlements are kept/,
    );
    const { outRefundNo: onlyReturned } = await failedRefund(200);
    expect((await returnToWallet(onlyReturned)).status).toBe(200);
    await expect(
      env.DB.prepare(
        `INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at)
         SELECT ?1, 'bear', tx_id, 'x', ?2, 1 FROM wechat_refund_return WHERE out_refund_no = ?1`,
      )
        .bind(onlyReturned, finance.id)
        .run(),
    ).rejects.toThrow(/was not paid twice/);
    // A settlement naming a transaction that booked nothing out (here, the refund's own return)
    // is what the ledger's invariants find.
    const { outRefundNo: misbooked } = await paidTwice(250);
    await env.DB.prepare(
      `INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at)
       SELECT ?1, 'bear', tx_id, 'x', ?2, 1 FROM wechat_refund_return WHERE out_refund_no = ?1`,
    )
      .bind(misbooked, finance.id)
      .run();
    expect((await ledgerViolations(env.DB)).map((violation) => violation.invariant)).toEqual([
      expect.stringMatching(/^each refund paid twice and settled booked exactly what WeChat Pay paid out late/),
    ]);
  });

  it("the invariant also finds a settlement whose booking has the right amounts but is not one refund transaction of two entries", async () => {
    const { outRefundNo } = await paidTwice(250);
    // A transfer-kind transaction moving exactly the amount from Paydesk's covered account to the world.
    const txId = `tx_${crypto.randomUUID()}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES (?1, 'transfer', ?2)").bind(txId, origin.now()),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?1, 'acc_paydesk_covered', 'available', -250)").bind(
        txId,
      ),
      env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?1, 'acc_world', 'available', 250)").bind(txId),
      env.DB.prepare("INSERT INTO tx_seal (tx_id) VALUES (?1)").bind(txId),
      env.DB.prepare(
        `INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at)
         VALUES (?1, 'bear', ?2, 'x', ?3, 1)`,
      ).bind(outRefundNo, txId, finance.id),
    ]);
    const violated = async () => (await ledgerViolations(env.DB)).map((violation) => violation.invariant);
    expect(await violated()).toContainEqual(expect.stringMatching(/^each refund paid twice and settled booked/));
  });

  describe("past the threshold, a second operator (decision 072)", () => {
    let second: SceneUser;
    beforeEach(async () => {
      // Payouts of ¥5.00 and more wait: Paydesk bearing one, or finding it paid to its own account.
      origin.env.REFUND_APPROVAL_THRESHOLD = "400";
      second = await seedOperator("op_finance_2", "finance", origin.now());
      await origin.advance(1000);
    });
    const decide = async (
      id: string,
      decision: "approve" | "reject",
      { by = second, key = `dc-${crypto.randomUUID()}`, body, db }: { by?: SceneUser; key?: string; body?: unknown; db?: D1Database } = {},
    ) =>
      answerOf<OpsWechatRefund>(
        await origin.call(`/api/ops/wechat-refund-settlements/${id}/${decision}`, {
          body: body ?? (decision === "approve" ? { note: "Checked the merchant platform." } : { reason: "She agreed to give it back." }),
          headers: { ...by.auth, "Idempotency-Key": key },
          ...(db ? { env: { ...origin.env, DB: db } } : {}),
        }),
      );
    const waitingForYou = async (by: SceneUser) =>
      (
        await answerOf<{ awaitingYou: { refunds: number; refundSettlements: number } }>(
          await origin.call("/api/ops/me", { method: "GET", headers: by.auth }),
        )
      ).data.awaitingYou;
    const requestOf = (answer: Answer<OpsWechatRefund>) => answer.data.returned?.settlementRequest;

    it("bearing it waits: nothing is booked until another finance operator approves, then it is settled as asked, once, audited", async () => {
      const { outRefundNo, orderId } = await paidTwice(500);
      const world = await worldBalance();
      const asked = await settle(outRefundNo, "bear");
      expect(asked).toMatchObject({
        status: 201,
        data: {
          returned: {
            settled: null,
            settlementRequest: {
              how: "bear",
              amount: 500,
              status: "awaiting_approval",
              requestedBy: { handle: "op_finance" },
              yoursToDecide: false,
            },
          },
        },
      });
      const id = requestOf(asked)?.id ?? "";
      expect(await coveredBalance()).toBe(0);
      expect(await worldBalance()).toBe(world);
      // Still listed, and the second operator's to decide: the list, the order page and the navigation say so.
      expect(await needingAHand()).toMatchObject({
        data: [{ outRefundNo, returned: { settlementRequest: { id, yoursToDecide: false } } }],
      });
      expect(await needingAHand(second)).toMatchObject({ data: [{ returned: { settlementRequest: { id, yoursToDecide: true } } }] });
      expect(await waitingForYou(second)).toMatchObject({ refundSettlements: 1 });
      expect(await waitingForYou(finance)).toMatchObject({ refundSettlements: 0 });
      // While it waits, nothing else settles it, and whoever asked does not decide.
      expect(await settle(outRefundNo, "take_back")).toMatchObject({ status: 409, code: "SETTLEMENT_AWAITING" });
      expect(await settle(outRefundNo, "to_paydesk", { by: second })).toMatchObject({ status: 409, code: "SETTLEMENT_AWAITING" });
      expect(await decide(id, "approve", { by: finance })).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });

      const key = `dc-${crypto.randomUUID()}`;
      const approved = await decide(id, "approve", { key });
      expect(approved).toMatchObject({
        status: 200,
        data: {
          returned: {
            settled: { how: "bear", by: { handle: "op_finance" }, approvedBy: { handle: "op_finance_2" } },
            settlementRequest: {
              status: "approved",
              decidedBy: { handle: "op_finance_2" },
              decisionNote: "Checked the merchant platform.",
            },
          },
        },
      });
      expect(await coveredBalance()).toBe(-500);
      expect(await worldBalance()).toBe(world + 500);
      expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 0 });
      // Replayed under its key, the same answer; decided again, refused; and it leaves the list.
      expect((await decide(id, "approve", { key })).data).toEqual(approved.data);
      expect(await decide(id, "reject")).toMatchObject({ status: 409, code: "SETTLEMENT_REQUEST_DECIDED" });
      expect(await needingAHand()).toMatchObject({ data: [] });
      expect(await waitingForYou(second)).toMatchObject({ refundSettlements: 0 });
      const [refund] = (await story(orderId)).refunds;
      expect(refund?.returned?.settled).toMatchObject({
        how: "bear",
        by: { handle: "op_finance" },
        approvedBy: { handle: "op_finance_2" },
      });
      expect((await audited()).map((row) => row.action)).toEqual(
        expect.arrayContaining(["refund.request_settlement", "refund.approve_settlement"]),
      );
      expect((await audited()).filter((row) => row.action === "refund.settle_paid_twice")).toHaveLength(0);
      await expectLedgerWhole();
    });

    it("rejected, nothing moves and it is settled again; within the threshold nothing waits, and a take back never does", async () => {
      const { outRefundNo } = await paidTwice(500);
      const asked = await settle(outRefundNo, "to_paydesk");
      expect(asked).toMatchObject({
        status: 201,
        data: { returned: { settlementRequest: { how: "to_paydesk", status: "awaiting_approval" } } },
      });
      const id = requestOf(asked)?.id ?? "";
      expect(await decide(id, "reject", { body: {} })).toMatchObject({ status: 400, field: "reason" });
      expect(await decide(id, "reject")).toMatchObject({
        status: 200,
        data: { returned: { settled: null, settlementRequest: { status: "rejected", decisionNote: "She agreed to give it back." } } },
      });
      expect(await needingAHand()).toMatchObject({ data: [{ outRefundNo, returned: { settlementRequest: { status: "rejected" } } }] });
      expect(await settle(outRefundNo, "take_back")).toMatchObject({
        status: 200,
        data: { returned: { settled: { how: "take_back", approvedBy: null } } },
      });
      expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
      expect(await coveredBalance()).toBe(0);

      const { outRefundNo: small } = await paidTwice(400);
      expect(await settle(small, "bear")).toMatchObject({
        status: 200,
        data: { returned: { settled: { how: "bear" }, settlementRequest: null } },
      });
      expect(await coveredBalance()).toBe(-400);
      await expectLedgerWhole();
    });

    it("whoever asked withdraws it before anyone decides: nothing moves, it is settled again; nobody else withdraws it", async () => {
      const { outRefundNo } = await paidTwice(500);
      const id = requestOf(await settle(outRefundNo, "bear"))?.id ?? "";
      const withdraw = async (by: SceneUser, key = `wd-${crypto.randomUUID()}`) =>
        answerOf<OpsWechatRefund>(
          await origin.call(`/api/ops/wechat-refund-settlements/${id}/withdraw`, {
            body: {},
            headers: { ...by.auth, "Idempotency-Key": key },
          }),
        );
      expect(await withdraw(second)).toMatchObject({ status: 403, code: "REQUESTER_REQUIRED" });
      const key = `wd-${crypto.randomUUID()}`;
      const withdrawn = await withdraw(finance, key);
      expect(withdrawn).toMatchObject({
        status: 200,
        data: { returned: { settled: null, settlementRequest: { status: "withdrawn", decidedBy: { handle: "op_finance" } } } },
      });
      expect((await withdraw(finance, key)).data).toEqual(withdrawn.data);
      expect(await withdraw(finance)).toMatchObject({ status: 409, code: "SETTLEMENT_REQUEST_DECIDED" });
      expect(await decide(id, "approve")).toMatchObject({ status: 409, code: "SETTLEMENT_REQUEST_DECIDED" });
      expect(await waitingForYou(second)).toMatchObject({ refundSettlements: 0 });
      expect(await coveredBalance()).toBe(0);
      expect((await audited()).map((row) => row.action)).toContain("refund.withdraw_settlement");
      // Settled again, the answer still names the newest request, the withdrawn one.
      expect(await settle(outRefundNo, "take_back")).toMatchObject({
        status: 200,
        data: { returned: { settled: { how: "take_back" }, settlementRequest: { id, status: "withdrawn" } } },
      });
      await expect(
        env.DB.prepare("UPDATE wechat_refund_settlement_request SET status = 'withdrawn', decided_by = ?1, decided_at = 2 WHERE id = ?2")
          .bind(second.id, requestOf(await settle((await paidTwice(450)).outRefundNo, "bear"))?.id ?? "")
          .run(),
      ).rejects.toThrow(/CHECK constraint failed/);
      await expectLedgerWhole();
    });

    it("who decides: not whoever asked, not the order's owner, not one holding the role only since, not support", async () => {
      const { outRefundNo } = await paidTwice(600);
      const id = requestOf(await settle(outRefundNo, "bear"))?.id ?? "";
      const newcomer = await seedOperator("op_finance_new", "finance", origin.now() + 1);
      expect(await decide(id, "approve", { by: newcomer })).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
      // The order's owner, a finance operator since before: the refund's money is theirs.
      await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'finance', 'cli', 0)")
        .bind(alice.id)
        .run();
      expect(await decide(id, "approve", { by: alice })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
      const support = await seedOperator("op_support", "support", origin.now());
      expect(await decide(id, "approve", { by: support })).toMatchObject({ status: 403, code: "FORBIDDEN" });
      expect(await decide("srq_00000000-0000-0000-0000-000000000000", "approve")).toMatchObject({ status: 404 });
      expect(await decide("not-an-id", "approve")).toMatchObject({ status: 400, field: "id" });
      expect(await coveredBalance()).toBe(0);
      expect(await waitingForYou(newcomer)).toMatchObject({ refundSettlements: 0 });
      expect(await waitingForYou(alice)).toMatchObject({ refundSettlements: 0 });
    });

    it("two operators deciding at once: one decision lands, the other hears 409, and the payout is booked once", async () => {
      const third = await seedOperator("op_finance_3", "finance", origin.now() - 500);
      const { outRefundNo } = await paidTwice(800);
      const id = requestOf(await settle(outRefundNo, "bear"))?.id ?? "";
      const answers = await Promise.all([decide(id, "approve"), decide(id, "approve", { by: third })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)).toMatchObject({ code: "SETTLEMENT_REQUEST_DECIDED" });
      expect(await coveredBalance()).toBe(-800);
      // Another decides between this decision's read and its batch: the trigger refuses it.
      const { outRefundNo: other } = await paidTwice(700);
      const otherId = requestOf(await settle(other, "bear"))?.id ?? "";
      const raced = await decide(otherId, "approve", { db: beforeBatch(1, () => decide(otherId, "reject", { by: third })) });
      expect(raced).toMatchObject({ status: 409, code: "SETTLEMENT_REQUEST_DECIDED" });
      expect(await coveredBalance()).toBe(-800);
      expect((await audited()).filter((row) => row.action === "refund.approve_settlement")).toHaveLength(1);
      await expectLedgerWhole();
    });

    it("a request and a settlement at once: whichever comes second is refused", async () => {
      const { outRefundNo: askedLate } = await paidTwice(900);
      const racedAsk = await settle(askedLate, "bear", { db: beforeBatch(1, () => settle(askedLate, "take_back", { by: second })) });
      expect(racedAsk).toMatchObject({ status: 409, code: "REFUND_SETTLED" });
      const { outRefundNo: settledLate } = await paidTwice(450);
      const racedSettle = await settle(settledLate, "take_back", { db: beforeBatch(1, () => settle(settledLate, "bear", { by: second })) });
      expect(racedSettle).toMatchObject({ status: 409, code: "SETTLEMENT_AWAITING" });
      expect(await coveredBalance()).toBe(0);
      await expectLedgerWhole();
    });

    it("the database holds the rules: one request waits at a time, a decided one never changes, and a settlement is only what was approved", async () => {
      const { outRefundNo } = await paidTwice(500);
      const id = requestOf(await settle(outRefundNo, "bear"))?.id ?? "";
      const insertRequest = (requestId: string, by = finance.id, amount = 500) =>
        env.DB.prepare(
          `INSERT INTO wechat_refund_settlement_request (id, out_refund_no, how, amount, reason, status, requested_by, requested_at)
           VALUES (?1, ?2, 'bear', ?4, 'x', 'awaiting_approval', ?3, 1)`,
        )
          .bind(requestId, outRefundNo, by, amount)
          .run();
      await expect(insertRequest("srq_second")).rejects.toThrow(/UNIQUE constraint failed/);
      await expect(insertRequest("srq_other_amount", finance.id, 499)).rejects.toThrow(/for what WeChat Pay paid out/);
      await expect(insertRequest("srq_own", alice.id)).rejects.toThrow(/not for the operator's own order/);
      const settleDirectly = (requestId: string | null, how = "bear") =>
        env.DB.prepare(
          `INSERT INTO wechat_refund_settlement (out_refund_no, how, tx_id, reason, settled_by, settled_at, request_id)
           VALUES (?1, ?2, NULL, 'x', ?3, 1, ?4)`,
        )
          .bind(outRefundNo, how === "to_paydesk" ? "to_paydesk" : how, finance.id, requestId)
          .run();
      await expect(settleDirectly(null, "to_paydesk")).rejects.toThrow(/one waits for a second operator/);
      await expect(settleDirectly(id, "to_paydesk")).rejects.toThrow(/only an approved request is settled/);
      await expect(
        env.DB.prepare("UPDATE wechat_refund_settlement_request SET status = 'approved', decided_by = ?1, decided_at = 2 WHERE id = ?2")
          .bind(finance.id, id)
          .run(),
      ).rejects.toThrow(/CHECK constraint failed/);
      expect((await decide(id, "approve")).status).toBe(200);
      await expect(
        env.DB.prepare("UPDATE wechat_refund_settlement_request SET reason = 'changed' WHERE id = ?1").bind(id).run(),
      ).rejects.toThrow(/a decided request does not change/);
      await expect(env.DB.prepare("DELETE FROM wechat_refund_settlement_request WHERE id = ?1").bind(id).run()).rejects.toThrow(
        /requests are kept/,
      );
      await expect(insertRequest("srq_late")).rejects.toThrow(/settled already/);
      await expectLedgerWhole();
    });
  });
});
