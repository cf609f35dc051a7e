import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { RefundRequest } from "#contract/ops-refunds";
import { balanceOf, beforeBatch, expectLedgerWhole, seedOperator, seedUser } from "../../test/origin-client";
import { recordedNotification, wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import { clearingBalance, control, deliverNotifications, payerPays, replay, type WechatOrigin } from "../../test/wechat-support";
import type { OperatorRole } from "../ops/roles";
import { roleGrantedByTwoAdmins } from "../../test/role-requests";

let origin: WechatOrigin;
let alice: SceneUser;
let finance: SceneUser;
let checker: SceneUser;

const { rechargeOrder, taskBudgetOrder, payRequest, startWechat, orderDetail, cancel } = wechatRequests(() => ({ origin, alice }));

const operator = (handle: string, role: OperatorRole) => seedOperator(handle, role, origin.now());

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
  finance = await operator("op_finance", "finance");
  checker = await operator("op_checker", "finance");
});

const keyed = (auth: Record<string, string>, key = `rf-${crypto.randomUUID()}`) => ({ ...auth, "Idempotency-Key": key });
type Answer = { status: number; code: string; data: RefundRequest; field?: string };
async function answerOf(response: Response): Promise<Answer> {
  const body = (await response.json()) as { code: string; data: RefundRequest; field?: string };
  return { status: response.status, ...body };
}
const refund = async (
  orderId: string,
  amount: number,
  { by = finance, key, threshold }: { by?: SceneUser; key?: string; threshold?: number } = {},
): Promise<Answer> =>
  answerOf(
    await origin.call(`/api/ops/orders/${orderId}/refunds`, {
      body: { amount, reason: "The customer asked, ticket 42." },
      headers: keyed(by.auth, key),
      ...(threshold === undefined ? {} : { env: { ...origin.env, REFUND_APPROVAL_THRESHOLD: String(threshold) } }),
    }),
  );
const decide = async (id: string, decision: "approve" | "reject", by: SceneUser): Promise<Answer> =>
  answerOf(
    await origin.call(`/api/ops/refunds/${id}/${decision}`, {
      body: decision === "approve" ? {} : { reason: "Not what was agreed." },
      headers: keyed(by.auth),
    }),
  );
/** An approval during whose route `happen` runs, just before its batch. */
const approveWhile = async (id: string, by: SceneUser, happen: () => unknown): Promise<Answer> =>
  answerOf(
    await origin.call(`/api/ops/refunds/${id}/approve`, {
      body: {},
      headers: keyed(by.auth),
      env: { ...origin.env, DB: beforeBatch(1, happen) },
    }),
  );
const auditActions = async () =>
  (await env.DB.prepare("SELECT action FROM audit_log ORDER BY id").all<{ action: string }>()).results.map((row) => row.action);

/** Alice's wallet, funded as a code would: `amount` fen in from the world. */
async function fund(user: SceneUser, amount: number) {
  const tx = `tx_fund_${crypto.randomUUID()}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES (?1, 'code_redemption', ?2)").bind(tx, origin.now()),
    env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?1, 'acc_world', 'available', ?2)").bind(tx, -amount),
    env.DB.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?1, ?2, 'available', ?3)").bind(
      tx,
      `acc_${user.id}`,
      amount,
    ),
    env.DB.prepare("INSERT INTO tx_seal (tx_id) VALUES (?1)").bind(tx),
  ]);
}

/** A task budget paid from alice's wallet: reward 500 × 4 slots. */
async function walletPaidTask() {
  const order = await taskBudgetOrder(alice, { reward: 500, slots: 4 });
  await fund(alice, order.amount);
  expect((await payRequest(order.orderId, { method: "wallet" })).status).toBe(201);
  return order;
}

/** A recharge of `amount` paid with WeChat Pay through the simulator. */
async function wechatRecharge(amount: number) {
  const order = await rechargeOrder(amount);
  const { outTradeNo } = await startWechat(order.id);
  expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
  expect(await balanceOf(alice.id)).toEqual({ available: amount, held: 0 });
  return { ...order, outTradeNo };
}

describe("refunding a wallet payment", () => {
  it("reverses whole unclaimed slots of an open task into the wallet, shows it to the person, and never more than was paid", async () => {
    const { orderId, taskId } = await walletPaidTask();
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 2_000 });

    const first = await refund(orderId, 500);
    expect(first).toMatchObject({ status: 201, data: { status: "approved", method: "wallet", source: "task_escrow", amount: 500 } });
    expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 1_500 });
    const task = await env.DB.prepare("SELECT slots, escrow_remaining, status FROM task WHERE id = ?1").bind(taskId).first();
    expect(task).toEqual({ slots: 3, escrow_remaining: 1_500, status: "open" });

    // The person sees it on the order and in the wallet's history.
    expect((await orderDetail(orderId)).refunds).toEqual([
      { id: first.data.id, method: "wallet", amount: 500, status: "succeeded", wechatPaidOut: null, createdAt: expect.any(String) },
    ]);
    const history = await origin.call("/api/wallet/entries", { method: "GET", headers: alice.auth });
    const entries = (
      (await history.json()) as { data: { entries: { kind: string; amount: number; held: number; orderId: string | null }[] } }
    ).data.entries;
    expect(entries[0]).toMatchObject({ kind: "refund", amount: 500, held: -500, orderId });

    const partial = await refund(orderId, 700);
    expect(partial).toMatchObject({ status: 422, code: "REFUND_NOT_WHOLE_SLOTS", field: "amount" });
    const rest = await refund(orderId, 1_500);
    expect(rest).toMatchObject({ status: 201, data: { status: "approved" } });
    // Every slot refunded and none claimed: the task is cancelled, its escrow empty.
    expect(await env.DB.prepare("SELECT status, escrow_remaining FROM task WHERE id = ?1").bind(taskId).first()).toEqual({
      status: "cancelled",
      escrow_remaining: 0,
    });
    const beyond = await refund(orderId, 500);
    expect(beyond).toMatchObject({ status: 422, code: "REFUND_EXCEEDS_PAYMENT", field: "amount" });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_000, held: 0 });
    expect(await auditActions()).toEqual(["refund.make", "refund.make"]);
    await expectLedgerWhole();
  });

  it("has nothing to refund once the task ended: its unused budget went back to the wallet then", async () => {
    const { orderId, taskId } = await walletPaidTask();
    expect((await origin.call(`/api/tasks/${taskId}/cancel`, { headers: keyed(alice.auth) })).status).toBe(200);
    expect(await refund(orderId, 500)).toMatchObject({ status: 409, code: "NOT_REFUNDABLE" });
    expect(await auditActions()).toEqual([]);
    await expectLedgerWhole();
  });
});

describe("refunding a WeChat Pay payment", () => {
  it("takes the money from the wallet through the clearing account, asks WeChat Pay, and settles once when it succeeds", async () => {
    const { id: orderId, outTradeNo } = await wechatRecharge(3_000);
    const made = await refund(orderId, 1_200);
    expect(made).toMatchObject({
      status: 201,
      data: { status: "approved", method: "wechat", source: "wallet", wechat: { status: "due" } },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 1_800, held: 0 });
    expect(await clearingBalance()).toBe(1_200);
    const outRefundNo = made.data.wechat?.outRefundNo ?? "";
    // Asked at once: WeChat Pay holds a partial refund of the 3,000 order.
    const { data: simulated } = await control<{ refunds: Record<string, { outRefundNo: string; refund: number; total: number }> }>(
      "/state",
    );
    expect(Object.values(simulated.refunds).find((r) => r.outRefundNo === outRefundNo)).toMatchObject({ refund: 1_200, total: 3_000 });
    expect((await orderDetail(orderId)).refunds).toEqual([
      { id: made.data.id, method: "wechat", amount: 1_200, status: "pending", wechatPaidOut: null, createdAt: expect.any(String) },
    ]);

    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    await deliverNotifications();
    const done = await recordedNotification(outTradeNo, "REFUND.SUCCESS");
    expect((await replay(origin, done)).status).toBe(204);
    expect((await replay(origin, done)).status).toBe(204);
    expect(await clearingBalance()).toBe(0);
    expect((await orderDetail(orderId)).refunds[0]?.status).toBe("succeeded");
    await expectLedgerWhole();
  });

  it("waits while the person has spent the money: INSUFFICIENT_FUNDS, nothing moves", async () => {
    const { id: orderId } = await wechatRecharge(1_000);
    await seedUser("somebody", origin.now());
    const sent = await origin.call("/api/transfers", { body: { toHandle: "somebody", amount: 900, note: "" }, headers: keyed(alice.auth) });
    expect(sent.status).toBe(201);
    expect(await refund(orderId, 1_000)).toMatchObject({ status: 422, code: "INSUFFICIENT_FUNDS", field: "amount" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM refund_request").first("n")).toBe(0);
    await expectLedgerWhole();
  });
});

describe("maker-checker above the threshold", () => {
  it("moves nothing until a second finance operator approves; the asker cannot approve their own", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const asked = await refund(orderId, 2_000, { threshold: 1_000 });
    expect(asked).toMatchObject({ status: 201, data: { status: "awaiting_approval", source: null, wechat: null } });
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    // Reserved meanwhile: another request cannot take the same money.
    expect(await refund(orderId, 1_500, { threshold: 1_000 })).toMatchObject({ status: 422, code: "REFUND_EXCEEDS_PAYMENT" });

    const queue = await origin.call("/api/ops/refunds", { method: "GET", headers: checker.auth });
    expect(((await queue.json()) as { data: RefundRequest[] }).data.map((r) => r.id)).toEqual([asked.data.id]);

    expect(await decide(asked.data.id, "approve", finance)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    const approved = await decide(asked.data.id, "approve", checker);
    expect(approved).toMatchObject({
      status: 200,
      data: { status: "approved", source: "wallet", decidedBy: { handle: "op_checker" }, wechat: { status: "due" } },
    });
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    expect(await decide(asked.data.id, "approve", checker)).toMatchObject({ status: 409, code: "REFUND_DECIDED" });
    expect(await auditActions()).toEqual(["refund.request", "refund.approve"]);
    await expectLedgerWhole();
  });

  it("needs a second operator who is another person: not one the asker made, nor one made since, by the route and the database", async () => {
    const lead = await operator("op_lead", "admin");
    const otherAdmin = await operator("op_other_admin", "admin");
    // The lead's own second account, made a finance operator at the lead's asking.
    const puppet = await seedUser("op_puppet", origin.now());
    await roleGrantedByTwoAdmins(origin, lead, otherAdmin, "op_puppet", "finance");
    const { id: orderId } = await wechatRecharge(3_000);
    const asked = await refund(orderId, 2_000, { by: lead, threshold: 1_000 });
    expect(asked).toMatchObject({ status: 201, data: { status: "awaiting_approval" } });
    await origin.advance(1_000);
    const late = await operator("op_late", "finance");
    for (const who of [puppet, late]) {
      expect(await decide(asked.data.id, "approve", who as SceneUser)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
      expect(await decide(asked.data.id, "reject", who as SceneUser)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    }
    await expect(
      env.DB.prepare("UPDATE refund_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = 'no' WHERE id = ?3")
        .bind(puppet.id, origin.now(), asked.data.id)
        .run(),
    ).rejects.toThrow(/decided by a second operator/);
    // Nor decided by nobody, or by support.
    const support = await operator("op_support", "support");
    for (const decider of [null, support.id]) {
      await expect(
        env.DB.prepare(
          "UPDATE refund_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = 'no' WHERE id = ?3",
        )
          .bind(decider, origin.now(), asked.data.id)
          .run(),
      ).rejects.toThrow(/decided by a second operator/);
    }
    // A decider whose role changes between the route's check and the batch hears 403.
    const raced = await approveWhile(asked.data.id, checker, () =>
      env.DB.prepare("UPDATE operator_role SET role = 'support', granted_by = 'cli' WHERE user_id = ?1").bind(checker.id).run(),
    );
    expect(raced).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    await env.DB.prepare("UPDATE operator_role SET role = 'finance', granted_by = 'cli', granted_at = 0 WHERE user_id = ?1")
      .bind(checker.id)
      .run();
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    expect(await decide(asked.data.id, "approve", checker)).toMatchObject({ status: 200, data: { status: "approved" } });
    await expectLedgerWhole();
  });

  it("counts what one payment gave back without a second operator: small refunds cannot add up past the threshold", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    expect(await refund(orderId, 600, { threshold: 1_000 })).toMatchObject({ status: 201, data: { status: "approved" } });
    const second = await refund(orderId, 600, { threshold: 1_000 });
    expect(second).toMatchObject({ status: 201, data: { status: "awaiting_approval", source: null } });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_400, held: 0 });
    // A refund a second operator approved was checked: it does not count against the threshold.
    expect(await decide(second.data.id, "approve", checker)).toMatchObject({ status: 200, data: { status: "approved" } });
    expect(await refund(orderId, 400, { threshold: 1_000 })).toMatchObject({ status: 201, data: { status: "approved" } });
    expect(await refund(orderId, 100, { threshold: 1_000 })).toMatchObject({ status: 201, data: { status: "awaiting_approval" } });
    expect(await balanceOf(alice.id)).toEqual({ available: 1_400, held: 0 });
    await expectLedgerWhole();
  });

  it("of two small refunds made at once past the threshold, the second to commit waits for a second operator", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const env1000 = { ...origin.env, REFUND_APPROVAL_THRESHOLD: "1000" };
    // The checker's refund commits after the finance operator's request read the payment and before its batch.
    let raced: Response | undefined;
    const racing = beforeBatch(1, async () => {
      raced = await origin.call(`/api/ops/orders/${orderId}/refunds`, {
        body: { amount: 600, reason: "The customer asked, ticket 43." },
        headers: keyed(checker.auth),
        env: env1000,
      });
    });
    const mine = await answerOf(
      await origin.call(`/api/ops/orders/${orderId}/refunds`, {
        body: { amount: 600, reason: "The customer asked, ticket 42." },
        headers: keyed(finance.auth),
        env: { ...env1000, DB: racing },
      }),
    );
    expect(raced?.status).toBe(201);
    expect(mine).toMatchObject({ status: 201, data: { status: "awaiting_approval", requestedBy: { handle: "op_finance" } } });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_400, held: 0 });
    expect(await auditActions()).toEqual(["refund.make", "refund.request"]);
    await expectLedgerWhole();
  });

  it("a rejected refund moves nothing and frees its amount", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const asked = await refund(orderId, 3_000, { threshold: 1_000 });
    expect(await decide(asked.data.id, "reject", checker)).toMatchObject({ status: 200, data: { status: "rejected" } });
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    expect(await refund(orderId, 3_000)).toMatchObject({ status: 201, data: { status: "approved" } });
    expect(await auditActions()).toEqual(["refund.request", "refund.reject", "refund.make"]);
    await expectLedgerWhole();
  });

  it("two operators approving at once approve once", async () => {
    const third = await operator("op_third", "admin");
    const { id: orderId } = await wechatRecharge(3_000);
    const asked = await refund(orderId, 2_500, { threshold: 1_000 });
    const answers = await Promise.all([decide(asked.data.id, "approve", checker), decide(asked.data.id, "approve", third)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await balanceOf(alice.id)).toEqual({ available: 500, held: 0 });
    expect(await clearingBalance()).toBe(2_500);
    await expectLedgerWhole();
  });
});

describe("refunds under races", () => {
  it("two operators refunding one payment at once never refund more than was paid", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const answers = await Promise.all([refund(orderId, 2_000), refund(orderId, 2_000, { by: checker })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 422]);
    expect(answers.find((answer) => answer.status === 422)?.code).toBe("REFUND_EXCEEDS_PAYMENT");
    expect(await balanceOf(alice.id)).toEqual({ available: 1_000, held: 0 });
    const refunded = await env.DB.prepare("SELECT sum(amount) AS total FROM refund_request WHERE status <> 'rejected'").first("total");
    expect(refunded).toBe(2_000);
    await expectLedgerWhole();
  });

  it("a refund racing a late WeChat Pay success for an order paid from the wallet: each payment refunded at most once in full", async () => {
    const order = await taskBudgetOrder(alice, { reward: 500, slots: 4 });
    const { outTradeNo } = await startWechat(order.orderId);
    await fund(alice, order.amount);
    await control("/faults", { kind: "status", status: 500, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    expect((await payRequest(order.orderId, { method: "wallet" })).status).toBe(201);
    const late = await payerPays(outTradeNo);
    const [notified, refunded] = await Promise.all([replay(origin, late), refund(order.orderId, 2_000)]);
    expect(notified.status).toBe(204);
    expect(refunded).toMatchObject({ status: 201, data: { method: "wallet", amount: 2_000 } });
    // The wallet payment came back to the wallet; the WeChat Pay one goes back to WeChat Pay.
    expect(await balanceOf(alice.id)).toEqual({ available: 2_000, held: 0 });
    expect(await clearingBalance()).toBe(2_000);
    expect(await refund(order.orderId, 1)).toMatchObject({ status: 422, code: "REFUND_EXCEEDS_PAYMENT" });
    await expectLedgerWhole();
  });

  it("replays its first answer for the same key and refunds once", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const first = await refund(orderId, 1_000, { key: "refund-once-key" });
    const again = await refund(orderId, 1_000, { key: "refund-once-key" });
    expect(again).toEqual(first);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_000, held: 0 });
    expect(await auditActions()).toEqual(["refund.make"]);
  });
});

describe("nobody refunds their own order", () => {
  /** Alice made a finance operator: the order refunded is hers. */
  const aliceInFinance = () =>
    env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'finance', 'cli', ?2)")
      .bind(alice.id, origin.now())
      .run();
  const queueAs = async (viewer: SceneUser) =>
    ((await (await origin.call("/api/ops/refunds", { method: "GET", headers: viewer.auth })).json()) as { data: RefundRequest[] }).data;

  it("neither asks for it nor decides on it: NOT_FOR_YOURSELF, nothing written; another finance operator may", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    await aliceInFinance();
    expect(await refund(orderId, 500, { by: alice })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    expect(await refund(orderId, 2_000, { by: alice, threshold: 1_000 })).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM refund_request").first("n")).toBe(0);
    expect(await auditActions()).toEqual([]);

    const asked = await refund(orderId, 2_000, { threshold: 1_000 });
    expect(asked).toMatchObject({ status: 201, data: { status: "awaiting_approval", yoursToDecide: false } });
    // Who reads the list is told whether it is theirs to decide.
    expect((await queueAs(finance)).map((r) => r.yoursToDecide)).toEqual([false]);
    expect((await queueAs(alice)).map((r) => r.yoursToDecide)).toEqual([false]);
    expect((await queueAs(checker)).map((r) => r.yoursToDecide)).toEqual([true]);
    // Support reads the order's refunds, and decides none of them.
    const support = await operator("op_support", "support");
    const read = await origin.call(`/api/ops/orders/${orderId}/refunds`, { method: "GET", headers: support.auth });
    expect(((await read.json()) as { data: { refunds: RefundRequest[] } }).data.refunds.map((r) => r.yoursToDecide)).toEqual([false]);
    for (const decision of ["approve", "reject"] as const) {
      expect(await decide(asked.data.id, decision, alice)).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    }
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
    const approved = await decide(asked.data.id, "approve", checker);
    expect(approved).toMatchObject({ status: 200, data: { status: "approved", yoursToDecide: false } });
    expect((await queueAs(checker)).length).toBe(0);
    expect(await auditActions()).toEqual(["refund.request", "refund.approve"]);
    await expectLedgerWhole();
  });

  it("the database refuses it too, and a refusal it makes after the route's check is a 403, not a 500", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    await aliceInFinance();
    const payment = await env.DB.prepare("SELECT id FROM payment WHERE order_id = ?1").bind(orderId).first<{ id: string }>();
    await expect(
      env.DB.prepare(
        `INSERT INTO refund_request (id, order_id, payment_id, method, amount, reason, status, source, requested_by, requested_at, tx_id)
         VALUES ('rfd_00000000-0000-0000-0000-000000000000', ?1, ?2, 'wechat', 100, 'Mine.', 'awaiting_approval', NULL, ?3, ?4, NULL)`,
      )
        .bind(orderId, payment?.id, alice.id, origin.now())
        .run(),
    ).rejects.toThrow(/not for the operator's own order/);
    const asked = await refund(orderId, 2_000, { threshold: 1_000 });
    await expect(
      env.DB.prepare("UPDATE refund_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = 'no' WHERE id = ?3")
        .bind(alice.id, origin.now(), asked.data.id)
        .run(),
    ).rejects.toThrow(/not for the operator's own order/);
    // The order made the checker's own between the route's check and the batch (a stand-in for
    // any way the two could meet): the trigger's refusal is heard as the route's.
    const raced = await approveWhile(asked.data.id, checker, () =>
      env.DB.prepare("UPDATE orders SET user_id = ?1 WHERE id = ?2").bind(checker.id, orderId).run(),
    );
    expect(raced).toMatchObject({ status: 403, code: "NOT_FOR_YOURSELF" });
    expect(await env.DB.prepare("SELECT status FROM refund_request WHERE id = ?1").bind(asked.data.id).first("status")).toBe(
      "awaiting_approval",
    );
    expect(await balanceOf(alice.id)).toEqual({ available: 3_000, held: 0 });
  });
});

describe("who may refund", () => {
  it("finance and admin refund; support reads an order's refunds; anyone else hears 404", async () => {
    const { id: orderId } = await wechatRecharge(3_000);
    const support = await operator("op_support", "support");
    const nobody = await seedUser("nobody", origin.now());
    expect((await refund(orderId, 100, { by: support })).status).toBe(403);
    expect((await refund(orderId, 100, { by: nobody })).status).toBe(404);
    expect((await origin.call("/api/ops/refunds", { method: "GET", headers: support.auth })).status).toBe(403);
    const read = await origin.call(`/api/ops/orders/${orderId}/refunds`, { method: "GET", headers: support.auth });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: { payments: unknown[] } }).data.payments).toEqual([
      { id: expect.any(String), method: "wechat", paid: 3_000, refundable: 3_000 },
    ]);
    expect((await origin.call(`/api/ops/orders/${orderId}/refunds`, { method: "GET", headers: nobody.auth })).status).toBe(404);
    expect(await auditActions()).toEqual([]);
    // An order never paid has nothing to refund.
    const unpaid = await rechargeOrder(1_000);
    await cancel(unpaid.id);
    expect(await refund(unpaid.id, 100)).toMatchObject({ status: 409, code: "NOT_REFUNDABLE" });
  });
});
