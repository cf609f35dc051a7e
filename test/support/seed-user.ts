/**
 * SQL for a user who is signed in without the sign-in flow: the user, their wallet and a
 * live session. The token is stored as the origin stores tokens, only as its SHA-256 hex;
 * an opening balance arrives through the ledger, as a redeemed code's would, so that the
 * ledger's own checks still hold for the seeded database.
 */
import { createHash } from "node:crypto";

export type SeedUser = { id: string; handle: string; displayName: string; token: string; available?: number };

/** A text literal: the values are the callers' own, but a quote must not end the statement. */
const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

export function seedUserSql(user: SeedUser, now = Date.now()): string[] {
  const wallet = text(`acc_${user.id}`);
  const id = text(user.id);
  const tokenHash = createHash("sha256").update(user.token).digest("hex");
  const statements = [
    `INSERT INTO user (id, handle, display_name, created_at) VALUES (${id}, ${text(user.handle)}, ${text(user.displayName)}, ${now})`,
    `INSERT INTO account (id, owner_id, kind) VALUES (${wallet}, ${id}, 'user')`,
  ];
  const available = user.available ?? 0;
  if (available > 0) {
    const tx = text(`tx_seed_${user.id}`);
    statements.push(
      `INSERT INTO journal_tx (id, kind, created_at) VALUES (${tx}, 'code_redemption', ${now})`,
      `INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (${tx}, 'acc_world', 'available', ${-available})`,
      `INSERT INTO entry (tx_id, account_id, bucket, amount) VALUES (${tx}, ${wallet}, 'available', ${available})`,
      `INSERT INTO tx_seal (tx_id) VALUES (${tx})`,
    );
  }
  statements.push(`INSERT INTO session (token_hash, user_id, created_at, last_used_at) VALUES ('${tokenHash}', ${id}, ${now}, ${now})`);
  return statements;
}
