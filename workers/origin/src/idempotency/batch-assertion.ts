/**
 * A statement that rolls its whole batch back unless `condition` (SQL, its `?` bound to `params`) holds
 * when the batch runs (migration 0011). A batch whose effect or answer was worked out from
 * an earlier read states that read with it, so a change in between cannot slip through.
 */
export function assertInBatch(db: D1Database, what: string, condition: string, ...params: unknown[]): D1PreparedStatement {
  return db.prepare(`INSERT INTO batch_assertion (what, holds) SELECT ?, (${condition})`).bind(what, ...params);
}

export function isFailedAssertion(error: unknown): boolean {
  return error instanceof Error && error.message.includes("batch_assertion");
}
