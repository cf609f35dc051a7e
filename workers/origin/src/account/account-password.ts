import { ApiError } from "../http/answer";
import { type PasswordHash, verifyPassword } from "../auth/passwords";

/** Refuses (422 WRONG_PASSWORD, naming `field`) unless `password` is the account's. */
export async function checkCurrentPassword(db: D1Database, userId: string, password: string, field = "currentPassword"): Promise<void> {
  const row = await db
    .prepare("SELECT password_hash, password_salt, password_iterations FROM user WHERE id = ?1")
    .bind(userId)
    .first<{ password_hash: string | null; password_salt: string | null; password_iterations: number | null }>();
  const stored =
    row?.password_hash && row.password_salt && row.password_iterations
      ? { hash: row.password_hash, salt: row.password_salt, iterations: row.password_iterations }
      : null;
  if (!stored || !(await verifyPassword(password, stored))) {
    throw new ApiError("WRONG_PASSWORD", "That is not your current password.", field);
  }
}

export function setPasswordStatement(db: D1Database, userId: string, stored: PasswordHash): D1PreparedStatement {
  return db
    .prepare("UPDATE user SET password_hash = ?1, password_salt = ?2, password_iterations = ?3 WHERE id = ?4")
    .bind(stored.hash, stored.salt, stored.iterations, userId);
}
