/**
 * Writing CSV for the back office's exports, with csv-stringify (the csv project's stringifier,
 * its synchronous part: plain JavaScript, no Node streams).
 */
import { stringify } from "csv-stringify/sync";

/**
 * An amount of fen written in yuan with two decimals ("-25.00", the statement's CSV). It is
 * written as a number, so the formula guard leaves its minus sign alone, as it does a number's.
 */
type YuanCell = { readonly yuan: number };

/** A cell: text, a whole number, an amount in yuan, or nothing (an empty cell). */
export type CsvCell = string | number | null | YuanCell;

/** Fen as yuan with two decimals, exact (no floating point): -2505 → "-25.05". */
function yuanText(fen: number): string {
  const whole = Math.abs(fen);
  return `${fen < 0 ? "-" : ""}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`;
}

export const yuan = (fen: number): YuanCell => ({ yuan: fen });

const options = {
  // RFC 4180 ends records with CRLF; a cell holding a quote, a comma or a line break is quoted.
  record_delimiter: "windows",
  // Given a record delimiter, csv-stringify quotes only cells holding that exact delimiter
  // unless told otherwise: a lone LF or CR in a cell would then split the record.
  quote_record_delimiter: true,
  // A text cell starting with =, +, -, @, a tab or a CR (or their full-width forms) gets a
  // leading ', so that a spreadsheet shows it as text instead of running it as a formula.
  escape_formulas: true,
} as const;

/** One CSV record, its CRLF included. */
export function csvRecord(cells: readonly CsvCell[]): string {
  const yuanColumns = new Set<number>();
  const plain = cells.map((cell, index) => {
    if (cell === null || typeof cell !== "object") return cell;
    yuanColumns.add(index);
    return cell.yuan;
  });
  if (yuanColumns.size === 0) return stringify([plain], options);
  return stringify([plain], {
    ...options,
    cast: { number: (value, { index }) => (yuanColumns.has(index) ? yuanText(value) : String(value)) },
  });
}

/** Excel takes a CSV file for UTF-8 only when it starts with a byte order mark; without one, Chinese names are garbled. */
export const utf8Bom = "\uFEFF";

/**
 * A CSV file as a stream: the byte order mark and the header first, then one page of rows
 * each time the reader asks for more (no read-ahead: a high-water mark of 0), so that no
 * more than a page sits in memory however long the file. A page
 * that fails after the answer has started ends the stream with an error (the download is
 * cut short, never silently incomplete); `onError` reports it.
 */
export function csvStream<Row>({
  header,
  pages,
  cellsOf,
  onError,
}: {
  header: readonly string[];
  pages: AsyncIterator<readonly Row[]>;
  cellsOf: (row: Row) => readonly CsvCell[];
  onError: (error: unknown) => void;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(utf8Bom + csvRecord(header)));
          return;
        }
        try {
          const page = await pages.next();
          if (page.done) controller.close();
          else controller.enqueue(encoder.encode(page.value.map((row) => csvRecord(cellsOf(row))).join("")));
        } catch (error) {
          onError(error);
          controller.error(error);
        }
      },
      async cancel() {
        await pages.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
