import * as Sentry from "../error-reporting";
import { journalParts, walletAccountOf } from "../ledger/journal";
import { captureStatements } from "./claim-capture";
import { autoApproveAtSql } from "./claims";

/** How many claims or tasks one run handles per rule; the next minute's run takes the rest. */
const batchLimit = 50;

/**
 * One item's unexpected failure must not hold up the others: it is reported and counted
 * (migration 0031), and later runs try it again after the items that have not failed (each
 * item's write is one batch, so a failed one changed nothing).
 */
async function reportItemFailure(db: D1Database, rule: string, table: "claim" | "task", id: string, error: unknown): Promise<void> {
  console.error(`Time-based rule ${rule} failed for ${id}`, error);
  Sentry.captureException(error, { tags: { rule, item: id } });
  try {
    await db.prepare(`UPDATE ${table} SET rule_failures = rule_failures + 1 WHERE id = ?1`).bind(id).run();
  } catch (counting) {
    // The database that refused the item may refuse this too: the item keeps its place.
    console.error(`Counting the failure of ${id} failed`, counting);
  }
}

/** Claims not submitted in time lapse; their slots reopen (trigger `claim_frees_slot`). */
export async function lapseClaims(db: D1Database, now: number): Promise<number> {
  const lapsed = await db
    .prepare("UPDATE claim SET status = 'lapsed', decided_at = expires_at WHERE status = 'claimed' AND expires_at <= ?1 RETURNING id")
    .bind(now)
    .all();
  return lapsed.results.length;
}

/**
 * Submissions nobody checked by their `auto_approve_at` (72 hours after they were sent, or the
 * deploy's time then: docs/decisions/055-deploy-time-limits.md) are approved: the worker is paid. Not while the
 * poster is locked: their escrow stays until the unlock, when the next run pays what is due
 * (migration 0035, docs/decisions/013-account-locks.md).
 */
export async function autoApprove(db: D1Database, now: number): Promise<number> {
  const due = await db
    .prepare(
      `SELECT claim.id, claim.worker_id, task.poster_id, task.reward FROM claim JOIN task ON task.id = claim.task_id
       WHERE claim.status = 'submitted' AND ${autoApproveAtSql} <= ?1
         AND NOT EXISTS (SELECT 1 FROM user WHERE user.id = task.poster_id AND user.locked_at IS NOT NULL)
       ORDER BY claim.rule_failures, claim.submitted_at, claim.id LIMIT ?2`,
    )
    .bind(now, batchLimit)
    .all<{ id: string; worker_id: string; poster_id: string; reward: number }>();
  let approved = 0;
  for (const claim of due.results) {
    try {
      await db.batch(
        captureStatements(db, { claimId: claim.id, posterId: claim.poster_id, workerId: claim.worker_id, reward: claim.reward, at: now }),
      );
      approved += 1;
    } catch (error) {
      // The poster decided in the meantime, or was locked (the next run after the unlock pays it): nothing to do.
      if (!(error instanceof Error && /only a submitted claim|claim_capture\.claim_id|account_locked/.test(error.message)))
        await reportItemFailure(db, "auto-approve", "claim", claim.id, error);
    }
  }
  return approved;
}

/** Open tasks past their deadline close; no new claims. */
export async function closeAtDeadline(db: D1Database, now: number): Promise<number> {
  const closed = await db
    .prepare("UPDATE task SET status = 'closed' WHERE status = 'open' AND deadline <= ?1 RETURNING id")
    .bind(now)
    .all();
  return closed.results.length;
}

/**
 * Escrow a closed or cancelled task no longer needs goes back to its poster: all of it
 * but the rewards of claims still in progress (claimed or submitted).
 */
export async function releaseUnneededEscrow(db: D1Database, now: number, taskId?: string): Promise<number> {
  const candidates = await db
    .prepare(
      `SELECT task.id, task.poster_id, task.escrow_remaining,
              task.escrow_remaining - task.reward * (SELECT count(*) FROM claim WHERE claim.task_id = task.id AND claim.status IN ('claimed', 'submitted')) AS excess
       FROM task WHERE task.status IN ('closed', 'cancelled') AND (?1 IS NULL OR task.id = ?1)
       AND task.escrow_remaining > task.reward * (SELECT count(*) FROM claim WHERE claim.task_id = task.id AND claim.status IN ('claimed', 'submitted'))
       ORDER BY task.rule_failures, task.deadline, task.id LIMIT ?2`,
    )
    .bind(taskId ?? null, batchLimit)
    .all<{ id: string; poster_id: string; escrow_remaining: number; excess: number }>();
  let released = 0;
  for (const task of candidates.results) {
    try {
      await db.batch(
        escrowReleaseStatements(db, {
          taskId: task.id,
          posterId: task.poster_id,
          amount: task.excess,
          escrowBefore: task.escrow_remaining,
          at: now,
        }),
      );
      released += task.excess;
    } catch (error) {
      // Another run released first, or a claim moved: the next run computes afresh.
      if (!isEscrowChanged(error)) await reportItemFailure(db, "release-escrow", "task", task.id, error);
    }
  }
  return released;
}

/**
 * Escrow back from a closed or cancelled task's hold to its poster's available money. The
 * release row goes right after the transaction's own row: trigger `release_from_stated_escrow`
 * refuses it (and so the batch) unless the task still holds exactly `escrowBefore`.
 */
export function escrowReleaseStatements(
  db: D1Database,
  { taskId, posterId, amount, escrowBefore, at }: { taskId: string; posterId: string; amount: number; escrowBefore: number; at: number },
): D1PreparedStatement[] {
  const txId = `tx_${crypto.randomUUID()}`;
  const wallet = walletAccountOf(posterId);
  const { opening: openTx, entries: entriesAndSeal } = journalParts(db, {
    id: txId,
    kind: "escrow_release",
    at,
    postings: [
      { account: wallet, amount: -amount, bucket: "held" },
      { account: wallet, amount, bucket: "available" },
    ],
  });
  return [
    openTx,
    db
      .prepare("INSERT INTO escrow_release (tx_id, task_id, amount, escrow_before, at) VALUES (?1, ?2, ?3, ?4, ?5)")
      .bind(txId, taskId, amount, escrowBefore, at),
    ...entriesAndSeal,
  ];
}

export function isEscrowChanged(error: unknown): boolean {
  return error instanceof Error && error.message.includes("the escrow changed");
}
