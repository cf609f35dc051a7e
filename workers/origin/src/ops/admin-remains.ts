import { assertInBatch } from "../idempotency/batch-assertion";

/**
 * Some admin who can act remains (decisions 012 and 013): one with the role and not locked,
 * since a locked admin is refused at the back office's door. Stated in every batch that
 * changes a role or locks an account, so two such changes at once cannot both take away
 * the last one.
 */
export const anUnlockedAdminRemains = (db: D1Database) =>
  assertInBatch(
    db,
    "an unlocked admin remains",
    "(SELECT count(*) FROM operator_role JOIN user ON user.id = operator_role.user_id WHERE role = 'admin' AND user.locked_at IS NULL) >= 1",
  );
