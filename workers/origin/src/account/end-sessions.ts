/**
 * Ending a person's sessions (docs/decisions/024-account-safety.md): with them go the ways a
 * new session could still be opened without the password — unused sign-in links and
 * recovery links — so a thief's foothold does not outlive the change.
 */
export function endSessionsStatements(
  db: D1Database,
  userId: string,
  now: number,
  { keepTokenHash = null }: { keepTokenHash?: string | null } = {},
): D1PreparedStatement[] {
  return [
    db
      .prepare("UPDATE session SET ended_at = ?1 WHERE user_id = ?2 AND ended_at IS NULL AND token_hash IS NOT ?3")
      .bind(now, userId, keepTokenHash),
    db.prepare("UPDATE sign_in_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, userId),
    db.prepare("UPDATE recovery_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, userId),
  ];
}
