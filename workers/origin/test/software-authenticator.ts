/**
 * A WebAuthn authenticator in software, for the origin's tests: an ES256 (P-256) key made
 * with WebCrypto, "none" attestation, and real signatures over what a browser would send —
 * so the origin's verification is exercised for real, and every field can be made wrong.
 */
import type { AuthenticationOptions, RegistrationOptions } from "#contract/passkeys";

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));

const uint32 = (value: number) => new Uint8Array([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);

// CBOR, as much as attestation objects and COSE keys need (RFC 8949).
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function cborHead(major: number, length: number): Uint8Array {
  if (length < 24) return new Uint8Array([(major << 5) | length]);
  if (length < 256) return new Uint8Array([(major << 5) | 24, length]);
  if (length < 65536) return new Uint8Array([(major << 5) | 25, length >> 8, length & 255]);
  return concat(new Uint8Array([(major << 5) | 26]), uint32(length));
}

function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === "string") {
    const bytes = encoder.encode(value);
    return concat(cborHead(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(cborHead(2, value.length), value);
  return concat(cborHead(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)]));
}

/** WebCrypto's ECDSA signature (r ‖ s) as the DER sequence WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
    let trimmed = bytes.slice(start);
    if ((trimmed[0] ?? 0) & 0x80) trimmed = concat(new Uint8Array([0]), trimmed);
    return concat(new Uint8Array([0x02, trimmed.length]), trimmed);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

const flags = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attested: 0x40 };

type Overrides = { origin?: string; rpId?: string; challenge?: string; type?: string; userVerified?: boolean };

export type SoftwareAuthenticator = Awaited<ReturnType<typeof softwareAuthenticator>>;

/**
 * One credential. `counter` is the signature counter it registers with (0 = keeps none, as
 * most passkeys); `synced` marks it backup-eligible and backed up, as a synced passkey is.
 */
export async function softwareAuthenticator({
  origin = "http://localhost:5173",
  counter = 0,
  synced = false,
}: {
  origin?: string;
  counter?: number;
  synced?: boolean;
} = {}) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
  const credentialId = crypto.getRandomValues(new Uint8Array(32));
  const id = base64url(credentialId);
  let signCount = counter;
  let userHandle: string | undefined;

  const clientData = (type: string, challenge: string, overrides: Overrides) =>
    encoder.encode(
      JSON.stringify({
        type: overrides.type ?? type,
        challenge: overrides.challenge ?? challenge,
        origin: overrides.origin ?? origin,
        crossOrigin: false,
      }),
    );
  const flagsOf = (overrides: Overrides, attested: boolean) =>
    flags.userPresent |
    (overrides.userVerified === false ? 0 : flags.userVerified) |
    (synced ? flags.backupEligible | flags.backedUp : 0) |
    (attested ? flags.attested : 0);

  return {
    id,
    /** The counter last reported (the next signature carries one more); set it back to act as a cloned authenticator. */
    setCounter(value: number) {
      signCount = value;
    },
    /** Answers `navigator.credentials.create()` for these options (RegistrationResponseJSON). */
    async register(options: RegistrationOptions, overrides: Overrides = {}) {
      userHandle = options.user.id;
      const coseKey = new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64url(jwk.x ?? "")],
        [-3, fromBase64url(jwk.y ?? "")],
      ]);
      const authData = concat(
        await sha256(encoder.encode(overrides.rpId ?? options.rp.id)),
        new Uint8Array([flagsOf(overrides, true)]),
        uint32(signCount),
        new Uint8Array(16),
        new Uint8Array([credentialId.length >> 8, credentialId.length & 255]),
        credentialId,
        cbor(coseKey),
      );
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return {
        id,
        rawId: id,
        type: "public-key" as const,
        response: {
          clientDataJSON: base64url(clientData("webauthn.create", options.challenge, overrides)),
          attestationObject: base64url(attestationObject),
          transports: ["internal" as const],
        },
        clientExtensionResults: { credProps: { rk: true } },
        authenticatorAttachment: "platform" as const,
      };
    },
    /**
     * Answers `navigator.credentials.get()` (AuthenticationResponseJSON). `signWith` signs
     * with another key than the registered one; `userHandle` hands back another handle.
     */
    async authenticate(options: AuthenticationOptions, overrides: Overrides & { signWith?: CryptoKey; userHandle?: string | null } = {}) {
      if (signCount > 0) signCount += 1;
      const clientDataJSON = clientData("webauthn.get", options.challenge, overrides);
      const authData = concat(
        await sha256(encoder.encode(overrides.rpId ?? options.rpId)),
        new Uint8Array([flagsOf(overrides, false)]),
        uint32(signCount),
      );
      const signed = concat(authData, await sha256(clientDataJSON));
      const raw = new Uint8Array(
        await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, overrides.signWith ?? keys.privateKey, signed),
      );
      const handle = overrides.userHandle === undefined ? userHandle : overrides.userHandle;
      return {
        id,
        rawId: id,
        type: "public-key" as const,
        response: {
          clientDataJSON: base64url(clientDataJSON),
          authenticatorData: base64url(authData),
          signature: base64url(derSignature(raw)),
          ...(handle ? { userHandle: handle } : {}),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform" as const,
      };
    },
  };
}

/** Another P-256 private key: signing with it is a wrong signature. */
export async function strangerKey(): Promise<CryptoKey> {
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"])) as CryptoKeyPair;
  return pair.privateKey;
}
