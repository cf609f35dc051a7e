import { z } from "zod";

/** What `POST /api/user/session` answers for a signed-in user. Money is in minor units. */
export const userInfoSchema = z.strictObject({
  id: z.string().min(1).max(64),
  handle: z.string().regex(/^[a-z0-9_]{3,32}$/),
  displayName: z.string().min(1).max(64),
  balances: z.strictObject({
    available: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    held: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  }),
  currency: z.literal("CNY"),
  createdAt: z.iso.datetime(),
  /**
   * Present when an operator has locked the account (docs/decisions/013-account-locks.md):
   * it may read and talk to support, and nothing else until it is unlocked.
   */
  locked: z.literal(true).optional(),
});

export type UserInfo = z.infer<typeof userInfoSchema>;

/**
 * The session call's answer: the user, and — when the request used a single-use sign-in
 * link — the new bearer token that replaces the link's from now on.
 */
export const sessionAnswerSchema = userInfoSchema.extend({
  replacementToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .optional(),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/** A link that signs this user in once, within 15 minutes, on another device. */
export const signInLinkSchema = z.strictObject({ path: z.string(), expiresAt: z.iso.datetime() });
export const signInLinkLifetimeMs = 15 * 60 * 1000;
