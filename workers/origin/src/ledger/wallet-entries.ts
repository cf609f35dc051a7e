import type { ReceiptKind, WalletEntriesFilter, WalletEntry, WalletEntryKind } from "#contract/wallet";
import { ApiError } from "../http/answer";

type EntryRow = {
  tx_id: string;
  seq: number;
  available: number;
  held: number;
  kind: WalletEntryKind;
  created_at: number;
  balance_after: number;
  note: string | null;
  order_id: string | null;
  task_id: string | null;
  task_title: string | null;
  other_handle: string | null;
  other_display_name: string | null;
  receipt_kind: ReceiptKind | null;
  receipt_id: string | null;
};

/** The line's kind as the contract names it (contract/wallet.ts), from its journal kind and what it did to the wallet. */
const kindSql = `CASE line.tx_kind
    WHEN 'code_redemption' THEN 'code_redeem'
    WHEN 'transfer' THEN CASE WHEN line.available < 0 THEN 'transfer_out' ELSE 'transfer_in' END
    WHEN 'escrow_hold' THEN 'task_budget'
    WHEN 'escrow_capture' THEN CASE WHEN line.held < 0 THEN 'task_reward_paid' ELSE 'task_reward' END
    WHEN 'escrow_release' THEN 'escrow_refund'
    WHEN 'refund' THEN 'refund'
    WHEN 'recharge' THEN 'recharge'
    ELSE 'other' END`;

/**
 * One line per journal transaction that touched the wallet. A transaction's entries in one
 * wallet are contiguous ids (one batch, and D1 runs batches one at a time), so a line is led
 * by its smallest entry id in the wallet (`seq`, the cursor) and ends at its largest
 * (`last_id`).
 *
 * Indexes: the lines are walked in `seq` order through entry_account (account_id, then the
 * rowid: no sort), each lead entry's transaction by journal_tx's primary key (the CROSS JOIN
 * keeps entry first), its sums and its earlier entries by entry_tx — named with INDEXED BY,
 * since SQLite would otherwise prefer entry_account_statement's two equal columns and read the
 * whole wallet for every line (5,000 lines: 3 s for a filter nothing matched, 13 ms now,
 * decision 026); ledger/statement.test.ts holds the plan. The walk stops at the
 * page's end, so an unfiltered page reads about two entries per line. A filter that few lines
 * match walks further (up to the wallet's first entry when the page does not fill). What a
 * line belongs to comes by unique keys on tx_id (transfer, claim_capture, refund_request,
 * wechat_refund_return, wechat_refund_settlement, wechat_refund_other_amount, escrow_release's
 * primary key) and payment_tx
 * (migration 0022).
 *
 * The balance after a line is the wallet's available balance now less every available entry
 * after the line: one sum of the entries newer than the page, then one over the page's own
 * span per line, both read from entry_account_statement alone (migration 0025). A page costs
 * the entries newer than it, read from that index: nothing for the first page.
 */
function pageSql(order: "newest" | "oldest"): string {
  const [after, direction] = order === "newest" ? ["<", "DESC"] : [">", "ASC"];
  return `
WITH page AS MATERIALIZED (
  SELECT line.*, ${kindSql} AS kind
  FROM (
    SELECT lead.id AS seq, lead.tx_id, journal_tx.kind AS tx_kind, journal_tx.created_at,
      (SELECT coalesce(sum(mine.amount), 0) FROM entry AS mine INDEXED BY entry_tx WHERE mine.tx_id = lead.tx_id AND mine.account_id = ?1 AND mine.bucket = 'available') AS available,
      (SELECT coalesce(sum(mine.amount), 0) FROM entry AS mine INDEXED BY entry_tx WHERE mine.tx_id = lead.tx_id AND mine.account_id = ?1 AND mine.bucket = 'held') AS held,
      (SELECT max(mine.id) FROM entry AS mine INDEXED BY entry_tx WHERE mine.tx_id = lead.tx_id AND mine.account_id = ?1) AS last_id
    FROM entry AS lead
    CROSS JOIN journal_tx ON journal_tx.id = lead.tx_id
    WHERE lead.account_id = ?1 AND lead.id ${after} ?2 AND lead.id <= ?8
      AND NOT EXISTS (SELECT 1 FROM entry AS earlier INDEXED BY entry_tx WHERE earlier.tx_id = lead.tx_id AND earlier.account_id = ?1 AND earlier.id < lead.id)
      AND journal_tx.created_at >= ?3 AND journal_tx.created_at < ?4
  ) AS line
  WHERE (?5 IS NULL OR ${kindSql} = ?5)
    AND (?6 IS NULL OR (?6 = 'in' AND line.available > 0) OR (?6 = 'out' AND line.available < 0))
  ORDER BY line.seq ${direction}
  LIMIT ?7
),
span AS MATERIALIZED (SELECT max(last_id) AS last FROM page),
newer AS MATERIALIZED (
  SELECT coalesce(sum(entry.amount), 0) AS total FROM entry
  WHERE entry.account_id = ?1 AND entry.bucket = 'available' AND entry.id > (SELECT last FROM span)
),
detail AS (
  SELECT page.*, transfer.id AS transfer_id, transfer.note, claim_capture.claim_id,
    coalesce(refund_request.id, returned_refund.request_id, returned_refund.out_refund_no,
      settled_refund.request_id, settled_refund.out_refund_no, other_amount_refund.request_id, other_amount_refund.out_refund_no) AS refund_id,
    (SELECT payment.id FROM payment WHERE payment.tx_id = page.tx_id LIMIT 1) AS payment_id,
    coalesce((SELECT order_id FROM payment WHERE payment.tx_id = page.tx_id LIMIT 1), refund_request.order_id, returned_refund.order_id,
      settled_refund.order_id, other_amount_refund.order_id) AS order_id,
    coalesce(claim.task_id, escrow_release.task_id,
      (SELECT task.id FROM payment JOIN task ON task.order_id = payment.order_id WHERE payment.tx_id = page.tx_id LIMIT 1)) AS task_id,
    CASE
      WHEN transfer.id IS NOT NULL THEN CASE WHEN transfer.from_user = ?9 THEN transfer.to_user ELSE transfer.from_user END
      WHEN claim.id IS NOT NULL THEN CASE WHEN claim.worker_id = ?9 THEN (SELECT poster_id FROM task WHERE task.id = claim.task_id) ELSE claim.worker_id END
    END AS other_user
  FROM page
  LEFT JOIN transfer ON transfer.tx_id = page.tx_id
  LEFT JOIN claim_capture ON claim_capture.tx_id = page.tx_id
  LEFT JOIN claim ON claim.id = claim_capture.claim_id
  LEFT JOIN escrow_release ON escrow_release.tx_id = page.tx_id
  LEFT JOIN refund_request ON refund_request.tx_id = page.tx_id
  -- A failed WeChat Pay refund returned to the wallet (decision 048): its order, and its receipt's
  -- refund (the operator's, or the automatic refund itself).
  LEFT JOIN wechat_refund_return ON wechat_refund_return.tx_id = page.tx_id
  LEFT JOIN wechat_refund AS returned_refund ON returned_refund.out_refund_no = wechat_refund_return.out_refund_no
  -- A refund paid twice, taken back from the wallet (decision 060): its order, and the refund's
  -- receipt, which then tells it reached the payer's card.
  LEFT JOIN wechat_refund_settlement ON wechat_refund_settlement.tx_id = page.tx_id
  LEFT JOIN wechat_refund AS settled_refund ON settled_refund.out_refund_no = wechat_refund_settlement.out_refund_no
  -- A parked refund WeChat Pay paid out for less than asked (decision 070): the rest, with its
  -- order and the refund's receipt.
  LEFT JOIN wechat_refund_other_amount ON wechat_refund_other_amount.tx_id = page.tx_id
  LEFT JOIN wechat_refund AS other_amount_refund ON other_amount_refund.out_refund_no = wechat_refund_other_amount.out_refund_no
)
SELECT detail.tx_id, detail.seq, detail.available, detail.held, detail.kind, detail.created_at, detail.note, detail.order_id,
  detail.task_id, task.title AS task_title, other.handle AS other_handle, other.display_name AS other_display_name,
  (SELECT available FROM account WHERE id = ?1) - (SELECT total FROM newer)
    - (SELECT coalesce(sum(later.amount), 0) FROM entry AS later
       WHERE later.account_id = ?1 AND later.bucket = 'available' AND later.id > detail.last_id AND later.id <= (SELECT last FROM span)) AS balance_after,
  CASE
    WHEN detail.transfer_id IS NOT NULL THEN 'transfer'
    WHEN detail.claim_id IS NOT NULL THEN 'reward'
    WHEN detail.refund_id IS NOT NULL THEN 'refund'
    WHEN detail.payment_id IS NOT NULL THEN 'payment'
  END AS receipt_kind,
  coalesce(detail.transfer_id, detail.claim_id, detail.refund_id, detail.payment_id) AS receipt_id
FROM detail
LEFT JOIN task ON task.id = detail.task_id
LEFT JOIN user AS other ON other.id = detail.other_user
ORDER BY detail.seq ${direction}`;
}

const newestFirstSql = pageSql("newest");
const oldestFirstSql = pageSql("oldest");

/** The statement's two queries, for the test that holds them to their indexes. */
export const statementSql = { newestFirst: newestFirstSql, oldestFirst: oldestFirstSql };

function entryFromRow(row: EntryRow): WalletEntry {
  return {
    id: row.tx_id,
    kind: row.kind,
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
    balanceAfter: row.balance_after,
    receipt: row.receipt_kind !== null && row.receipt_id !== null ? { kind: row.receipt_kind, id: row.receipt_id } : null,
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

const chinaStandardTimeMs = 8 * 60 * 60 * 1000;
const dayMs = 24 * 60 * 60 * 1000;

/** The moments [from, to) of the China Standard Time days from `from` to `to`, both included. */
function chinaDaysRange({ from, to }: { from?: string | undefined; to?: string | undefined }): { from: number; to: number } {
  return {
    from: from === undefined ? 0 : Date.parse(from) - chinaStandardTimeMs,
    to: to === undefined ? Number.MAX_SAFE_INTEGER : Date.parse(to) - chinaStandardTimeMs + dayMs,
  };
}

type EntryPageArgs = {
  userId: string;
  account: string;
  limit: number;
  cursor?: string | undefined;
  filter?: WalletEntriesFilter;
};
type EntryPage = { entries: WalletEntry[]; nextCursor: string | null };

function bindPage(
  statement: D1PreparedStatement,
  { userId, account, limit, filter = {} }: Omit<EntryPageArgs, "cursor">,
  after: number,
  upTo = Number.MAX_SAFE_INTEGER,
): D1PreparedStatement {
  const range = chinaDaysRange(filter);
  return statement.bind(account, after, range.from, range.to, filter.kind ?? null, filter.direction ?? null, limit, upTo, userId);
}

/**
 * A page of a wallet's history, newest first, as a statement to run alone or in a batch with
 * others (the back office's person page), and how to read its rows.
 */
export function walletEntryPageQuery(
  db: D1Database,
  args: EntryPageArgs,
): { statement: D1PreparedStatement; pageOf: (rows: unknown[]) => EntryPage } {
  const before = args.cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(args.cursor);
  const statement = bindPage(db.prepare(newestFirstSql), { ...args, limit: args.limit + 1 }, before);
  const pageOf = (rows: unknown[]): EntryPage => {
    const results = rows as EntryRow[];
    const page = results.slice(0, args.limit);
    const last = page.at(-1);
    return { entries: page.map(entryFromRow), nextCursor: results.length > args.limit && last ? encodeCursor(last.seq) : null };
  };
  return { statement, pageOf };
}

/** A page of a wallet's history, newest first, and the cursor of the next page (or null). */
export async function walletEntryPage(db: D1Database, args: EntryPageArgs): Promise<EntryPage> {
  const { statement, pageOf } = walletEntryPageQuery(db, args);
  const { results } = await statement.all<EntryRow>();
  return pageOf(results);
}

/**
 * The lines of some China Standard Time days, oldest first, `limit` at a time after the line
 * led by entry `after` and up to entry `upTo` (the wallet's last entry when the reading began,
 * so that what is written meanwhile does not join part way): the statement's CSV.
 */
export async function walletLinesOldestFirst(
  db: D1Database,
  args: { userId: string; account: string; limit: number; filter: Pick<WalletEntriesFilter, "from" | "to"> },
  page: { after: number; upTo: number },
): Promise<(WalletEntry & { seq: number })[]> {
  const { results } = await bindPage(db.prepare(oldestFirstSql), args, page.after, page.upTo).all<EntryRow>();
  return results.map((row) => ({ ...entryFromRow(row), seq: row.seq }));
}

/** The wallet's last entry id now (entry_account), 0 for a wallet without entries. */
export async function lastEntryOf(db: D1Database, account: string): Promise<number> {
  return (await db.prepare("SELECT max(id) AS last FROM entry WHERE account_id = ?1").bind(account).first<number>("last")) ?? 0;
}

/**
 * Money into and out of the available balance per China Standard Time month since `since`:
 * the wallet's available entries from entry_account_statement (account_id, bucket, id, tx_id,
 * amount) alone, summed per transaction, each transaction's time by journal_tx's primary key.
 * It reads the wallet's whole history of available entries, from the index only.
 */
export async function walletMonths(db: D1Database, account: string, since: number): Promise<{ month: string; in: number; out: number }[]> {
  const { results } = await db
    .prepare(
      `SELECT strftime('%Y-%m', (journal_tx.created_at + ?3) / 1000, 'unixepoch') AS month,
              sum(CASE WHEN line.amount > 0 THEN line.amount ELSE 0 END) AS money_in,
              sum(CASE WHEN line.amount < 0 THEN -line.amount ELSE 0 END) AS money_out
       FROM (SELECT tx_id, sum(amount) AS amount FROM entry WHERE account_id = ?1 AND bucket = 'available' GROUP BY tx_id) AS line
       CROSS JOIN journal_tx ON journal_tx.id = line.tx_id
       WHERE journal_tx.created_at >= ?2
       GROUP BY month ORDER BY month`,
    )
    .bind(account, since, chinaStandardTimeMs)
    .all<{ month: string; money_in: number; money_out: number }>();
  return results.map((row) => ({ month: row.month, in: row.money_in, out: row.money_out }));
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
