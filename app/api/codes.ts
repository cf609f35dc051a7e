import type { z } from "zod";
import type { RedeemCodeAnswer, redeemCodeBodySchema } from "#contract/codes";
import type { SignedInApi } from "./client";

/** Credits my wallet with a prepaid code's value. */
export function redeemCode(
  api: SignedInApi,
  body: z.input<typeof redeemCodeBodySchema>,
  idempotencyKey: string,
): Promise<RedeemCodeAnswer> {
  return api.post<RedeemCodeAnswer>("/api/codes/redeem", body, idempotencyKey);
}
