import { z } from "zod";
import { userText } from "./text";
import { userInfoSchema } from "./user-info";

/** docs/rules-and-limits.md, sign-in: a handle of 3–32 of a–z, 0–9 and _. */
export const handleSchema = z.string().regex(/^[a-z0-9_]{3,32}$/, "A handle has 3 to 32 lower-case letters, digits or underscores.");

/**
 * A password, as given to sign in or to confirm an action: 10 to 256 characters. zod 4 counts
 * a string's length in code points (an emoji is one), as JSON Schema's `minLength` does, so
 * the rule and the published document agree. Bounded so hashing cost stays bounded.
 */
export const passwordSchema = z
  .string()
  .min(10, "A password has at least 10 characters.")
  .max(256, "A password has at most 256 characters.");

/** No lone surrogate: a password is hashed as UTF-8, where every lone surrogate becomes the same U+FFFD. */
const wellFormedPattern = String.raw`^[^\p{Cs}]*$`;
const wellFormed = new RegExp(wellFormedPattern, "u");

/**
 * A password someone chooses (sign-up, a change, a recovery): the same lengths, and well-formed
 * Unicode. One chosen before this rule may hold a lone surrogate and still signs in, so the rule
 * is not `passwordSchema`'s (docs/decisions/075-passwords-as-people-type-them.md).
 */
export const newPasswordSchema = passwordSchema
  .refine((value) => wellFormed.test(value), "A password cannot hold a lone surrogate (text that is not well-formed Unicode).")
  .meta({ pattern: wellFormedPattern, description: "10 to 256 characters (code points), well-formed Unicode." });

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
