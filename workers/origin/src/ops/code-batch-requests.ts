/**
 * Code batches that wait for a second operator (docs/decisions/049-code-batches-need-a-second-operator.md):
 * what one operator may issue alone in 24 hours, what they did, and the requests past it.
 */
import type { CodeBatchRequest } from "#contract/ops-codes";
import { type DecisionColumns, decisionFieldsOf, secondOperatorSql } from "./maker-checker";

/** ¥1,000.00 unless configured: what one operator may issue alone in 24 hours, in fen (value × count). */
const defaultCodeApprovalThreshold = 100_000;
const aloneWindowMs = 24 * 60 * 60_000;

export function codeApprovalThresholdOf(env: Pick<Env, "CODE_BATCH_APPROVAL_THRESHOLD">): number {
  const configured = Number(env.CODE_BATCH_APPROVAL_THRESHOLD);
  return env.CODE_BATCH_APPROVAL_THRESHOLD && Number.isSafeInteger(configured) && configured >= 0
    ? configured
    : defaultCodeApprovalThreshold;
}

/**
 * What an operator (the first `?`) issued alone, no request approved, since a time (the
 * second), in fen: index `code_batch_alone`. Batches since voided count too: their codes were
 * shown. Anonymous parameters, so that a batch assertion can hold it (batch-assertion.ts).
 */
export const issuedAloneSql =
  "(SELECT coalesce(sum(value * count), 0) FROM code_batch WHERE issued_by = ? AND request_id IS NULL AND issued_at > ?)";

export async function issuedAlone(db: D1Database, operatorId: string, now: number): Promise<{ total: number; since: number }> {
  const since = now - aloneWindowMs;
  const total = await db.prepare(`SELECT ${issuedAloneSql} AS total`).bind(operatorId, since).first<number>("total");
  return { total: total ?? 0, since };
}

export type CodeBatchRequestRow = DecisionColumns & {
  id: string;
  value: number;
  count: number;
  expires_at: number;
  note: string;
  status: CodeBatchRequest["status"];
  requested_by: string;
  batch_id: string | null;
  /** Whether the operator reading it may approve or reject it: 1 or 0. */
  viewer_decides: number;
};

/**
 * Every column a request is shown with; `viewerDecides` is the SQL that says whether the reader
 * may decide on it (`codeBatchViewerDecidesSql`, or 0 where the route answers for what it just did).
 */
const requestSelect = (viewerDecides: string) => `
SELECT code_batch_request.id, code_batch_request.value, code_batch_request.count, code_batch_request.expires_at, code_batch_request.note,
       code_batch_request.status, code_batch_request.requested_by, code_batch_request.requested_at, code_batch_request.decided_at,
       code_batch_request.decision_note,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       code_batch.id AS batch_id, ${viewerDecides} AS viewer_decides
FROM code_batch_request
JOIN user AS requester ON requester.id = code_batch_request.requested_by
LEFT JOIN user AS decider ON decider.id = code_batch_request.decided_by
LEFT JOIN code_batch ON code_batch.request_id = code_batch_request.id`;

/**
 * Whether the operator `viewer` (an SQL parameter) may decide on a request of `code_batch_request`:
 * it waits, they did not ask for it, and they are a second operator to whoever did.
 */
export const codeBatchViewerDecidesSql = (viewer: string) =>
  `(code_batch_request.status = 'awaiting_approval' AND code_batch_request.requested_by <> ${viewer}
    AND ${secondOperatorSql(viewer, "code_batch_request.requested_at", "code_batch_request.requested_by", "finance")})`;

export function codeBatchRequestOf(row: CodeBatchRequestRow): CodeBatchRequest {
  return {
    id: row.id,
    value: row.value,
    count: row.count,
    expiresAt: new Date(row.expires_at).toISOString(),
    note: row.note,
    status: row.status,
    ...decisionFieldsOf(row),
    batch: row.batch_id,
    yoursToDecide: row.viewer_decides === 1,
  };
}

export function findCodeBatchRequest(db: D1Database, id: string): Promise<CodeBatchRequestRow | null> {
  // Read for what a route does with it: its answer then is nobody's to decide.
  return db
    .prepare(`${requestSelect("0")} WHERE code_batch_request.id = ?1`)
    .bind(id)
    .first<CodeBatchRequestRow>();
}

/** How long a request stays listed once decided, issued or past its expiry, so that whoever asked learns what became of it. */
const listedAfterMs = 7 * 24 * 60 * 60_000;

/**
 * Requests still to decide or issue (until a week after their expiry), and those decided or
 * issued in the last 7 days: newest first, at most 100.
 */
export async function listedCodeBatchRequests(db: D1Database, viewerId: string, now: number): Promise<CodeBatchRequest[]> {
  const rows = await db
    .prepare(
      `${requestSelect(codeBatchViewerDecidesSql("?2"))}
       WHERE (code_batch_request.status IN ('awaiting_approval', 'approved') AND code_batch_request.expires_at > ?1)
          OR code_batch_request.decided_at > ?1 OR code_batch.issued_at > ?1
       ORDER BY code_batch_request.requested_at DESC, code_batch_request.id DESC LIMIT 100`,
    )
    .bind(now - listedAfterMs, viewerId)
    .all<CodeBatchRequestRow>();
  return rows.results.map(codeBatchRequestOf);
}
