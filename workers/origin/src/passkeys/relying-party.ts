/** This deploy's relying party (README, Configuration): where a passkey made here works. */
export type RelyingParty = { id: string; name: string; origins: string[] };

/** Every origin the pages are served from, as a browser sends it (passkeys; WeChat's sign-in returns only there too). */
export function pageOriginsOf(env: Pick<Env, "WEBAUTHN_ORIGINS">): string[] {
  return (env.WEBAUTHN_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
}

/**
 * From the origin's vars. A deploy without them is a configuration mistake, not a client's:
 * it fails loudly (500 and a report) rather than accepting passkeys for the wrong site.
 */
export function relyingPartyOf(env: Pick<Env, "WEBAUTHN_RP_ID" | "WEBAUTHN_RP_NAME" | "WEBAUTHN_ORIGINS">): RelyingParty {
  const id = env.WEBAUTHN_RP_ID?.trim() ?? "";
  const origins = pageOriginsOf(env);
  if (!id || origins.length === 0) throw new Error("WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS must be set on the origin for passkeys.");
  return { id, name: env.WEBAUTHN_RP_NAME?.trim() || "Paydesk", origins };
}

/**
 * The signature algorithms offered and accepted: Ed25519, ES256, RS256 — all of which
 * workerd's WebCrypto verifies. Named rather than the library's default, which would add
 * ML-DSA on a runtime that has it and so could differ between where options are made and
 * where answers are checked.
 */
export const passkeyAlgorithms = [-8, -7, -257]; // COSE: EdDSA (Ed25519), ES256, RS256

/**
 * Passkeys are a whole sign-in by themselves, so the authenticator must verify the person
 * (a PIN, a fingerprint, the device's screen lock), not only their presence.
 */
export const userVerification = "required" as const;
