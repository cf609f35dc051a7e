import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Overview } from "#contract/ops-overview";
import { fundWallet, openPaidTask, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";

let origin: TestOrigin;
const day = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

async function overviewAs(auth: Record<string, string>): Promise<{ status: number; data: Overview }> {
  const answer = await origin.call("/api/ops/overview", { method: "GET", headers: auth });
  return { status: answer.status, data: ((await answer.json()) as { data: Overview }).data };
}

async function openTicket(user: { auth: Record<string, string> }, subject: string) {
  const answer = await origin.call("/api/support/tickets", {
    body: { category: "other", subject, message: "Please help." },
    headers: { ...user.auth, "Idempotency-Key": `t-${crypto.randomUUID()}` },
  });
  expect(answer.status).toBe(201);
}

describe("the back office's overview", () => {
  it("adds up the money where it is, checks the ledger, and counts the volume by day and kind", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const alice = await seedUser("alice", origin.now());
    const bob = await seedUser("bob", origin.now());
    await fundWallet(origin, alice, 10_000);
    await openPaidTask(origin, bob, { reward: 1_000, slots: 3 });
    const sent = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 2_500, note: "" },
      headers: { ...alice.auth, "Idempotency-Key": `tr-${crypto.randomUUID()}` },
    });
    expect(sent.status).toBe(201);

    const { status, data } = await overviewAs(support.auth);
    expect(status).toBe(200);
    expect(data.money).toEqual({ walletsAvailable: 10_000, walletsHeld: 3_000, taskEscrow: 3_000, wechatClearing: 0, world: -13_000 });
    expect(data.ledger.violations).toBe(0);
    const today = new Date(origin.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(data.dailyVolume).toEqual([
      { day: today, kind: "code_redemption", amount: 13_000, transactions: 2 },
      { day: today, kind: "escrow_hold", amount: 3_000, transactions: 1 },
      { day: today, kind: "transfer", amount: 2_500, transactions: 1 },
    ]);
    // Thirty days on, the volume has left the window; the money has not moved.
    origin.advance(31 * day);
    // (A session unused for 30 days has ended: a fresh operator looks.)
    const later = await overviewAs((await seedOperator("op_later", "support", origin.now())).auth);
    expect(later.data.dailyVolume).toEqual([]);
    expect(later.data.money.walletsAvailable).toBe(10_000);
  });

  it("counts open tickets by age, what is pending, and a broken ledger", async () => {
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const alice = await seedUser("alice", origin.now());
    await openTicket(alice, "Oldest");
    origin.advance(2 * day);
    await openTicket(alice, "Middle");
    origin.advance(2 * day);
    await openTicket(alice, "Newest");
    const { data } = await overviewAs(finance.auth);
    expect(data.openTickets).toEqual({ underADay: 1, oneToThreeDays: 1, olderThanThreeDays: 1 });
    expect(data.pending).toEqual({ wechatPayments: 0, wechatRefunds: 0, wechatRefundsStuck: 0, refundApprovals: 0 });
    // A balance that its entries do not explain is a violation the overview reports.
    await env.DB.prepare("UPDATE account SET available = available + 1 WHERE owner_id = ?1").bind(alice.id).run();
    expect((await overviewAs(finance.auth)).data.ledger.violations).toBeGreaterThan(0);
    await env.DB.prepare("UPDATE account SET available = available - 1 WHERE owner_id = ?1").bind(alice.id).run();
  });

  it("is the same 404 as an unknown path for anyone who is not an operator", async () => {
    const alice = await seedUser("alice", origin.now());
    expect((await overviewAs(alice.auth)).status).toBe(404);
    expect((await overviewAs({})).status).toBe(404);
  });
});
