import { z } from "zod";
import { codePoints, userText } from "./text";
import { userInfoSchema } from "./user-info";

/** docs/rules-and-limits.md, sign-in: a handle of 3–32 of a–z, 0–9 and _. */
export const handleSchema = z.string().regex(/^[a-z0-9_]{3,32}$/, "A handle has 3 to 32 lower-case letters, digits or underscores.");

const passwordMax = 256;
/** No lone surrogate: a password is hashed as UTF-8, where every lone surrogate would become the same U+FFFD. */
const wellFormedPattern = String.raw`^[^\p{Cs}]*$`;
const wellFormed = new RegExp(wellFormedPattern, "u");
const tooLong = "A password has at most 256 characters.";

/**
 * A password someone chooses (sign-up, a change, a recovery): 10 to 256 characters, counted
 * in code points as people count them, of well-formed Unicode. Bounded so hashing cost stays
 * bounded. Before 2026-11-28 the lengths were counted in UTF-16 units (docs/decisions/075-password-length-in-characters.md).
 */
export const newPasswordSchema = z
  .string()
  .refine((value) => codePoints(value) >= 10, "A password has at least 10 characters.")
  .refine((value) => codePoints(value) <= passwordMax, tooLong)
  .refine((value) => wellFormed.test(value), "A password cannot hold a lone surrogate (text that is not well-formed Unicode).")
  .meta({
    minLength: 10,
    maxLength: passwordMax,
    pattern: wellFormedPattern,
    description: "10 to 256 characters (code points), well-formed Unicode.",
  });

/**
 * A password someone gives to prove who they are: any password that may have been chosen,
 * since or before the lengths were counted in code points (then 10 UTF-16 units could be
 * five emoji). A wrong one is a failed attempt, not a malformed request.
 */
export const passwordSchema = z
  .string()
  .min(1, "Enter the password.")
  .refine((value) => codePoints(value) <= passwordMax, tooLong)
  .meta({ minLength: 1, maxLength: passwordMax, description: "The password, as chosen: at most 256 characters (code points)." });

export const displayNameSchema = userText({
  min: 1,
  max: 64,
  tooShort: "Enter the name others will see.",
  tooLong: "A display name has at most 64 characters.",
});

export const registerBodySchema = z.strictObject({
  handle: handleSchema,
  password: newPasswordSchema,
  displayName: displayNameSchema,
});

/** 256 random bits, base64url: the form of every token the origin hands out. */
const issuedToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/**
 * What a browser keeps after signing in with a handle's password and sends with its next
 * attempts at that handle: they are counted against it, not the handle, so a stranger's
 * failures do not lock the person out of their own devices (docs/decisions/061-known-devices.md).
 */
export const deviceTokenSchema = issuedToken.meta({
  description:
    "The device token an earlier sign-in with this handle's password answered. Optional; one the origin does not know for this handle counts as none.",
});

export const signInBodySchema = z.strictObject({
  handle: handleSchema,
  password: passwordSchema,
  deviceToken: deviceTokenSchema.optional(),
});

/** A new bearer token: shown once, stored by the origin only as its hash. */
export const signInAnswerSchema = z.strictObject({
  token: issuedToken,
  user: userInfoSchema,
});
export type SignInAnswer = z.infer<typeof signInAnswerSchema>;

/** What a proof of the password names this browser: a known device of the person. */
export const issuedDeviceTokenSchema = issuedToken.meta({
  description:
    "This browser's device token: keep it, and send it with this handle's next sign-ins (the same one while the device stays known).",
});

/** Signed in with the password (or a new one): the answer names this browser a known device too. */
export const passwordSignInAnswerSchema = signInAnswerSchema.extend({ deviceToken: issuedDeviceTokenSchema });
export type PasswordSignInAnswer = z.infer<typeof passwordSignInAnswerSchema>;
