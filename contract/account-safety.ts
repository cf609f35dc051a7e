/**
 * A person's own account safety (docs/decisions/024-account-safety.md): the display name,
 * password change, sessions, recovery codes, and setting a new password with a recovery
 * code or a recovery link an admin issued.
 */
import { z } from "zod";
import {
  deviceTokenSchema,
  displayNameSchema,
  handleSchema,
  issuedDeviceTokenSchema,
  newPasswordSchema,
  passwordSchema,
  passwordSignInAnswerSchema,
} from "./account";

export const profileBodySchema = z.strictObject({ displayName: displayNameSchema });

export const passwordChangeBodySchema = z.strictObject({
  currentPassword: passwordSchema,
  newPassword: newPasswordSchema,
});

export const passwordChangedSchema = z.strictObject({
  /** The person's other sessions that ended with the change. */
  sessionsEnded: z.number().int().nonnegative(),
  /** Every known device was forgotten with them; this browser, which proved the password, is the first new one. */
  deviceToken: issuedDeviceTokenSchema,
});
export type PasswordChanged = z.infer<typeof passwordChangedSchema>;

/** One of a person's live sessions, as their account page lists it. */
const accountSessionSchema = z.strictObject({
  id: z.string().min(8).max(64),
  /** "Chrome on Android", from the browser's user agent; null when it sent none. */
  device: z.string().max(120).nullable(),
  /** Roughly where it signed in ("Shanghai, Shanghai, CN"), from Cloudflare's view of the client. */
  place: z.string().max(160).nullable(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionsSchema = z.strictObject({ sessions: z.array(accountSessionSchema) });

export const sessionIdParamSchema = z.strictObject({
  id: z.string().regex(/^ses_[0-9a-f]{32}$/, "A session id is ses_ and 32 hexadecimal digits."),
});

export const sessionsEndedSchema = z.strictObject({ sessionsEnded: z.number().int().nonnegative() });

/**
 * One of a person's known devices: a browser that has proved the password, whose own failed
 * sign-ins are counted apart from a stranger's (docs/decisions/061-known-devices.md).
 */
const accountDeviceSchema = z.strictObject({
  /** `dev_` and 32 random hexadecimal digits: nothing of its token. */
  id: z.string().regex(/^dev_[0-9a-f]{32}$/),
  /** "Chrome on Android", from the user agent it last proved the password with; null when unknown. */
  device: z.string().max(120).nullable(),
  createdAt: z.iso.datetime(),
  /** When it last signed in with the password, or a live session it opened was last used. */
  lastUsedAt: z.iso.datetime(),
  /** The device this request's session was opened on. */
  current: z.boolean(),
});
export type AccountDevice = z.infer<typeof accountDeviceSchema>;

export const accountDevicesSchema = z.strictObject({ devices: z.array(accountDeviceSchema) });

export const deviceIdParamSchema = z.strictObject({
  id: z.string().regex(/^dev_[0-9a-f]{32}$/, "A device id is dev_ and 32 hexadecimal digits."),
});

/**
 * Forgetting a device asks for the password again: a stolen session alone must not take the
 * person's devices out of the lock's way and then keep the handle locked against them.
 */
export const forgetDeviceBodySchema = z.strictObject({ password: passwordSchema });

export const devicesForgottenSchema = z.strictObject({ devicesForgotten: z.number().int().nonnegative() });

/** Ten codes a set (docs/rules-and-limits.md, recovery codes). */
export const recoveryCodeCount = 10;
/** 12 Crockford base32 symbols (60 bits), shown as XXXX-XXXX-XXXX. */
export const recoveryCodeLength = 12;

export const recoveryCodesStatusSchema = z.strictObject({
  /** Unused codes of the current set. */
  remaining: z.number().int().min(0).max(recoveryCodeCount),
  generatedAt: z.iso.datetime().nullable(),
});
export type RecoveryCodesStatus = z.infer<typeof recoveryCodesStatusSchema>;

/** A new set replaces the old one; the password is asked again, so a stolen session cannot make one. */
export const newRecoveryCodesBodySchema = z.strictObject({ password: passwordSchema });

/**
 * Adding a passkey asks for the password again too: a passkey signs in as the password does,
 * so a stolen session alone must not make one that outlives a password change.
 */
export const passkeyOptionsBodySchema = z.strictObject({ password: passwordSchema });

export const recoveryCodesSchema = z.strictObject({
  codes: z.array(z.string().regex(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/)).length(recoveryCodeCount),
  generatedAt: z.iso.datetime(),
});
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** A recovery code as typed: either case, dashes and spaces anywhere; I and L read as 1, O as 0. */
const typedRecoveryCodePattern = /^[\s-]*(?:[0-9A-TV-Za-tv-z][\s-]*){12}$/;

export const recoverWithCodeBodySchema = z.strictObject({
  handle: handleSchema,
  code: z.string().max(40).regex(typedRecoveryCodePattern, "A recovery code has 12 letters and digits, like ABCD-EFGH-JKMN."),
  newPassword: newPasswordSchema,
  deviceToken: deviceTokenSchema.optional(),
});

export const recoverWithLinkBodySchema = z.strictObject({
  link: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "This recovery link is not complete. Open the whole link you were given."),
  newPassword: newPasswordSchema,
});

/** Signed in afresh with the new password; every earlier session and known device has ended. */
export const recoveredSchema = passwordSignInAnswerSchema;

/** How long a recovery link an admin issues stays usable. */
export const recoveryLinkLifetimeMs = 60 * 60 * 1000;

/** A recovery link, shown to the admin once: its path carries the token. */
export const recoveryLinkSchema = z.strictObject({ path: z.string(), expiresAt: z.iso.datetime() });
export type RecoveryLink = z.infer<typeof recoveryLinkSchema>;
