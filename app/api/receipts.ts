import type { Receipt } from "#contract/receipts";
import type { ReceiptKind } from "#contract/wallet";
import { apiPath } from "./api-path";
import type { SignedInApi } from "./client";

/** A receipt I am one of the people of; anyone else's is NOT_FOUND. Typed, not parsed: it is only shown. */
export function getReceipt(api: SignedInApi, kind: ReceiptKind, id: string): Promise<Receipt> {
  return api.get<Receipt>(apiPath`/api/receipts/${kind}/${id}`);
}
