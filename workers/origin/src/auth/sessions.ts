import { daysMs, defaultTimeLimits } from "#contract/time-limits";
import type { UserInfo } from "#contract/user-info";
import { sessionIdleDaysOf } from "../deploy-limits/deploy-limits";

/**
 * A request's time for the sessions it reads: `now`, and the last use after which a session
 * is still live, the deploy's idle limit before `now` (docs/rules-and-limits.md,
 * docs/decisions/057-deploy-session-idle-days.md).
 */
export type SessionTime = { now: number; liveAfter: number };

export const sessionTime = (env: Pick<Env, "TIME_LIMITS">, now: number): SessionTime => ({
  now,
  liveAfter: now - daysMs(sessionIdleDaysOf(env)),
});

/**
 * No setting keeps a session for longer than the product's idle limit: a session unused this
 * long has ended under every deploy, and the cron may delete it.
 */
export const longestSessionIdleMs = daysMs(defaultTimeLimits.session.idleDays);

type SessionRow = {
  user_id: string;
  handle: string;
  display_name: string;
  created_at: number;
  available: number | null;
  held: number | null;
  locked_at: number | null;
};

/**
 * The signed-in user behind a token hash, or null when the session is unknown,
 * ended or idle too long. A hit renews the idle clock.
 */
export async function findSessionUser(db: D1Database, tokenHash: string, { now, liveAfter }: SessionTime): Promise<UserInfo | null> {
  // One round trip: renew the live session and read its user in the same statement.
  const row = await db
    .prepare(
      `UPDATE session SET last_used_at = ?1
       WHERE token_hash = ?2 AND ended_at IS NULL AND last_used_at > ?3
       RETURNING user_id,
         (SELECT handle FROM user WHERE id = session.user_id) AS handle,
         (SELECT display_name FROM user WHERE id = session.user_id) AS display_name,
         (SELECT created_at FROM user WHERE id = session.user_id) AS created_at,
         (SELECT available FROM account WHERE owner_id = session.user_id AND kind = 'user') AS available,
         (SELECT held FROM account WHERE owner_id = session.user_id AND kind = 'user') AS held,
         (SELECT locked_at FROM user WHERE id = session.user_id) AS locked_at`,
    )
    .bind(now, tokenHash, liveAfter)
    .first<SessionRow>();
  if (!row) return null;

  return {
    id: row.user_id,
    handle: row.handle,
    displayName: row.display_name,
    balances: { available: row.available ?? 0, held: row.held ?? 0 },
    currency: "CNY",
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.locked_at === null ? {} : { locked: true as const }),
  };
}

/**
 * For a batch that checks the session itself (docs/decisions/007-one-trip-transfers.md):
 * the statement that renews a live session, and SQL for its user's id (bind the token hash
 * and the time's `liveAfter`), NULL when the session is unknown, ended or idle too long.
 */
export function renewSessionStatement(db: D1Database, tokenHash: string, { now, liveAfter }: SessionTime): D1PreparedStatement {
  return db
    .prepare("UPDATE session SET last_used_at = ?1 WHERE token_hash = ?2 AND ended_at IS NULL AND last_used_at > ?3")
    .bind(now, tokenHash, liveAfter);
}

export const liveSessionUserSql = "SELECT user_id FROM session WHERE token_hash = ? AND ended_at IS NULL AND last_used_at > ?";
