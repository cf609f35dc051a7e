import type { Claim } from "#contract/tasks";
import { defaultTimeLimits, hoursMs } from "#contract/time-limits";

export type ClaimRow = {
  id: string;
  task_id: string;
  worker_id: string;
  worker_handle: string;
  worker_display_name: string;
  poster_id: string;
  title: string;
  reward: number;
  /** As stored: a claim given up is stored lapsed, with `withdrawn_at` (migration 0034). */
  status: Exclude<Claim["status"], "withdrawn">;
  expires_at: number;
  proof_text: string | null;
  proof_url: string | null;
  reject_reason: string | null;
  created_at: number;
  submitted_at: number | null;
  /** When the submission is approved unless its poster decides first: fixed when it is submitted (migration 0037). */
  auto_approve_at: number | null;
  decided_at: number | null;
  withdrawn_at: number | null;
};

/**
 * When a submission is approved unless its poster decides first. A submission sent by code
 * older than migration 0037 (during a deploy, between the migration and the new code) has none
 * stored, and had the product's 72 hours.
 */
export const autoApproveAtSql = `coalesce(claim.auto_approve_at, claim.submitted_at + ${hoursMs(defaultTimeLimits.claim.autoApproveHours)})`;

export const claimSelect = `SELECT claim.id, claim.task_id, claim.worker_id, worker.handle AS worker_handle,
  worker.display_name AS worker_display_name, task.poster_id, task.title, task.reward, claim.status, claim.expires_at,
  claim.proof_text, claim.proof_url, claim.reject_reason, claim.created_at, claim.submitted_at, ${autoApproveAtSql} AS auto_approve_at,
  claim.decided_at, claim.withdrawn_at
  FROM claim JOIN task ON task.id = claim.task_id JOIN user AS worker ON worker.id = claim.worker_id`;

const isoOrNull = (at: number | null) => (at === null ? null : new Date(at).toISOString());

export function claimFromRow(row: ClaimRow): Claim {
  return {
    id: row.id,
    task: { id: row.task_id, title: row.title, reward: row.reward },
    worker: { handle: row.worker_handle, displayName: row.worker_display_name },
    status: row.withdrawn_at === null ? row.status : "withdrawn",
    expiresAt: new Date(row.expires_at).toISOString(),
    proof: row.proof_text === null ? null : { text: row.proof_text, url: row.proof_url },
    rejectReason: row.reject_reason,
    createdAt: new Date(row.created_at).toISOString(),
    submittedAt: isoOrNull(row.submitted_at),
    autoApproveAt: isoOrNull(row.auto_approve_at),
    decidedAt: isoOrNull(row.decided_at),
  };
}

/** A claim as its worker (`worker`) or its task's poster (`poster`) may see it; anyone else: null. */
export async function findClaim(db: D1Database, claimId: string, who: { worker?: string; poster?: string }): Promise<ClaimRow | null> {
  return db
    .prepare(`${claimSelect} WHERE claim.id = ?1 AND (claim.worker_id = ?2 OR task.poster_id = ?3)`)
    .bind(claimId, who.worker ?? null, who.poster ?? null)
    .first<ClaimRow>();
}
