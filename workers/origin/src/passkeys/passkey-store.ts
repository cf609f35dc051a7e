import type { Passkey } from "#contract/passkeys";
import { fromBase64url } from "./base64url";
import type { WebAuthnCredential } from "@simplewebauthn/server";

type PasskeyRow = {
  id: string;
  credential_id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string;
  device_type: "singleDevice" | "multiDevice";
  backed_up: number;
  name: string;
  created_at: number;
  last_used_at: number | null;
};

const columns = "id, credential_id, user_id, public_key, counter, transports, device_type, backed_up, name, created_at, last_used_at";

/** As the API shows it: never the key or the credential's id. */
export function passkeyOf(row: Pick<PasskeyRow, "id" | "name" | "created_at" | "last_used_at" | "device_type" | "backed_up">): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
    synced: row.device_type === "multiDevice",
    backedUp: row.backed_up === 1,
  };
}

export const returningPasskey = `RETURNING ${columns}`;
export type { PasskeyRow };

export async function passkeysOf(db: D1Database, userId: string): Promise<PasskeyRow[]> {
  const { results } = await db
    .prepare(`SELECT ${columns} FROM passkey WHERE user_id = ?1 ORDER BY created_at, id`)
    .bind(userId)
    .all<PasskeyRow>();
  return results;
}

export function transportsOf(row: Pick<PasskeyRow, "transports">): string[] {
  const parsed: unknown = JSON.parse(row.transports);
  return Array.isArray(parsed) ? parsed.filter((transport): transport is string => typeof transport === "string") : [];
}

/** The passkey with this credential id, as the library verifies with it, and its row. */
export async function passkeyByCredentialId(db: D1Database, credentialId: string) {
  const row = await db.prepare(`SELECT ${columns} FROM passkey WHERE credential_id = ?1`).bind(credentialId).first<PasskeyRow>();
  if (!row) return null;
  const credential: WebAuthnCredential = {
    id: row.credential_id,
    publicKey: fromBase64url(row.public_key),
    counter: row.counter,
    transports: transportsOf(row),
  };
  return { row, credential };
}
