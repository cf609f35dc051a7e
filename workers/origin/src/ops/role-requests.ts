/**
 * Requests for a role that raises someone's rights, as the back office reads them
 * (docs/decisions/063-role-raises-need-a-second-admin.md).
 */
import type { RoleRequest } from "#contract/ops-role-requests";
import { assertInBatch } from "../idempotency/batch-assertion";
import { type DecisionColumns, decisionFieldsOf, secondOperatorSql } from "./maker-checker";
import type { OperatorRole } from "./roles";

export type RoleRequestRow = DecisionColumns & {
  id: string;
  user_id: string;
  person_handle: string;
  person_name: string;
  role: OperatorRole;
  role_before: OperatorRole | null;
  reason: string;
  status: RoleRequest["status"];
  requested_by: string;
  open_until: number;
  /** The role the person holds now. */
  role_now: OperatorRole | null;
  /** Whether whoever asked is still an unlocked admin: 1 or 0. */
  asker_still_admin: number;
  /** Whether the admin reading it may decide on it: 1 or 0. */
  viewer_decides: number;
};

/**
 * Whether the admin `viewer` (an SQL parameter) may decide on a request (`role_request AS r`):
 * it waits, they did not ask for it, and they are a second admin to whoever asked.
 */
export const roleViewerDecidesSql = (viewer: string) =>
  `(r.status = 'awaiting_approval' AND r.requested_by <> ${viewer} AND ${secondOperatorSql(viewer, "r.requested_at", "r.requested_by", "admin")})`;

/** The requests, as `viewer` (an SQL parameter: the reading admin's id) sees them. */
const requestSelect = (viewer: string) => `
SELECT r.id, r.user_id, person.handle AS person_handle, person.display_name AS person_name, r.role, r.role_before,
       r.reason, r.status, r.requested_by, r.requested_at, r.open_until, r.decided_at, r.decision_note,
       requester.handle AS requester_handle, requester.display_name AS requester_name,
       decider.handle AS decider_handle, decider.display_name AS decider_name,
       (SELECT role FROM operator_role WHERE user_id = r.user_id) AS role_now,
       (SELECT count(*) FROM operator_role WHERE user_id = r.requested_by AND role = 'admin' AND requester.locked_at IS NULL)
         AS asker_still_admin,
       ${roleViewerDecidesSql(viewer)} AS viewer_decides
FROM role_request AS r
JOIN user AS person ON person.id = r.user_id
JOIN user AS requester ON requester.id = r.requested_by
LEFT JOIN user AS decider ON decider.id = r.decided_by`;

export type ClosedReason = NonNullable<RoleRequest["closed"]>;

/**
 * Whether a request (`role_request AS r`) may still be approved at `now` (an SQL parameter):
 * `closedReasonOf` as SQL, for a count of what waits for a decision.
 */
export const roleRequestApprovableSql = (now: string) =>
  `(r.open_until > ${now}
    AND EXISTS (SELECT 1 FROM operator_role JOIN user AS asker ON asker.id = operator_role.user_id
                WHERE operator_role.user_id = r.requested_by AND operator_role.role = 'admin' AND asker.locked_at IS NULL)
    AND (SELECT role FROM operator_role WHERE user_id = r.user_id) IS r.role_before)`;

/** Why a request awaiting a decision can no longer be approved, read at `now`; null if it can. */
export function closedReasonOf(row: RoleRequestRow, now: number): ClosedReason | null {
  if (row.status !== "awaiting_approval") return null;
  if (row.open_until <= now) return "day_passed";
  if (!row.asker_still_admin) return "asker_not_admin";
  if (row.role_now !== row.role_before) return "role_changed";
  return null;
}

export function roleRequestOf(row: RoleRequestRow, now: number): RoleRequest {
  return {
    id: row.id,
    person: { handle: row.person_handle, displayName: row.person_name },
    role: row.role,
    roleBefore: row.role_before,
    reason: row.reason,
    status: row.status,
    openUntil: new Date(row.open_until).toISOString(),
    ...decisionFieldsOf(row),
    closed: closedReasonOf(row, now),
    yoursToDecide: row.viewer_decides === 1,
  };
}

export function findRoleRequest(db: D1Database, id: string, viewerId: string): Promise<RoleRequestRow | null> {
  return db
    .prepare(`${requestSelect("?2")} WHERE r.id = ?1`)
    .bind(id, viewerId)
    .first<RoleRequestRow>();
}

/**
 * No request for this person still waits for a decision, stated in the batch that asks: of
 * two admins asking at once, one lands (and an ask while one waits fails the same way).
 */
export const noOpenRoleRequest = (db: D1Database, userId: string, now: number) =>
  assertInBatch(
    db,
    "no open role request",
    "NOT EXISTS (SELECT 1 FROM role_request WHERE user_id = ? AND status = 'awaiting_approval' AND open_until > ?)",
    userId,
    now,
  );

/** How long a request stays listed once decided or closed, so that whoever asked learns what became of it. */
const listedAfterMs = 7 * 24 * 60 * 60_000;

/** Requests still waiting for a decision, and those asked for in the last 7 days: newest first, at most 100. */
export async function listedRoleRequests(db: D1Database, now: number, viewerId: string): Promise<RoleRequest[]> {
  const rows = await db
    .prepare(
      `${requestSelect("?3")}
       WHERE (r.status = 'awaiting_approval' AND r.open_until > ?1) OR r.requested_at > ?2
       ORDER BY r.requested_at DESC, r.id DESC LIMIT 100`,
    )
    .bind(now, now - listedAfterMs, viewerId)
    .all<RoleRequestRow>();
  return rows.results.map((row) => roleRequestOf(row, now));
}
