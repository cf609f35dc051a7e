import type { UserInfo } from "../../../../app/api/user-info";

/** A token unused for this long stops working (PRODUCT.md §4). */
export const sessionIdleLimitMs = 30 * 24 * 60 * 60 * 1000;

type SessionRow = {
  user_id: string;
  handle: string;
  display_name: string;
  created_at: number;
  available: number | null;
  held: number | null;
};

/**
 * The signed-in user behind a token hash, or null when the session is unknown,
 * ended or idle too long. A hit renews the idle clock.
 */
export async function findSessionUser(db: D1Database, tokenHash: string, now: number): Promise<UserInfo | null> {
  const idleSince = now - sessionIdleLimitMs;
  // Renewing and reading in one statement: the renewal only happens for a live session.
  const renewed = await db
    .prepare(
      `UPDATE session SET last_used_at = ?1
       WHERE token_hash = ?2 AND ended_at IS NULL AND last_used_at > ?3
       RETURNING user_id`,
    )
    .bind(now, tokenHash, idleSince)
    .first<{ user_id: string }>();
  if (!renewed) return null;

  const row = await db
    .prepare(
      `SELECT user.id AS user_id, user.handle, user.display_name, user.created_at,
              account.available, account.held
       FROM user LEFT JOIN account ON account.owner_id = user.id AND account.kind = 'user'
       WHERE user.id = ?1`,
    )
    .bind(renewed.user_id)
    .first<SessionRow>();
  if (!row) return null;

  return {
    id: row.user_id,
    handle: row.handle,
    displayName: row.display_name,
    balances: { available: row.available ?? 0, held: row.held ?? 0 },
    currency: "CNY",
    createdAt: new Date(row.created_at).toISOString(),
  };
}
