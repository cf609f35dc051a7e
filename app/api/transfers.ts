import type { z } from "zod";
import type { transferBodySchema, TransferReceipt } from "#contract/transfers";
import type { SignedInApi } from "./client";

export function sendTransfer(api: SignedInApi, body: z.input<typeof transferBodySchema>, idempotencyKey: string): Promise<TransferReceipt> {
  return api.post<TransferReceipt>("/api/transfers", body, idempotencyKey);
}
