/**
 * The statement's CSV (docs/decisions/026-statement-and-receipts.md): the lines of some China
 * Standard Time days, oldest first, streamed a page at a time through the back office's CSV
 * writer (ops/csv.ts), so a year of lines never sits in memory.
 */
import * as Sentry from "../error-reporting";
import { walletExportColumns, type WalletEntry } from "#contract/wallet";
import { type CsvCell, csvStream, yuan } from "../ops/csv";
import { lastEntryOf, walletLinesOldestFirst } from "./wallet-entries";

type Line = WalletEntry & { seq: number };

/** Lines read per D1 query while the CSV streams: what sits in memory at once. */
export const exportPageLines = 200;

const chinaStandardTimeMs = 8 * 60 * 60 * 1000;

/** A moment as China Standard Time with its offset: 2026-11-01T08:00:00+08:00. */
function chinaTime(iso: string): string {
  return `${new Date(Date.parse(iso) + chinaStandardTimeMs).toISOString().slice(0, 19)}+08:00`;
}

const cellsOf = (line: Line): CsvCell[] => [
  chinaTime(line.createdAt),
  line.kind,
  line.counterparty?.handle ?? null,
  line.counterparty?.displayName ?? null,
  line.note || line.task?.title || null,
  line.orderId,
  yuan(line.amount),
  line.amount,
  line.held,
  yuan(line.balanceAfter),
  line.balanceAfter,
  line.id,
];

type ExportArgs = { db: D1Database; userId: string; account: string; from: string; to: string };

/** The range's lines page by page, from the first one, read as the CSV's reader asks for more. */
async function* linePages({ db, userId, account, from, to }: ExportArgs, upTo: number, first: Line[]): AsyncGenerator<Line[]> {
  let page = first;
  for (;;) {
    if (page.length > 0) yield page;
    const after = page.at(-1)?.seq;
    if (page.length < exportPageLines || after === undefined) return;
    page = await walletLinesOldestFirst(db, { userId, account, limit: exportPageLines, filter: { from, to } }, { after, upTo });
  }
}

/**
 * The CSV's body. The wallet's last entry and the first page are read before the answer starts,
 * so that a failing database is still an answer of its own (500) rather than a cut-off download;
 * lines written while the file streams are not in it.
 */
export async function walletExportBody(args: ExportArgs): Promise<ReadableStream<Uint8Array>> {
  const upTo = await lastEntryOf(args.db, args.account);
  const first = await walletLinesOldestFirst(
    args.db,
    { userId: args.userId, account: args.account, limit: exportPageLines, filter: { from: args.from, to: args.to } },
    { after: 0, upTo },
  );
  return csvStream({
    header: walletExportColumns,
    pages: linePages(args, upTo, first),
    cellsOf,
    onError: (error) => {
      console.error("A statement's CSV stopped part way", error);
      Sentry.captureException(error);
    },
  });
}
