/**
 * The audit trail (docs/decisions/012-operators-and-audit.md): one append-only row per
 * operator or automation action, returned as a statement for the batch of the action's own
 * effect, so that there is never an effect without its row, nor a row without its effect.
 */
import type { OperatorRole } from "./roles";

export type AuditActor = { kind: "operator"; userId: string; role: OperatorRole } | { kind: "automation" } | { kind: "cli" };

export type AuditEntry = {
  actor: AuditActor;
  action: string;
  object: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  reason?: string;
  requestId?: string | null;
  at: number;
};

const summary = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

export function auditStatement(db: D1Database, entry: AuditEntry): D1PreparedStatement {
  const { actor } = entry;
  return db
    .prepare(
      `INSERT INTO audit_log (at, actor_kind, actor_id, actor_role, action, object_type, object_id, before, after, reason, request_id)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
    )
    .bind(
      entry.at,
      actor.kind,
      actor.kind === "operator" ? actor.userId : null,
      actor.kind === "operator" ? actor.role : null,
      entry.action,
      entry.object.type,
      entry.object.id,
      summary(entry.before),
      summary(entry.after),
      entry.reason ?? null,
      entry.requestId ?? null,
    );
}
