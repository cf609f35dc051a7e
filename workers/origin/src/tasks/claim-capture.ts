/** Paying a worker for an approved claim: by the poster (claim-routes) or at its `auto_approve_at` (task-rules). */
import { journalParts, walletAccountOf } from "../ledger/journal";

/**
 * The reward of an approved claim: the poster's held money to the worker's wallet, and
 * the capture row whose key and trigger allow it once, for a submitted claim only.
 */
export function captureStatements(
  db: D1Database,
  { claimId, posterId, workerId, reward, at }: { claimId: string; posterId: string; workerId: string; reward: number; at: number },
): D1PreparedStatement[] {
  const txId = `tx_${crypto.randomUUID()}`;
  const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
    id: txId,
    kind: "escrow_capture",
    at,
    postings: [
      { account: walletAccountOf(posterId), amount: -reward, bucket: "held" },
      { account: walletAccountOf(workerId), amount: reward, bucket: "available" },
    ],
  });
  // The capture row right after the transaction's: its guard speaks before any entry moves money.
  return [
    openTx,
    db.prepare("INSERT INTO claim_capture (claim_id, tx_id, amount, at) VALUES (?1, ?2, ?3, ?4)").bind(claimId, txId, reward, at),
    ...entriesAndSeal,
  ];
}
