/** WeChat's sign-ins under way, and the openid each gave for a person and an appid (migration 0049). */

/** A sign-in's state, the person's own for the appid, until `expiresAt`. */
export function saveSignInState(
  db: D1Database,
  sign: { state: string; userId: string; appid: string; createdAt: number; expiresAt: number },
): Promise<D1Result> {
  return db
    .prepare("INSERT INTO wechat_sign_in (state, user_id, appid, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)")
    .bind(sign.state, sign.userId, sign.appid, sign.createdAt, sign.expiresAt)
    .run();
}

export async function findPayerOpenid(db: D1Database, userId: string, appid: string): Promise<string | null> {
  const row = await db
    .prepare("SELECT openid FROM wechat_payer WHERE user_id = ?1 AND appid = ?2")
    .bind(userId, appid)
    .first<{ openid: string }>();
  return row?.openid ?? null;
}

/** The latest sign-in's openid replaces an earlier one: the person may have changed WeChat accounts. */
export function savePayerOpenid(db: D1Database, userId: string, appid: string, openid: string, now: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO wechat_payer (user_id, appid, openid, signed_in_at) VALUES (?1, ?2, ?3, ?4)
       ON CONFLICT (user_id, appid) DO UPDATE SET openid = excluded.openid, signed_in_at = excluded.signed_in_at`,
    )
    .bind(userId, appid, openid, now);
}
