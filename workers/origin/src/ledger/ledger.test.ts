import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { expectLedgerWhole, resetDatabase, seedUser } from "../../test/origin-client";
import { ledgerViolations } from "./invariants";
import { journalStatements, walletAccountOf, worldAccount } from "./journal";

const db = env.DB;
let alice = "";

beforeEach(async () => {
  await resetDatabase();
  alice = walletAccountOf((await seedUser("alice")).id);
});

function fund(id: string, amount: number) {
  return db.batch(
    journalStatements(db, {
      id,
      kind: "code_redemption",
      at: 1,
      postings: [
        { account: worldAccount, amount: -amount },
        { account: alice, amount },
      ],
    }),
  );
}

describe("the ledger's database guards (whatever the code above does)", () => {
  it("applies a balanced transaction to the balances", async () => {
    await fund("tx_1", 500);
    expect(await db.prepare("SELECT available FROM account WHERE id = ?1").bind(alice).first("available")).toBe(500);
    await expectLedgerWhole();
  });

  it("refuses to seal an unbalanced transaction, and rolls back the whole batch", async () => {
    await expect(
      db.batch([
        db.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_bad', 'transfer', 1)"),
        db.prepare(`INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_bad', '${worldAccount}', 'available', -100)`),
        db.prepare(`INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_bad', '${alice}', 'available', 101)`),
        db.prepare("INSERT INTO tx_seal (tx_id) VALUES ('tx_bad')"),
      ]),
    ).rejects.toThrow(/does not balance/);
    expect(await db.prepare("SELECT count(*) AS n FROM entry").first("n")).toBe(0);
    expect(await db.prepare("SELECT available FROM account WHERE id = ?1").bind(alice).first("available")).toBe(0);
  });

  it("refuses a one-sided transaction", async () => {
    await expect(
      db.batch([
        db.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_one', 'transfer', 1)"),
        db.prepare(`INSERT INTO tx_seal (tx_id) VALUES ('tx_one')`),
      ]),
    ).rejects.toThrow(/does not balance/);
  });

  it("refuses an overdraft of a user's wallet", async () => {
    await fund("tx_1", 100);
    await expect(
      db.batch(
        journalStatements(db, {
          id: "tx_over",
          kind: "transfer",
          at: 2,
          postings: [
            { account: alice, amount: -101 },
            { account: worldAccount, amount: 101 },
          ],
        }),
      ),
    ).rejects.toThrow(/account_not_negative/);
    await expectLedgerWhole();
  });

  it("never lets an entry, transaction or seal be edited or deleted", async () => {
    await fund("tx_1", 100);
    for (const statement of [
      "UPDATE entry SET amount = 1",
      "DELETE FROM entry",
      "UPDATE journal_tx SET kind = 'transfer'",
      "DELETE FROM journal_tx",
      "DELETE FROM tx_seal",
      "UPDATE tx_seal SET tx_id = 'x'",
    ]) {
      await expect(db.prepare(statement).run(), statement).rejects.toThrow(/immutable/);
    }
  });

  it("refuses entries added to a sealed transaction", async () => {
    await fund("tx_1", 100);
    await expect(
      db.prepare(`INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_1', '${alice}', 'available', 5)`).run(),
    ).rejects.toThrow(/sealed/);
  });

  it("refuses amounts of zero or beyond the exact range", async () => {
    for (const amount of [0, 2 ** 53]) {
      await expect(
        db.prepare(`INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES ('tx_x', '${alice}', 'available', ?1)`).bind(amount).run(),
      ).rejects.toThrow();
    }
  });

  it("the invariant check finds a balance changed outside the ledger", async () => {
    await fund("tx_1", 100);
    await db.prepare("UPDATE account SET available = available + 1 WHERE id = ?1").bind(alice).run();
    const violations = await ledgerViolations(db);
    expect(violations.map((violation) => violation.invariant)).toEqual([
      "money is conserved: all accounts sum to zero (the world account holds minus what came in)",
      "each account's buckets equal the sum of its entries",
    ]);
  });

  it("the invariant check finds an unsealed transaction", async () => {
    await db.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_open', 'transfer', 1)").run();
    expect((await ledgerViolations(db)).map((violation) => violation.invariant)).toEqual(["every transaction is sealed"]);
  });
});
