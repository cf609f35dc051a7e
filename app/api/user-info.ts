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
});

export type UserInfo = z.infer<typeof userInfoSchema>;
