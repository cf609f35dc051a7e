import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { OpsWechatAsk, OrderStory } from "#contract/ops-orders";
import { balanceOf, expectLedgerWhole, seedOperator, seedUser } from "../../test/origin-client";
import { wechatRequests, wechatScene, type SceneUser } from "../../test/wechat-scene";
import { clearingBalance, control, payerPays, refundRow, replay, type WechatOrigin, wechatOrigin } from "../../test/wechat-support";

let origin: WechatOrigin;
let alice: SceneUser;
let support: SceneUser;

const { rechargeOrder, startWechat, cancel } = wechatRequests(() => ({ origin, alice }));

beforeEach(async () => {
  ({ origin, alice } = await wechatScene());
  support = await seedOperator("op_support", "support", origin.now());
});

type Answer = { status: number; code: string; data: { asked: OpsWechatAsk; story: OrderStory }; retryAfter: string | null };
async function ask(orderId: string, by: SceneUser = support, call = origin.call): Promise<Answer> {
  const response = await call(`/api/ops/orders/${orderId}/ask-wechat-pay`, { headers: { ...by.auth, "X-Request-Id": "req-ask-1" } });
  const body = (await response.json()) as Omit<Answer, "status" | "retryAfter">;
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), ...body };
}
const askRows = () =>
  env.DB.prepare("SELECT actor_id, actor_role, object_id, before, after, request_id FROM audit_log WHERE action = 'order.ask_wechat_pay'")
    .all()
    .then((result) => result.results);

describe("asking WeChat Pay now about an order", () => {
  it("settles a payment WeChat Pay reports paid whose notification never came, audits what it heard, and then only reports", async () => {
    const order = await rechargeOrder(2_300);
    const { outTradeNo } = await startWechat(order.id);
    // The person pays, but WeChat Pay's notification is lost: nothing is credited yet.
    const lost = await payerPays(outTradeNo);
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });

    const first = await ask(order.id);
    expect(first.status).toBe(200);
    expect(first.data.asked).toEqual({
      payments: [{ outTradeNo, before: "pending", after: "succeeded", outcome: "settled", tradeState: null }],
      refunds: [],
    });
    expect(first.data.story.order).toMatchObject({ id: order.id, status: "paid" });
    expect(await balanceOf(alice.id)).toEqual({ available: 2_300, held: 0 });
    expect(await askRows()).toEqual([
      {
        actor_id: support.id,
        actor_role: "support",
        object_id: order.id,
        before: JSON.stringify({ payments: [[outTradeNo, "pending"]], refunds: [] }),
        after: JSON.stringify({ payments: [[outTradeNo, "succeeded", "settled", null]], refunds: [] }),
        request_id: "req-ask-1",
      },
    ]);

    // Asked again at once: refused, so no operator can flood WeChat Pay with queries.
    const soon = await ask(order.id);
    expect(soon).toMatchObject({ status: 429, code: "RATE_LIMITED", retryAfter: "10" });
    expect(await askRows()).toHaveLength(1);

    // Later, a decided payment is only asked about: WeChat Pay's own state, nothing moves.
    await origin.advance(10_000);
    const later = await ask(order.id);
    expect(later.data.asked.payments).toEqual([
      { outTradeNo, before: "succeeded", after: "succeeded", outcome: "answered", tradeState: "SUCCESS" },
    ]);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_300, held: 0 });
    // The lost notification arriving after all changes nothing either.
    expect((await replay(origin, lost)).status).toBe(204);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_300, held: 0 });
    await expectLedgerWhole();
  });

  it("lets one of two operators asking at once through, and tells the other when to ask", async () => {
    const order = await rechargeOrder(700);
    await startWechat(order.id);
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const answers = await Promise.all([ask(order.id), ask(order.id, finance)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429]);
    expect(answers.find((answer) => answer.status === 429)).toMatchObject({ code: "RATE_LIMITED", retryAfter: "10" });
    expect(await askRows()).toHaveLength(1);
  });

  it("leaves an unpaid payment pending and says so", async () => {
    const order = await rechargeOrder(900);
    const { outTradeNo } = await startWechat(order.id);
    const answer = await ask(order.id);
    expect(answer.data.asked.payments).toEqual([{ outTradeNo, before: "pending", after: "pending", outcome: "later", tradeState: null }]);
    expect(answer.data.story.order.status).toBe("pending");
    await expectLedgerWhole();
  });

  it("advances an operator's WeChat Pay refund that WeChat Pay finished", async () => {
    const order = await rechargeOrder(3_000);
    const { outTradeNo } = await startWechat(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const made = await origin.call(`/api/ops/orders/${order.id}/refunds`, {
      body: { amount: 1_000, reason: "Asked by phone." },
      headers: { ...finance.auth, "Idempotency-Key": `rf-${crypto.randomUUID()}` },
    });
    const outRefundNo = ((await made.json()) as { data: { wechat: { outRefundNo: string } } }).data.wechat.outRefundNo;
    expect((await control(`/refunds/${outRefundNo}/complete`, { status: "SUCCESS" })).status).toBe(200);
    // Its notification is not delivered: asking finds it out.
    const answer = await ask(order.id);
    expect(answer.data.asked.refunds).toEqual([{ outRefundNo, before: "processing", after: "succeeded" }]);
    expect(answer.data.story.refunds.find((r) => r.outRefundNo === outRefundNo)?.status).toBe("succeeded");
    await expectLedgerWhole();
  });

  it("asks again for a refund WeChat Pay keeps refusing without spending the attempts before the cron gives up", async () => {
    // A recharge paid after it was cancelled: its automatic refund is due, and WeChat Pay refuses it.
    await control("/faults", { kind: "status", status: 400, code: "INVALID_REQUEST", path: "/v3/refund/domestic/refunds", times: 20 });
    const order = await rechargeOrder(600);
    const { outTradeNo } = await startWechat(order.id);
    await control("/faults", { kind: "status", status: 503, path: "/v3/pay/transactions/out-trade-no/", method: "POST" });
    await cancel(order.id);
    expect((await replay(origin, await payerPays(outTradeNo))).status).toBe(204);
    const outRefundNo = `RF${outTradeNo}`;
    // One refusal before the cron's last attempt, which is an hour away.
    const nextAttemptAt = origin.now() + 60 * 60_000;
    await env.DB.prepare("UPDATE wechat_refund SET attempts = 11, next_attempt_at = ?1 WHERE out_refund_no = ?2")
      .bind(nextAttemptAt, outRefundNo)
      .run();
    const schedule = () =>
      env.DB.prepare("SELECT status, attempts, next_attempt_at, last_error FROM wechat_refund WHERE out_refund_no = ?1")
        .bind(outRefundNo)
        .first();

    for (let time = 0; time < 3; time += 1) {
      const answer = await ask(order.id);
      expect(answer.data.asked.refunds).toEqual([{ outRefundNo, before: "due", after: "due" }]);
      expect(await schedule()).toEqual({
        status: "due",
        attempts: 11,
        next_attempt_at: nextAttemptAt,
        last_error: expect.stringContaining("INVALID_REQUEST"),
      });
      await origin.advance(10_000);
    }
    expect(await clearingBalance()).toBe(600);

    // The cron's own attempt, at its time, is the twelfth: then an operator decides.
    await origin.advance(nextAttemptAt - origin.now());
    await origin.cron();
    expect(await refundRow(outTradeNo)).toMatchObject({ status: "refused", attempts: 12 });
    await expectLedgerWhole();
  });

  it("is open to every operator role, not to anyone else, and needs WeChat Pay configured", async () => {
    const order = await rechargeOrder(500);
    const plain = await seedUser("plain_person", origin.now());
    expect((await ask(order.id, plain)).status).toBe(404);
    expect((await ask("ord_00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await ask("not-an-order")).status).toBe(400);
    expect(await askRows()).toEqual([]);

    // A Paydesk without a WeChat Pay merchant has nothing to ask.
    origin = await wechatOrigin({ envOverrides: { WECHATPAY_MCHID: undefined } });
    alice = await seedUser("alice", origin.now());
    const admin = await seedOperator("op_admin", "admin", origin.now());
    const unconfigured = await ask((await rechargeOrder(500)).id, admin);
    expect(unconfigured).toMatchObject({ status: 422, code: "WECHAT_PAY_NOT_CONFIGURED" });
    expect(await askRows()).toEqual([]);
  });
});
