import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { Overview } from "#contract/ops-overview";
import { fundWallet, openPaidTask, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { askForRecoveryLink } from "../../test/recovery-links";
import { grantRole } from "../../test/role-requests";
import { ledgerViolations } from "../ledger/invariants";
import { runTimeBasedRules } from "../scheduled";

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
    expect(data.money).toEqual({
      walletsAvailable: 10_000,
      walletsHeld: 3_000,
      taskEscrow: 3_000,
      wechatClearing: 0,
      world: -13_000,
      paydeskCovered: 0,
    });
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

  it("counts open tickets by age and what is pending", async () => {
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const alice = await seedUser("alice", origin.now());
    await openTicket(alice, "Oldest");
    origin.advance(2 * day);
    await openTicket(alice, "Middle");
    origin.advance(2 * day);
    await openTicket(alice, "Newest");
    const { data } = await overviewAs(finance.auth);
    expect(data.openTickets).toEqual({ underADay: 1, oneToThreeDays: 1, olderThanThreeDays: 1 });
    expect(data.pending).toEqual({
      wechatPayments: 0,
      wechatRefunds: 0,
      wechatRefundsStuck: 0,
      refundApprovals: 0,
      codeBatchApprovals: 0,
      recoveryLinkApprovals: 0,
      roleApprovals: 0,
    });
  });

  it("counts the requests waiting for a second operator that can still be approved", async () => {
    const admin = await seedOperator("op_admin", "admin", origin.now());
    const alice = await seedUser("alice", origin.now());
    await seedUser("bob", origin.now());
    const expiresAt = (inMs: number) => new Date(origin.now() + inMs).toISOString();
    const bigBatch = (expiry: number) =>
      origin.call("/api/ops/code-batches", {
        body: { value: 50_000, count: 10, expiresAt: expiresAt(expiry), note: "Partner launch" },
        headers: { ...admin.auth, "Idempotency-Key": `batch-${crypto.randomUUID()}` },
      });
    expect((await bigBatch(2 * day)).status).toBe(201);
    expect((await bigBatch(day / 2)).status).toBe(201);
    expect((await askForRecoveryLink(origin, admin, alice.id)).status).toBe(201);
    expect((await grantRole(origin, admin, "bob", "support")).status).toBe(202);
    const pending = async () => (await overviewAs(admin.auth)).data.pending;
    expect(await pending()).toMatchObject({ codeBatchApprovals: 2, recoveryLinkApprovals: 1, roleApprovals: 1 });
    // Past their day, or their codes' expiry, they can no longer be approved: no longer counted.
    origin.advance(day);
    expect(await pending()).toMatchObject({ codeBatchApprovals: 1, recoveryLinkApprovals: 0, roleApprovals: 0 });
  });

  it("reads the volume kept as each transaction is sealed, which the ledger's check holds to the entries", async () => {
    const alice = await seedUser("alice", origin.now());
    await fundWallet(origin, alice, 1_500);
    await fundWallet(origin, alice, 500);
    const kept = await env.DB.prepare("SELECT kind, amount, transactions FROM daily_volume").all();
    expect(kept.results).toEqual([{ kind: "code_redemption", amount: 2_000, transactions: 2 }]);
    expect(await ledgerViolations(env.DB)).toEqual([]);
    await env.DB.prepare("UPDATE daily_volume SET amount = amount + 1").run();
    const violations = await ledgerViolations(env.DB);
    expect(violations.map((violation) => violation.invariant)).toEqual([
      "the daily volume the overview reads is what the sealed transactions' entries say",
    ]);
    await env.DB.prepare("UPDATE daily_volume SET amount = amount - 1").run();
  });

  it("shows the latest recorded check rather than scanning the ledger on every visit", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const alice = await seedUser("alice", origin.now());
    const first = await overviewAs(support.auth);
    expect(first.data.ledger).toEqual({ violations: 0, checkedAt: new Date(origin.now()).toISOString() });
    const runs = () => env.DB.prepare("SELECT ran_by, violations FROM ledger_check_run ORDER BY id").all();

    // Broken after that check: the next visits within the hour show the recorded check, and run none.
    await env.DB.prepare("UPDATE account SET available = available + 1 WHERE owner_id = ?1").bind(alice.id).run();
    origin.advance(5 * 60 * 1000);
    expect((await overviewAs(support.auth)).data.ledger).toEqual(first.data.ledger);
    expect((await runs()).results).toEqual([{ ran_by: "overview", violations: 0 }]);

    // The cron's next check (due after ten minutes) finds it, and the overview shows that run.
    origin.advance(6 * 60 * 1000);
    const rules = await runTimeBasedRules(env.DB, origin.now());
    expect(rules.ledgerViolations).toBeGreaterThan(0);
    const after = await overviewAs(support.auth);
    expect(after.data.ledger.violations).toBe(rules.ledgerViolations);
    expect(after.data.ledger.checkedAt).toBe(new Date(origin.now()).toISOString());
    // Not due again within ten minutes.
    expect((await runTimeBasedRules(env.DB, origin.now() + 60_000)).ledgerViolations).toBeNull();

    // Without the cron for over an hour, the overview checks afresh by itself.
    await env.DB.prepare("UPDATE account SET available = available - 1 WHERE owner_id = ?1").bind(alice.id).run();
    origin.advance(61 * 60 * 1000);
    expect((await overviewAs(support.auth)).data.ledger).toEqual({ violations: 0, checkedAt: new Date(origin.now()).toISOString() });
    expect((await runs()).results.map((run) => run.ran_by)).toEqual(["overview", "cron", "overview"]);
  });

  it("is the same 404 as an unknown path for anyone who is not an operator", async () => {
    const alice = await seedUser("alice", origin.now());
    expect((await overviewAs(alice.auth)).status).toBe(404);
    expect((await overviewAs({})).status).toBe(404);
  });
});
