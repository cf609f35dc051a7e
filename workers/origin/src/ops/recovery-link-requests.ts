/**
 * Recovery link requests as the back office reads them
 * (docs/decisions/062-recovery-links-need-a-second-admin.md).
 */
import type { RecoveryLinkRequest } from "#contract/ops-recovery-links";
import { type DecisionColumns, decisionFieldsOf, secondOperatorSql } from "./maker-checker";

export type RecoveryLinkRequestRow = DecisionColumns & {
  id: string;
  user_id: string;
  person_handle: string;
  person_name: string;
  reason: string;
  status: RecoveryLinkRequest["status"];
  requested_by: string;
  open_until: number;
  issued_at: number | null;
  /** Whether whoever approved it is still an unlocked admin: 1 or 0 (null before a decision). */
  approver_still_admin: number | null;
  /** Whether the person now holds an operator role: 1 or 0. */
  person_is_operator: number;
  /** Whether the admin reading it may approve or reject it: 1 or 0. */
  viewer_decides: number;
};

/**
 * Every column a request is shown with; `viewerDecides` is the SQL that says whether the reader
 * may decide on it (`recoveryLinkViewerDecidesSql`, or 0 where the route answers for what it just did).
 */
const requestSelect = (viewerDecides: string) => `
SELECT r.id, r.user_id, person.handle AS person_handle, person.display_name AS person_name, r.reason, r.status,
       r.requested_by, r.requested_at, r.open_until, r.decided_at, r.decision_note, r.issued_at,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       (SELECT count(*) FROM operator_role WHERE user_id = r.decided_by AND role = 'admin' AND decider.locked_at IS NULL)
         AS approver_still_admin,
       EXISTS (SELECT 1 FROM operator_role WHERE user_id = r.user_id) AS person_is_operator,
       ${viewerDecides} AS viewer_decides
FROM recovery_link_request AS r
JOIN user AS person ON person.id = r.user_id
JOIN user AS requester ON requester.id = r.requested_by
LEFT JOIN user AS decider ON decider.id = r.decided_by`;

/**
 * Whether the admin `viewer` (an SQL parameter) may decide on a request (`recovery_link_request
 * AS r`): it waits, they did not ask for it, it would not recover their own account, and they
 * are a second admin to whoever asked.
 */
export const recoveryLinkViewerDecidesSql = (viewer: string) =>
  `(r.status = 'awaiting_approval' AND r.requested_by <> ${viewer} AND r.user_id <> ${viewer}
    AND ${secondOperatorSql(viewer, "r.requested_at", "r.requested_by", "admin")})`;

export function recoveryLinkRequestOf(row: RecoveryLinkRequestRow): RecoveryLinkRequest {
  return {
    id: row.id,
    person: { id: row.user_id, handle: row.person_handle, displayName: row.person_name },
    reason: row.reason,
    status: row.status,
    openUntil: new Date(row.open_until).toISOString(),
    ...decisionFieldsOf(row),
    issuedAt: row.issued_at === null ? null : new Date(row.issued_at).toISOString(),
    yoursToDecide: row.viewer_decides === 1,
  };
}

export function findRecoveryLinkRequest(db: D1Database, id: string): Promise<RecoveryLinkRequestRow | null> {
  // Read for what a route does with it: its answer then is nobody's to decide.
  return db
    .prepare(`${requestSelect("0")} WHERE r.id = ?1`)
    .bind(id)
    .first<RecoveryLinkRequestRow>();
}

/** How long a request stays listed once decided, issued or closed, so that whoever asked learns what became of it. */
const listedAfterMs = 7 * 24 * 60 * 60_000;

/**
 * Requests still to decide or issue, and (unless `openOnly`) those asked for in the last 7
 * days: newest first, at most 100; of one person when `personId` is given.
 */
export async function listedRecoveryLinkRequests(
  db: D1Database,
  viewerId: string,
  now: number,
  { personId, openOnly = false }: { personId?: string; openOnly?: boolean } = {},
): Promise<RecoveryLinkRequest[]> {
  const rows = await db
    .prepare(
      `${requestSelect(recoveryLinkViewerDecidesSql("?5"))}
       WHERE ((r.status IN ('awaiting_approval', 'approved') AND r.open_until > ?1) OR (NOT ?4 AND r.requested_at > ?2))
         AND (?3 IS NULL OR r.user_id = ?3)
       ORDER BY r.requested_at DESC, r.id DESC LIMIT 100`,
    )
    .bind(now, now - listedAfterMs, personId ?? null, openOnly ? 1 : 0, viewerId)
    .all<RecoveryLinkRequestRow>();
  return rows.results.map(recoveryLinkRequestOf);
}
