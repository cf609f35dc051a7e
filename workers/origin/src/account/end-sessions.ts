import { forgetKnownDevices } from "../auth/known-devices";
import type { SessionTime } from "../auth/sessions";

/**
 * Ending a person's sessions (docs/decisions/024-account-safety.md): with them go the ways a
 * new session could still be opened without the password — unused sign-in links and
 * recovery links — so a thief's foothold does not outlive the change. When the account is
 * being taken back (a new password, an admin signing it out everywhere), its unused recovery
 * codes go too: a thief who knew the password could have made a set of their own, and would
 * set the password again with one. So do its known devices, which a thief who knew the
 * password would hold too.
 *
 * The first statement ends the sessions still live under the deploy's idle limit: its changes
 * are what a person is told was signed out. The last ends the ones idle past it, which no
 * door accepts now but a longer limit set later would
 * (docs/decisions/057-deploy-session-idle-days.md).
 */
export function endSessionsStatements(
  db: D1Database,
  userId: string,
  { now, liveAfter }: SessionTime,
  { keepTokenHash = null, voidRecoveryCodes = false }: { keepTokenHash?: string | null; voidRecoveryCodes?: boolean } = {},
): D1PreparedStatement[] {
  const endSessions = "UPDATE session SET ended_at = ?1 WHERE user_id = ?2 AND ended_at IS NULL AND token_hash IS NOT ?3";
  return [
    db.prepare(`${endSessions} AND last_used_at > ?4`).bind(now, userId, keepTokenHash, liveAfter),
    db.prepare("UPDATE sign_in_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, userId),
    db.prepare("UPDATE recovery_link SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, userId),
    ...(voidRecoveryCodes
      ? [
          db.prepare("UPDATE recovery_code SET used_at = ?1 WHERE user_id = ?2 AND used_at IS NULL").bind(now, userId),
          // A thief who signed in with the password holds a device token: taken back, the
          // account knows no device, and the browser taking it back becomes the first again
          // (docs/decisions/061-known-devices.md).
          forgetKnownDevices(db, userId),
        ]
      : []),
    db.prepare(endSessions).bind(now, userId, keepTokenHash),
  ];
}
