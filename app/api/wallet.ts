import type { WalletEntriesFilter, WalletEntryPage, WalletMonths, WalletSummary } from "#contract/wallet";
import { withQuery } from "./api-path";
import type { SignedInApi } from "./client";

// Typed, not parsed: only the home screen reads the wallet, and it is most people's first
// page. Parsing with the contract's schemas would add zod (~25 KB gzip) to that first visit.

/** The newest lines of my wallet's history (a number needs no encoding in the query). */
export function listWalletEntries(api: SignedInApi, limit: number): Promise<WalletEntryPage> {
  return api.get<WalletEntryPage>(`/api/wallet/entries?limit=${limit}`);
}

/** A page of my statement, filtered; the origin checks the filters and names a wrong one. */
export function listStatement(
  api: SignedInApi,
  query: WalletEntriesFilter & { limit: number; cursor?: string | undefined },
): Promise<WalletEntryPage> {
  return api.get<WalletEntryPage>(withQuery("/api/wallet/entries", query));
}

/** Money in and out per month, the last twelve. */
export function getWalletMonths(api: SignedInApi): Promise<WalletMonths> {
  return api.get<WalletMonths>("/api/wallet/months");
}

/** The home screen's figures beside the balance. */
export function getWalletSummary(api: SignedInApi): Promise<WalletSummary> {
  return api.get<WalletSummary>("/api/wallet/summary");
}
