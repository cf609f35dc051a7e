/**
 * Issuing a batch of prepaid codes, the one way every issuer does it (the back office,
 * ADMIN_TOKEN's automation): the batch's row, then its codes — only their hashes — in one
 * statement, for the caller's batch (docs/decisions/016-ticket-desk-and-code-batches.md).
 */
import { ApiError } from "../http/answer";
import { codeHash, newCode } from "./code-values";

export type NewCodeBatch = {
  id: string;
  /** In clear: for the issuer's answer only, never stored. */
  codes: string[];
  value: number;
  expiresAt: number;
  issuedAt: number;
  note: string | null;
  /** The issuing operator's user id; null for automation. */
  issuedBy: string | null;
  /** The approved request it carries out, when a second operator approved it (decision 049). */
  requestId?: string;
};

export function newCodeBatch(fields: Omit<NewCodeBatch, "id" | "codes"> & { count: number }): NewCodeBatch {
  const { count, ...rest } = fields;
  return { id: `batch_${crypto.randomUUID()}`, codes: Array.from({ length: count }, newCode), ...rest };
}

/** The statements that issue the batch (its row first: migration 0018 refuses codes without one). */
export async function issueBatchStatements(db: D1Database, batch: NewCodeBatch): Promise<D1PreparedStatement[]> {
  const hashes = await Promise.all(batch.codes.map(codeHash));
  return [
    db
      .prepare(
        "INSERT INTO code_batch (id, value, count, note, expires_at, issued_by, issued_at, request_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
      )
      .bind(
        batch.id,
        batch.value,
        batch.codes.length,
        batch.note,
        batch.expiresAt,
        batch.issuedBy,
        batch.issuedAt,
        batch.requestId ?? null,
      ),
    // Up to 1,000 codes: one statement over a JSON array, as D1 binds at most 100 values a statement.
    db
      .prepare(
        `INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch)
         SELECT json_each.value, ?2, ?3, ?4, ?5 FROM json_each(?1)`,
      )
      .bind(JSON.stringify(hashes), batch.value, batch.expiresAt, batch.issuedAt, batch.id),
  ];
}

/**
 * What a retry of a request that issued codes hears (decision 016): the key's record is this
 * refusal, never the codes, which would otherwise sit in clear in the idempotency table.
 */
export function codesAlreadyShown(batchId: string): ApiError {
  return new ApiError(
    "CODES_ALREADY_SHOWN",
    `The codes of ${batchId} were shown once, in the first answer to this request, and are never shown again. If that answer was lost, void the batch and issue a new one.`,
  );
}
