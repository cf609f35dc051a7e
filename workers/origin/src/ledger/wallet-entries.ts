import type { WalletEntry, WalletEntryKind } from "#contract/wallet";
import { ApiError } from "../http/answer";
import type { JournalKind } from "./journal";

type EntryRow = {
  tx_id: string;
  seq: number;
  available: number;
  held: number;
  kind: JournalKind | string;
  created_at: number;
  window_rows: number;
  note: string | null;
  order_id: string | null;
  task_id: string | null;
  task_title: string | null;
  other_handle: string | null;
  other_display_name: string | null;
};

/**
 * One line per journal transaction that touched the wallet, newest first. Entries of one
 * transaction are contiguous ids (one batch, and D1 runs batches one at a time), so a
 * transaction's smallest entry id orders it and is the cursor. The scan is bounded: the
 * page's transactions are found among the wallet's newest `window` entries, then summed
 * over all their entries; today a transaction has at most two entries in one wallet
 * (available and held), so `2 × (limit + 1)` entries hold `limit + 1` transactions.
 */
const pageSql = `
WITH recent AS (
  SELECT id, tx_id FROM entry WHERE account_id = ?1 AND id < ?2 ORDER BY id DESC LIMIT ?3
),
page AS (
  SELECT entry.tx_id, min(entry.id) AS seq,
         sum(CASE WHEN entry.bucket = 'available' THEN entry.amount ELSE 0 END) AS available,
         sum(CASE WHEN entry.bucket = 'held' THEN entry.amount ELSE 0 END) AS held
  FROM entry
  WHERE entry.account_id = ?1 AND entry.tx_id IN (SELECT tx_id FROM recent)
  GROUP BY entry.tx_id ORDER BY seq DESC LIMIT ?4
),
detail AS (
  SELECT page.*, journal_tx.kind, journal_tx.created_at, transfer.note,
    coalesce((SELECT order_id FROM payment WHERE payment.tx_id = page.tx_id LIMIT 1),
      (SELECT order_id FROM refund_request WHERE refund_request.tx_id = page.tx_id)) AS order_id,
    coalesce(claim.task_id, escrow_release.task_id,
      (SELECT task.id FROM payment JOIN task ON task.order_id = payment.order_id WHERE payment.tx_id = page.tx_id LIMIT 1)) AS task_id,
    CASE
      WHEN transfer.id IS NOT NULL THEN CASE WHEN transfer.from_user = ?5 THEN transfer.to_user ELSE transfer.from_user END
      WHEN claim.id IS NOT NULL THEN CASE WHEN claim.worker_id = ?5 THEN (SELECT poster_id FROM task WHERE task.id = claim.task_id) ELSE claim.worker_id END
    END AS other_user
  FROM page
  JOIN journal_tx ON journal_tx.id = page.tx_id
  LEFT JOIN transfer ON transfer.tx_id = page.tx_id
  LEFT JOIN claim_capture ON claim_capture.tx_id = page.tx_id
  LEFT JOIN claim ON claim.id = claim_capture.claim_id
  LEFT JOIN escrow_release ON escrow_release.tx_id = page.tx_id
)
SELECT detail.tx_id, detail.seq, detail.available, detail.held, detail.kind, detail.created_at, detail.note, detail.order_id,
  detail.task_id, task.title AS task_title, other.handle AS other_handle, other.display_name AS other_display_name,
  (SELECT count(*) FROM recent) AS window_rows
FROM detail
LEFT JOIN task ON task.id = detail.task_id
LEFT JOIN user AS other ON other.id = detail.other_user
ORDER BY detail.seq DESC`;

function kindOf(row: EntryRow): WalletEntryKind {
  switch (row.kind) {
    case "code_redemption":
      return "code_redeem";
    case "transfer":
      return row.available < 0 ? "transfer_out" : "transfer_in";
    case "escrow_hold":
      return "task_budget";
    case "escrow_capture":
      return row.held < 0 ? "task_reward_paid" : "task_reward";
    case "escrow_release":
      return "escrow_refund";
    case "refund":
      return "refund";
    case "recharge":
      return "recharge";
    default:
      return "other";
  }
}

function entryFromRow(row: EntryRow): WalletEntry {
  return {
    id: row.tx_id,
    kind: kindOf(row),
    amount: row.available,
    held: row.held,
    counterparty:
      row.other_handle !== null && row.other_display_name !== null
        ? { handle: row.other_handle, displayName: row.other_display_name }
        : null,
    task: row.task_id !== null && row.task_title !== null ? { id: row.task_id, title: row.task_title } : null,
    orderId: row.order_id,
    note: row.note,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function encodeCursor(seq: number): string {
  return btoa(`entry:${seq}`).replace(/=+$/, "");
}

function decodeCursor(cursor: string): number {
  try {
    const match = /^entry:(\d{1,15})$/.exec(atob(cursor));
    if (!match?.[1]) throw new Error("malformed");
    return Number(match[1]);
  } catch {
    throw new ApiError("BAD_REQUEST", "The cursor is not one this API gave.", "cursor");
  }
}

type EntryPageArgs = { userId: string; account: string; limit: number; cursor?: string | undefined };
type EntryPage = { entries: WalletEntry[]; nextCursor: string | null };

/**
 * A page of a wallet's history as a statement, to run alone or in a batch with others (the
 * back office's person page), and how to read its rows.
 */
export function walletEntryPageQuery(
  db: D1Database,
  { userId, account, limit, cursor }: EntryPageArgs,
): { statement: D1PreparedStatement; pageOf: (rows: unknown[]) => EntryPage } {
  const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(cursor);
  const window = 2 * (limit + 1);
  const statement = db.prepare(pageSql).bind(account, before, window, limit + 1, userId);
  const pageOf = (rows: unknown[]): EntryPage => {
    const results = rows as EntryRow[];
    const page = results.slice(0, limit);
    const last = page.at(-1);
    // More lines exist when this answer had one line more than the page, or when the window
    // was full (a transaction with more entries in one wallet than today's could short it).
    const more = results.length > limit || (results[0]?.window_rows ?? 0) >= window;
    return { entries: page.map(entryFromRow), nextCursor: more && last ? encodeCursor(last.seq) : null };
  };
  return { statement, pageOf };
}

/** A page of a wallet's history, newest first, and the cursor of the next page (or null). */
export async function walletEntryPage(db: D1Database, args: EntryPageArgs): Promise<EntryPage> {
  const { statement, pageOf } = walletEntryPageQuery(db, args);
  const { results } = await statement.all<EntryRow>();
  return pageOf(results);
}

/** The counts the home screen shows: claims still to submit, and submissions to check. */
export async function taskCounts(
  db: D1Database,
  userId: string,
  now: number,
): Promise<{ claimsToSubmit: number; submissionsToCheck: number }> {
  const row = await db
    .prepare(
      `SELECT
         (SELECT count(*) FROM claim WHERE worker_id = ?1 AND status = 'claimed' AND expires_at > ?2) AS claims_to_submit,
         (SELECT count(*) FROM claim JOIN task ON task.id = claim.task_id WHERE task.poster_id = ?1 AND claim.status = 'submitted') AS to_check`,
    )
    .bind(userId, now)
    .first<{ claims_to_submit: number; to_check: number }>();
  return { claimsToSubmit: row?.claims_to_submit ?? 0, submissionsToCheck: row?.to_check ?? 0 };
}
