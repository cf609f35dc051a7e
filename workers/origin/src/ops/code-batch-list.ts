/**
 * What the back office reads about code batches (docs/decisions/016-ticket-desk-and-code-batches.md):
 * each batch with where its codes are — redeemed, still redeemable, voided, expired.
 */
import type { CodeBatch } from "#contract/ops-codes";
import { decodeTimeIdCursor, encodeTimeIdCursor } from "./time-id-cursor";

const codeBatchPageSize = 50;

export type CodeBatchRow = {
  id: string;
  value: number;
  count: number;
  note: string | null;
  expires_at: number;
  issued_at: number;
  voided_at: number | null;
  voided_count: number | null;
  issuer_handle: string | null;
  issuer_display_name: string | null;
  voider_handle: string | null;
  voider_display_name: string | null;
  redeemed: number;
  /** Codes of the batch with no redemption (voided or not). */
  not_redeemed: number;
};

/** The codes of batch `?` not redeemed: what a void takes out of use. */
export const unredeemedCodesSql = `(SELECT count(*) FROM prepaid_code WHERE prepaid_code.batch = ?
  AND NOT EXISTS (SELECT 1 FROM code_redemption WHERE code_redemption.code_hash = prepaid_code.code_hash))`;

const codeBatchSelect = `
  SELECT code_batch.id, code_batch.value, code_batch.count, code_batch.note, code_batch.expires_at, code_batch.issued_at,
         code_batch.voided_at, code_batch.voided_count,
         issuer.handle AS issuer_handle, issuer.display_name AS issuer_display_name,
         voider.handle AS voider_handle, voider.display_name AS voider_display_name,
         (SELECT count(*) FROM prepaid_code JOIN code_redemption ON code_redemption.code_hash = prepaid_code.code_hash
          WHERE prepaid_code.batch = code_batch.id) AS redeemed,
         (SELECT count(*) FROM prepaid_code WHERE prepaid_code.batch = code_batch.id
            AND NOT EXISTS (SELECT 1 FROM code_redemption WHERE code_redemption.code_hash = prepaid_code.code_hash)) AS not_redeemed
  FROM code_batch
  LEFT JOIN user AS issuer ON issuer.id = code_batch.issued_by
  LEFT JOIN user AS voider ON voider.id = code_batch.voided_by`;

const personOf = (handle: string | null, displayName: string | null) =>
  handle === null ? null : { handle, displayName: displayName ?? handle };
const isoOf = (at: number) => new Date(at).toISOString();

/**
 * Every code in one place: redeemed; else voided, when its batch was (no code of a voided
 * batch is redeemed after the void: migration 0018); else expired; else still redeemable.
 */
export function codeBatchFromRow(row: CodeBatchRow, now: number): CodeBatch {
  const voided = row.voided_at !== null;
  const expired = !voided && row.expires_at <= now;
  return {
    id: row.id,
    value: row.value,
    count: row.count,
    redeemed: row.redeemed,
    unredeemed: voided || expired ? 0 : row.not_redeemed,
    voided: voided ? (row.voided_count ?? 0) : 0,
    expired: expired ? row.not_redeemed : 0,
    note: row.note,
    issuedBy: personOf(row.issuer_handle, row.issuer_display_name),
    issuedAt: isoOf(row.issued_at),
    expiresAt: isoOf(row.expires_at),
    voidedAt: row.voided_at === null ? null : isoOf(row.voided_at),
    voidedBy: personOf(row.voider_handle, row.voider_display_name),
  };
}

/** Batches newest first (by issued_at, then id), a page at a time. */
export async function codeBatchPage(
  db: D1Database,
  { cursor, now }: { cursor?: string; now: number },
): Promise<{ batches: CodeBatch[]; nextCursor: string | null }> {
  const before = cursor ? decodeTimeIdCursor(cursor) : null;
  const rows = await db
    .prepare(
      `${codeBatchSelect}
       WHERE ?1 IS NULL OR code_batch.issued_at < ?1 OR (code_batch.issued_at = ?1 AND code_batch.id < ?2)
       ORDER BY code_batch.issued_at DESC, code_batch.id DESC LIMIT ?3`,
    )
    .bind(before?.at ?? null, before?.id ?? "", codeBatchPageSize + 1)
    .all<CodeBatchRow>();
  const page = rows.results.slice(0, codeBatchPageSize);
  const last = page.at(-1);
  return {
    batches: page.map((row) => codeBatchFromRow(row, now)),
    nextCursor: rows.results.length > codeBatchPageSize && last ? encodeTimeIdCursor({ at: last.issued_at, id: last.id }) : null,
  };
}

export async function findCodeBatch(db: D1Database, id: string): Promise<CodeBatchRow | null> {
  return db.prepare(`${codeBatchSelect} WHERE code_batch.id = ?1`).bind(id).first<CodeBatchRow>();
}
