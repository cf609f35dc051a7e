/** Reading the audit trail (docs/decisions/014-back-office-desks.md), newest first by id. */
import type { AuditFilters, AuditRow } from "#contract/ops-audit";
import { ApiError } from "../http/answer";
import { iso } from "./ops-rows";
import { prepared, SqlConditions, type SqlQuery } from "./sql-conditions";

type AuditDbRow = {
  id: number;
  at: number;
  actor_kind: AuditRow["actorKind"];
  actor_handle: string | null;
  actor_role: AuditRow["actorRole"];
  action: string;
  object_type: string;
  object_id: string;
  before: string | null;
  after: string | null;
  reason: string | null;
  request_id: string | null;
};

/**
 * The rows the filters find with an id below `before`, newest first, at most `limit`. Ids
 * grow with every row written (AUTOINCREMENT, one writer), so they order the trail and are
 * the cursor. Which index serves it:
 * - actor: user.handle (UNIQUE), then audit_log_actor_newest (actor_id, id; migration 0020);
 * - action: audit_log_action (action, id; migration 0020);
 * - objectType and objectId: audit_log_object (object_type, object_id), in id order;
 * - otherwise the primary key, read backwards from the cursor; from and to are checked on
 *   the rows read (or looked up in audit_log_at when SQLite finds that cheaper).
 */
export function auditPageQuery(filters: AuditFilters, { before, limit }: { before: number | null; limit: number }): SqlQuery {
  const conditions = new SqlConditions();
  if (filters.actor !== undefined) conditions.add("audit_log.actor_id = (SELECT id FROM user WHERE handle = ?)", filters.actor);
  if (filters.action !== undefined) conditions.add("audit_log.action = ?", filters.action);
  if (filters.objectType !== undefined) conditions.add("audit_log.object_type = ?", filters.objectType);
  if (filters.objectId !== undefined) conditions.add("audit_log.object_id = ?", filters.objectId);
  if (filters.from !== undefined) conditions.add("audit_log.at >= ?", Date.parse(filters.from));
  if (filters.to !== undefined) conditions.add("audit_log.at < ?", Date.parse(filters.to));
  if (before !== null) conditions.add("audit_log.id < ?", before);
  return {
    sql: `SELECT audit_log.id, audit_log.at, audit_log.actor_kind, actor.handle AS actor_handle, audit_log.actor_role,
         audit_log.action, audit_log.object_type, audit_log.object_id, audit_log.before, audit_log.after,
         audit_log.reason, audit_log.request_id
       FROM audit_log LEFT JOIN user AS actor ON actor.id = audit_log.actor_id
       ${conditions.where}
       ORDER BY audit_log.id DESC LIMIT ?`,
    values: [...conditions.values, limit],
  };
}

function auditRowOf(row: AuditDbRow): AuditRow {
  return {
    id: row.id,
    at: iso(row.at),
    actorKind: row.actor_kind,
    actorHandle: row.actor_handle,
    actorRole: row.actor_role,
    action: row.action,
    objectType: row.object_type,
    objectId: row.object_id,
    before: row.before,
    after: row.after,
    reason: row.reason,
    requestId: row.request_id,
  };
}

/** A page of the trail; an unknown `actor` is 404 (field actor), checked in the same round trip. */
export async function auditPage(
  db: D1Database,
  filters: AuditFilters,
  position: { before: number | null; limit: number },
): Promise<AuditRow[]> {
  const statement = prepared(db, auditPageQuery(filters, position));
  const [page, actor] = await db.batch(
    filters.actor === undefined ? [statement] : [statement, db.prepare("SELECT id FROM user WHERE handle = ?1").bind(filters.actor)],
  );
  if (actor && actor.results.length === 0) throw new ApiError("NOT_FOUND", "No Paydesk account has that handle.", "actor");
  return ((page?.results ?? []) as AuditDbRow[]).map(auditRowOf);
}

/** The columns of the CSV export, and each row's cells in that order. */
export const auditCsvHeader = [
  "id",
  "at",
  "actor_kind",
  "actor_handle",
  "actor_role",
  "action",
  "object_type",
  "object_id",
  "before",
  "after",
  "reason",
  "request_id",
] as const;

export const auditCsvCells = (row: AuditRow) =>
  [
    row.id,
    row.at,
    row.actorKind,
    row.actorHandle,
    row.actorRole,
    row.action,
    row.objectType,
    row.objectId,
    row.before,
    row.after,
    row.reason,
    row.requestId,
  ] as const;
