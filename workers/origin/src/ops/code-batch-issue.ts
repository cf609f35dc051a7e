/**
 * Issuing a batch from the back office, alone or as a second operator approved it
 * (docs/decisions/016-ticket-desk-and-code-batches.md, 049): the batch, its codes' hashes and
 * the audit row in one batch, the codes in this answer only.
 */
import type { Context } from "hono";
import { formatCode } from "#contract/codes";
import { codesAlreadyShown, issueBatchStatements, type NewCodeBatch } from "../codes/code-batches";
import type { OriginEnv } from "../origin-env";
import { auditStatement } from "./audit";
import { codeBatchCsv } from "./code-batch-csv";
import { codeBatchFromRow } from "./code-batch-list";
import { operatorActor, requestIdOf } from "./operator-actor";

export async function commitIssue(c: Context<OriginEnv>, batch: NewCodeBatch, alsoInBatch: D1PreparedStatement[] = []) {
  const db = c.env.DB;
  const operator = c.var.operator;
  const { value, note, expiresAt, issuedAt: now } = batch;
  const count = batch.codes.length;
  const codes = batch.codes.map(formatCode);
  const expiry = new Date(expiresAt).toISOString();
  const issued = codeBatchFromRow(
    {
      id: batch.id,
      value,
      count,
      note,
      expires_at: expiresAt,
      issued_at: now,
      voided_at: null,
      voided_count: null,
      issuer_handle: operator.handle,
      issuer_display_name: operator.displayName,
      voider_handle: null,
      voider_display_name: null,
      redeemed: 0,
      not_redeemed: count,
    },
    now,
  );
  return c.var.idempotency.commit(
    [
      ...(await issueBatchStatements(db, batch)),
      ...alsoInBatch,
      auditStatement(db, {
        actor: operatorActor(c),
        action: "codes.issue",
        object: { type: "code_batch", id: batch.id },
        // Never the codes: they are bearer value.
        after: { value, count, expiresAt: expiry, note, ...(batch.requestId ? { request: batch.requestId } : {}) },
        requestId: requestIdOf(c),
        at: now,
      }),
    ],
    201,
    { code: "SUCCESS" as const, data: { batch: issued, codes, csv: codeBatchCsv(codes, value, expiry) } },
    {
      // Shown once (decision 014): the key's record is this refusal, not the codes, which
      // would otherwise sit in clear in the idempotency table and answer every retry. A
      // client that lost the answer learns the batch's id here, voids it and issues anew.
      replayAs: codesAlreadyShown(batch.id),
    },
  );
}
