import { z } from "zod";
import { passkeyNameSchema } from "./passkey-name";

/*
 * Passkeys (docs/decisions/025-passkeys.md): WebAuthn credentials a person adds on /account
 * and signs in with on /login. The options and responses below are WebAuthn's own JSON forms
 * (PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON, …), binary fields in
 * base64url, as @simplewebauthn/browser sends and takes them.
 */

/** Base64url without padding, bounded: an authenticator's ids, keys and signatures. */
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/, "Expected base64url.");

/** A challenge: 32 random bytes from the origin, single use, for five minutes. */
export const passkeyChallengeLifetimeMs = 5 * 60 * 1000;

/** At most this many passkeys per person. */
export const maxPasskeysPerPerson = 20;

/** "internal", "hybrid", "usb", "nfc", "ble", "smart-card"…: browsers add new ones, so any short name passes. */
const transportSchema = z
  .string()
  .max(32)
  .regex(/^[a-z-]+$/);

const credentialDescriptorSchema = z.strictObject({
  id: base64url(1400),
  type: z.literal("public-key"),
  transports: z.array(transportSchema).max(8).optional(),
});

/** What the browser passes to `navigator.credentials.create()` (WebAuthn's JSON form). */
export const registrationOptionsSchema = z.strictObject({
  challenge: base64url(128),
  rp: z.strictObject({ name: z.string().max(64), id: z.string().max(253) }),
  user: z.strictObject({ id: base64url(128), name: z.string().max(64), displayName: z.string().max(64) }),
  pubKeyCredParams: z.array(z.strictObject({ alg: z.number().int(), type: z.literal("public-key") })).max(8),
  timeout: z.number().int().positive(),
  attestation: z.literal("none"),
  excludeCredentials: z.array(credentialDescriptorSchema).max(20),
  authenticatorSelection: z.strictObject({
    residentKey: z.enum(["discouraged", "preferred", "required"]),
    requireResidentKey: z.boolean(),
    userVerification: z.enum(["discouraged", "preferred", "required"]),
  }),
  extensions: z.strictObject({ credProps: z.literal(true) }),
  hints: z.array(z.enum(["security-key", "client-device", "hybrid"])).max(3),
});
export type RegistrationOptions = z.infer<typeof registrationOptionsSchema>;

/** What the browser passes to `navigator.credentials.get()`; no allowCredentials, so autofill can offer any passkey. */
export const authenticationOptionsSchema = z.strictObject({
  challenge: base64url(128),
  rpId: z.string().max(253),
  timeout: z.number().int().positive(),
  userVerification: z.enum(["discouraged", "preferred", "required"]),
});
export type AuthenticationOptions = z.infer<typeof authenticationOptionsSchema>;

/** Extension outputs the browser reports; read by nobody here, so kept small and opaque. */
const clientExtensionResultsSchema = z.record(z.string().max(64), z.unknown()).refine((value) => Object.keys(value).length <= 16, {
  message: "At most 16 extension results.",
});

const authenticatorAttachmentSchema = z.enum(["platform", "cross-platform"]).optional();

/** RegistrationResponseJSON: what `navigator.credentials.create()` gave, in base64url. */
const registrationResponseSchema = z.strictObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.strictObject({
    clientDataJSON: base64url(4096),
    attestationObject: base64url(32768),
    authenticatorData: base64url(16384).optional(),
    transports: z.array(transportSchema).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8192).optional(),
  }),
  clientExtensionResults: clientExtensionResultsSchema,
  authenticatorAttachment: authenticatorAttachmentSchema,
});

/** AuthenticationResponseJSON: what `navigator.credentials.get()` gave, in base64url. */
const authenticationResponseSchema = z.strictObject({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.strictObject({
    clientDataJSON: base64url(4096),
    authenticatorData: base64url(16384),
    signature: base64url(8192),
    userHandle: base64url(128).optional(),
  }),
  clientExtensionResults: clientExtensionResultsSchema,
  authenticatorAttachment: authenticatorAttachmentSchema,
});

export const addPasskeyBodySchema = z.strictObject({
  name: passkeyNameSchema,
  credential: registrationResponseSchema,
});

export const passkeySignInBodySchema = z.strictObject({ credential: authenticationResponseSchema });

const passkeyIdSchema = z.string().regex(/^pk_[0-9a-f-]{36}$/, "Not a passkey id.");
export const passkeyIdParamSchema = z.strictObject({ id: passkeyIdSchema });

/** One of my passkeys, as the account page lists it. */
export const passkeySchema = z.strictObject({
  id: passkeyIdSchema,
  name: z.string().min(1).max(64),
  createdAt: z.iso.datetime(),
  /** Null until it first signs in. */
  lastUsedAt: z.iso.datetime().nullable(),
  /** Synced between devices by its provider (a "multi-device" credential), and whether it is backed up. */
  synced: z.boolean(),
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.strictObject({ passkeys: z.array(passkeySchema).max(maxPasskeysPerPerson) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;
