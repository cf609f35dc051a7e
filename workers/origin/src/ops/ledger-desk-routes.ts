/**
 * The ledger desk (docs/decisions/014-back-office-desks.md): the ledger's check, one journal
 * transaction with its entries and what it belongs to, and every entry of a date range as
 * CSV. Finance and admins (right ledger). Reading changes nothing and is not audited; an
 * export is: every person's money, by handle, leaves Paydesk in it, so the trail says who
 * took which range, and when (docs/decisions/014-back-office-desks.md).
 */
import * as Sentry from "../error-reporting";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { errorContent, jsonContent, operatorSession, successEnvelope } from "#contract/openapi";
import {
  type JournalTx,
  journalTxIdParamSchema,
  journalTxSchema,
  ledgerCheckSchema,
  ledgerEntriesCsvQuerySchema,
} from "#contract/ops-ledger";
import { ApiError } from "../http/answer";
import { validationHook } from "../http/validation";
import { runLedgerCheck } from "../ledger/recorded-check";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { operatorActor, requestIdOf } from "./operator-actor";
import { type CsvCell, csvStream } from "./csv";
import { operatorWith } from "./operator-access";
import { forbiddenUnless, notAnOperator } from "./route-answers";

const forbidden = forbiddenUnless("ledger: finance and admin");

const check = createRoute({
  method: "get",
  path: "/check",
  summary: "The ledger's invariants, checked now: every row that breaks one (finance and admin)",
  security: operatorSession,
  responses: {
    200: jsonContent(successEnvelope(ledgerCheckSchema), "The violations found (none when the ledger is whole)"),
    403: forbidden,
    404: notAnOperator,
  },
});

const transaction = createRoute({
  method: "get",
  path: "/transactions/{id}",
  summary: "One journal transaction: its entries, whose accounts they touch, its seal and what it belongs to (finance and admin)",
  security: operatorSession,
  request: { params: journalTxIdParamSchema },
  responses: {
    200: jsonContent(successEnvelope(journalTxSchema), "The transaction"),
    400: errorContent("BAD_REQUEST: not a journal transaction id (field id)"),
    403: forbidden,
    404: errorContent("NOT_FOUND: there is no such transaction (field id), or not signed in as an operator"),
  },
});

const entriesCsv = createRoute({
  method: "get",
  path: "/entries.csv",
  // Named here: the generated name would keep the path's dot.
  operationId: "getOpsLedgerEntriesCsv",
  summary:
    "Every entry of the journal transactions created in [from, to) as a CSV file, in entry order (finance and admin; each export is audited as ledger.export)",
  security: operatorSession,
  request: { query: ledgerEntriesCsvQuerySchema },
  responses: {
    200: {
      description:
        "UTF-8 with a byte order mark, CRLF line ends, a header line (entry_id, tx_id, tx_kind, created_at, account_id, " +
        "owner_handle, bucket, amount_fen), then one line per entry in entry id order; text cells that begin with =, +, -, " +
        "@, a tab or a CR are prefixed with ' so that spreadsheets show them as text",
      headers: {
        "Content-Disposition": { description: "attachment, with a file name", schema: { type: "string" } },
      },
      content: { "text/csv": { schema: z.string() } },
    },
    400: errorContent(
      "BAD_REQUEST: from or to is missing or not a date and time, to is not after from, or the range is longer than 366 days (field names it)",
    ),
    403: forbidden,
    404: notAnOperator,
  },
});

type EntryRow = {
  id: number;
  account_id: string;
  account_kind: JournalTx["entries"][number]["accountKind"];
  owner_id: string | null;
  owner_handle: string | null;
  owner_name: string | null;
  bucket: "available" | "held";
  amount: number;
};

type TxRow = {
  id: string;
  kind: string;
  created_at: number;
  sealed: number;
  transfer_id: string | null;
  order_id: string | null;
  payment_id: string | null;
  refund_request_id: string | null;
  wechat_refund_no: string | null;
  claim_id: string | null;
  task_id: string | null;
  code_batch_id: string | null;
};

/**
 * A transaction and what it belongs to: each LEFT JOIN is served by a unique index on the
 * row's tx_id (transfer, refund_request, claim_capture, code_redemption, wechat_refund's
 * in_tx_id and out_tx_id, wechat_refund_return, wechat_refund_settlement, escrow_release's
 * primary key) or by payment_tx (migration 0022); the rest by primary keys. A failed refund's
 * return to a wallet names its refund through wechat_refund_return (decision 048), and the
 * settlement of one paid twice through wechat_refund_settlement (decision 060); a parked
 * refund settled for another amount is its refund's own out_tx_id (decision 070). At most one
 * row of each table names a transaction.
 */
export const transactionSql = `SELECT journal_tx.id, journal_tx.kind, journal_tx.created_at, tx_seal.tx_id IS NOT NULL AS sealed,
              transfer.id AS transfer_id,
              coalesce(payment.order_id, refund_request.order_id, wechat_refund.order_id) AS order_id,
              coalesce(payment.id, refund_request.payment_id, wechat_refund.payment_id) AS payment_id,
              coalesce(refund_request.id, wechat_refund.request_id) AS refund_request_id,
              wechat_refund.out_refund_no AS wechat_refund_no,
              claim_capture.claim_id,
              coalesce(claim.task_id, escrow_release.task_id) AS task_id,
              prepaid_code.batch AS code_batch_id
       FROM journal_tx
       LEFT JOIN tx_seal ON tx_seal.tx_id = journal_tx.id
       LEFT JOIN transfer ON transfer.tx_id = journal_tx.id
       LEFT JOIN payment ON payment.tx_id = journal_tx.id
       LEFT JOIN refund_request ON refund_request.tx_id = journal_tx.id
       LEFT JOIN wechat_refund_return ON wechat_refund_return.tx_id = journal_tx.id
       LEFT JOIN wechat_refund_settlement ON wechat_refund_settlement.tx_id = journal_tx.id
       LEFT JOIN wechat_refund ON wechat_refund.in_tx_id = journal_tx.id OR wechat_refund.out_tx_id = journal_tx.id
         OR wechat_refund.out_refund_no = wechat_refund_return.out_refund_no
         OR wechat_refund.out_refund_no = wechat_refund_settlement.out_refund_no
       LEFT JOIN claim_capture ON claim_capture.tx_id = journal_tx.id
       LEFT JOIN claim ON claim.id = claim_capture.claim_id
       LEFT JOIN escrow_release ON escrow_release.tx_id = journal_tx.id
       LEFT JOIN code_redemption ON code_redemption.tx_id = journal_tx.id
       LEFT JOIN prepaid_code ON prepaid_code.code_hash = code_redemption.code_hash
       WHERE journal_tx.id = ?1
       LIMIT 1`;

function transactionQuery(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(transactionSql).bind(id);
}

/** A transaction's entries in the order written, each with its account and the wallet's owner: entry_tx, then primary keys. */
export const transactionEntriesSql = `SELECT entry.id, entry.account_id, account.kind AS account_kind,
              user.id AS owner_id, user.handle AS owner_handle, user.display_name AS owner_name, entry.bucket, entry.amount
       FROM entry
       JOIN account ON account.id = entry.account_id
       LEFT JOIN user ON user.id = account.owner_id AND account.kind = 'user'
       WHERE entry.tx_id = ?1
       ORDER BY entry.id`;

function transactionEntriesQuery(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(transactionEntriesSql).bind(id);
}

type CsvRow = {
  id: number;
  tx_id: string;
  tx_kind: string;
  created_at: number;
  account_id: string;
  owner_handle: string | null;
  bucket: string;
  amount: number;
};

const csvHeader = ["entry_id", "tx_id", "tx_kind", "created_at", "account_id", "owner_handle", "bucket", "amount_fen"] as const;
const csvCells = (row: CsvRow): CsvCell[] => [
  row.id,
  row.tx_id,
  row.tx_kind,
  new Date(row.created_at).toISOString(),
  row.account_id,
  row.owner_handle,
  row.bucket,
  row.amount,
];

/** Entries read per D1 query while the CSV streams: what sits in memory at once. */
const csvPageRows = 500;

/**
 * The first and last entry id of the range's transactions: journal_tx_created_at (migration
 * 0021) finds the transactions created in [from, to), entry_tx their entries (the index holds
 * each entry's id, so the table itself is not read).
 */
export const entryBoundsSql = `SELECT min(entry.id) AS first, max(entry.id) AS last
       FROM journal_tx JOIN entry ON entry.tx_id = journal_tx.id
       WHERE journal_tx.created_at >= ?1 AND journal_tx.created_at < ?2`;

function entryBoundsQuery(db: D1Database, range: { from: number; to: number }): D1PreparedStatement {
  return db.prepare(entryBoundsSql).bind(range.from, range.to);
}

/**
 * A page of the range's entries after an entry id: entry's own primary key, bounded by the
 * range's last entry (`entryBoundsQuery`), walked in id order — no sort and no re-reading of
 * the range for every page — each entry's transaction by its primary key (the CROSS JOIN keeps
 * entry first, so SQLite does not prefer journal_tx_created_at and sort every page). Entries
 * are written with their transaction, so the ids of a range's entries are nearly contiguous.
 */
export const entryPageSql = `SELECT entry.id, entry.tx_id, journal_tx.kind AS tx_kind, journal_tx.created_at, entry.account_id,
              user.handle AS owner_handle, entry.bucket, entry.amount
       FROM entry
       CROSS JOIN journal_tx ON journal_tx.id = entry.tx_id
       JOIN account ON account.id = entry.account_id
       LEFT JOIN user ON user.id = account.owner_id AND account.kind = 'user'
       WHERE entry.id > ?3 AND entry.id <= ?4 AND journal_tx.created_at >= ?1 AND journal_tx.created_at < ?2
       ORDER BY entry.id
       LIMIT ?5`;

function entryPageQuery(
  db: D1Database,
  range: { from: number; to: number },
  page: { after: number; last: number; limit: number },
): D1PreparedStatement {
  return db.prepare(entryPageSql).bind(range.from, range.to, page.after, page.last, page.limit);
}

/** The range's entries page by page from the first one, read as the CSV's reader asks for more. */
async function* entryPages(db: D1Database, range: { from: number; to: number }, last: number, first: CsvRow[]): AsyncGenerator<CsvRow[]> {
  let page = first;
  for (;;) {
    if (page.length > 0) yield page;
    const after = page.at(-1)?.id;
    if (page.length < csvPageRows || after === undefined) return;
    page = (await entryPageQuery(db, range, { after, last, limit: csvPageRows }).all<CsvRow>()).results;
  }
}

/** A moment for a file name: 20261101T000000Z. */
const stampOf = (at: number) => new Date(at).toISOString().replace(/[-:]|\.\d+/g, "");

export const ledgerDeskRoutes = new OpenAPIHono<OriginEnv>({ defaultHook: validationHook });
ledgerDeskRoutes.use("*", operatorWith("ledger"));

ledgerDeskRoutes.openapi(check, async (c) => {
  const violations = await runLedgerCheck(c.env.DB, c.var.clock.now(), "operator");
  return c.json({ code: "SUCCESS" as const, data: { violations, checkedAt: new Date(c.var.clock.now()).toISOString() } }, 200);
});

ledgerDeskRoutes.openapi(transaction, async (c) => {
  const { id } = c.req.valid("param");
  const db = c.env.DB;
  const [head, entries] = await db.batch([transactionQuery(db, id), transactionEntriesQuery(db, id)]);
  const tx = head?.results[0] as TxRow | undefined;
  if (!tx) throw new ApiError("NOT_FOUND", "There is no such transaction.", "id");
  const data: JournalTx = {
    id: tx.id,
    kind: tx.kind,
    createdAt: new Date(tx.created_at).toISOString(),
    sealed: tx.sealed === 1,
    entries: ((entries?.results ?? []) as EntryRow[]).map((entry) => ({
      id: entry.id,
      accountId: entry.account_id,
      accountKind: entry.account_kind,
      owner:
        entry.owner_id !== null && entry.owner_handle !== null && entry.owner_name !== null
          ? { id: entry.owner_id, handle: entry.owner_handle, displayName: entry.owner_name }
          : null,
      bucket: entry.bucket,
      amount: entry.amount,
    })),
    belongsTo: {
      transferId: tx.transfer_id,
      orderId: tx.order_id,
      paymentId: tx.payment_id,
      refundRequestId: tx.refund_request_id,
      wechatRefundNo: tx.wechat_refund_no,
      claimId: tx.claim_id,
      taskId: tx.task_id,
      codeBatchId: tx.code_batch_id,
    },
  };
  return c.json({ code: "SUCCESS" as const, data }, 200);
});

ledgerDeskRoutes.openapi(entriesCsv, async (c) => {
  const query = c.req.valid("query");
  const range = { from: Date.parse(query.from), to: Date.parse(query.to) };
  const db = c.env.DB;
  // The bounds and the first page are read before the answer starts, so that a failing
  // database is still an answer of its own (500) rather than a cut-off download. The last
  // entry id is fixed now: entries written while the file streams are not in it.
  const bounds = await entryBoundsQuery(db, range).first<{ first: number | null; last: number | null }>();
  const first =
    bounds?.first == null || bounds.last == null
      ? []
      : (await entryPageQuery(db, range, { after: bounds.first - 1, last: bounds.last, limit: csvPageRows }).all<CsvRow>()).results;
  // No file leaves without its row in the audit trail: a failing write answers 500 instead.
  await auditStatement(db, {
    actor: operatorActor(c),
    action: "ledger.export",
    object: { type: "ledger", id: `${query.from}/${query.to}` },
    after: { from: query.from, to: query.to, lastEntryId: bounds?.last ?? null },
    requestId: requestIdOf(c),
    at: c.var.clock.now(),
  }).run();
  const body = csvStream({
    header: csvHeader,
    pages: entryPages(db, range, bounds?.last ?? 0, first),
    cellsOf: csvCells,
    onError: (error) => {
      console.error("The ledger's entries CSV stopped part way", error);
      Sentry.captureException(error);
    },
  });
  return c.body(body, 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="paydesk-entries-${stampOf(range.from)}-${stampOf(range.to)}.csv"`,
    // Wallets and their owners' money: not for any cache on the way.
    "Cache-Control": "no-store",
  });
});
