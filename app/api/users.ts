import type { z } from "zod";
import type { Recipient, recipientQuerySchema } from "#contract/transfers";
import { withQuery } from "./api-path";
import type { SignedInApi } from "./client";

/** Who a handle belongs to, shown before money is sent to them. */
export function lookUpRecipient(api: SignedInApi, query: z.input<typeof recipientQuerySchema>): Promise<Recipient> {
  return api.get<Recipient>(withQuery("/api/users/lookup", query));
}
