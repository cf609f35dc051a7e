/**
 * Writing to the ledger. A money movement is one journal transaction: its entries, in
 * one D1 batch with the effect they belong to, closed by the seal — the trigger on
 * `tx_seal` refuses it unless the entries balance. Balances follow from the entries
 * (trigger `entry_applies_to_balance`), and `account_not_negative` refuses an overdraft.
 */
export const worldAccount = "acc_world";
/**
 * Paydesk's own money covering what WeChat Pay paid out beyond what Paydesk owed (migration
 * 0038): outside the wallets, like the world (docs/decisions/060-refunds-paid-twice.md, 070).
 */
export const paydeskCoveredAccount = "acc_paydesk_covered";

export type JournalKind =
  | "code_redemption"
  | "transfer"
  | "escrow_hold"
  | "escrow_capture"
  | "escrow_release"
  | "refund"
  // WeChat Pay (migration 0013): a recharge paid; a payment no order can take, held for its refund.
  | "recharge"
  | "payment_to_refund";
/**
 * An account by id, or found by SQL inside the batch (`?` bound to `params`), for a batch
 * that learns who is involved only as it runs; an account not found fails the entry's NOT NULL.
 */
type PostingAccount = string | { sql: string; params: unknown[] };
export type Posting = { account: PostingAccount; amount: number; bucket?: "available" | "held" };

export function walletAccountOf(userId: string): string {
  return `acc_${userId}`;
}

export function journalStatements(
  db: D1Database,
  tx: { id: string; kind: JournalKind; at: number; postings: Posting[] },
): D1PreparedStatement[] {
  const sum = tx.postings.reduce((total, posting) => total + posting.amount, 0);
  if (tx.postings.length < 2 || sum !== 0 || tx.postings.some((posting) => !Number.isSafeInteger(posting.amount))) {
    // The database would refuse it too; failing here names the bug.
    throw new Error(`Journal transaction ${tx.id} does not balance: ${JSON.stringify(tx.postings)}`);
  }
  return [
    db.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES (?1, ?2, ?3)").bind(tx.id, tx.kind, tx.at),
    ...tx.postings.map(({ account, amount, bucket = "available" }) =>
      typeof account === "string"
        ? db.prepare("INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?1, ?2, ?3, ?4)").bind(tx.id, account, bucket, amount)
        : db
            .prepare(`INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (?, (${account.sql}), ?, ?)`)
            .bind(tx.id, ...account.params, bucket, amount),
    ),
    db.prepare("INSERT INTO tx_seal (tx_id) VALUES (?1)").bind(tx.id),
  ];
}

/**
 * A transaction's statements in two parts: its own row, which a row naming the transaction
 * (a transfer, a capture, a refund) must follow in the batch, and its entries and seal.
 */
export function journalParts(
  db: D1Database,
  tx: Parameters<typeof journalStatements>[1],
): { opening: D1PreparedStatement; entries: D1PreparedStatement[] } {
  const [opening, ...entries] = journalStatements(db, tx);
  if (!opening) throw new Error("A journal transaction starts with its own row.");
  return { opening, entries };
}

/** Whether a failed batch was refused because a wallet would have gone below zero. */
export function isOverdraft(error: unknown): boolean {
  return error instanceof Error && error.message.includes("account_not_negative");
}
