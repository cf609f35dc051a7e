import { z } from "zod";
import { userText } from "./text";
import { userInfoSchema } from "./user-info";

/** docs/rules-and-limits.md, sign-in: a handle of 3–32 of a–z, 0–9 and _. */
export const handleSchema = z.string().regex(/^[a-z0-9_]{3,32}$/, "A handle has 3 to 32 lower-case letters, digits or underscores.");

/** At least 10 characters; bounded so hashing cost stays bounded. */
export const passwordSchema = z
  .string()
  .min(10, "A password has at least 10 characters.")
  .max(256, "A password has at most 256 characters.");

export const displayNameSchema = userText({
  min: 1,
  max: 64,
  tooShort: "Enter the name others will see.",
  tooLong: "A display name has at most 64 characters.",
});

export const registerBodySchema = z.strictObject({
  handle: handleSchema,
  password: passwordSchema,
  displayName: displayNameSchema,
});

export const signInBodySchema = z.strictObject({
  handle: handleSchema,
  password: passwordSchema,
});

/** A new bearer token: shown once, stored by the origin only as its hash. */
export const signInAnswerSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  user: userInfoSchema,
});
export type SignInAnswer = z.infer<typeof signInAnswerSchema>;
