import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { AwaitingYou, OperatorSelf } from "#contract/ops";
import { openPaidTask, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { askForRecoveryLink, decideOnRecoveryLink } from "../../test/recovery-links";
import { askedRoleRequestId, grantRole } from "../../test/role-requests";

// docs/decisions/066-what-waits-for-you.md
let origin: TestOrigin;
type Seeded = Awaited<ReturnType<typeof seedUser>>;
const key = () => ({ "Idempotency-Key": `aw-${crypto.randomUUID()}` });

const awaitingYou = async (who: Seeded): Promise<AwaitingYou> => {
  const answer = await origin.call("/api/ops/me", { method: "GET", headers: who.auth });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: OperatorSelf }).data.awaitingYou;
};
const none: AwaitingYou = { refunds: 0, refundSettlements: 0, codeBatches: 0, recoveryLinks: 0, roles: 0 };

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("what waits for an operator's decision", () => {
  it("counts, for each operator, the requests the lists offer them to decide on, and no longer once decided", async () => {
    const lead = await seedOperator("op_lead", "admin", origin.now());
    const second = await seedOperator("op_second", "admin", origin.now());
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const support = await seedOperator("op_support", "support", origin.now());
    const person = await seedUser("person", origin.now());
    const poster = await seedUser("poster", origin.now());
    origin.advance(1_000);

    // The lead asks for one of each: a refund past the threshold, a code batch past what one
    // may issue alone, a recovery link and a role.
    const askRefund = async (owner: Seeded) => {
      const task = await openPaidTask(origin, owner, { reward: 1_000, slots: 2 });
      const refund = await origin.call(`/api/ops/orders/${task.orderId}/refunds`, {
        body: { amount: 1_000, reason: "Asked on ticket 7." },
        headers: { ...lead.auth, ...key() },
        env: { REFUND_APPROVAL_THRESHOLD: "0" },
      });
      expect(((await refund.json()) as { data: { status: string } }).data.status).toBe("awaiting_approval");
    };
    await askRefund(poster);
    // A refund of the finance operator's own order is never theirs to decide (decision 065).
    await askRefund(finance);
    const batch = await origin.call("/api/ops/code-batches", {
      body: { value: 1_000, count: 1, note: "Launch", expiresAt: new Date(origin.now() + 86_400_000).toISOString() },
      headers: { ...lead.auth, ...key() },
      env: { CODE_BATCH_APPROVAL_THRESHOLD: "0" },
    });
    expect(batch.status).toBe(201);
    const link = await askForRecoveryLink(origin, lead, person.id);
    expect(link.status).toBe(201);
    const linkId = ((await link.json()) as { data: { id: string } }).data.id;
    expect((await askForRecoveryLink(origin, lead, poster.id)).status).toBe(201);
    await askedRoleRequestId(await grantRole(origin, lead, "person", "support"));

    // Whoever asked has nothing to decide; another admin decides all four, finance the refund
    // and the batch; support nothing.
    expect(await awaitingYou(lead)).toEqual(none);
    expect(await awaitingYou(second)).toEqual({ refunds: 2, refundSettlements: 0, codeBatches: 1, recoveryLinks: 2, roles: 1 });
    expect(await awaitingYou(finance)).toEqual({ refunds: 1, refundSettlements: 0, codeBatches: 1, recoveryLinks: 0, roles: 0 });
    expect(await awaitingYou(support)).toEqual(none);
    // An operator made since the requests decides none of them.
    origin.advance(1_000);
    const late = await seedOperator("op_late", "admin", origin.now());
    expect(await awaitingYou(late)).toEqual(none);

    // Decided, a request waits for nobody.
    expect((await decideOnRecoveryLink(origin, second, linkId, "reject", { reason: "Not them" })).status).toBe(200);
    expect(await awaitingYou(second)).toEqual({ refunds: 2, refundSettlements: 0, codeBatches: 1, recoveryLinks: 1, roles: 1 });
    // A role request that can no longer be approved (the person's role changed since) is not counted.
    await env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'support', 'cli', ?2)")
      .bind(person.id, origin.now())
      .run();
    expect(await awaitingYou(second)).toEqual({ refunds: 2, refundSettlements: 0, codeBatches: 1, recoveryLinks: 1, roles: 0 });
    // Past its expiry or its day, nor is a code batch or a recovery link; a refund waits on.
    origin.advance(86_400_000);
    expect(await awaitingYou(second)).toEqual({ refunds: 2, refundSettlements: 0, codeBatches: 0, recoveryLinks: 0, roles: 0 });
  });
});
