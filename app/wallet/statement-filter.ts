import type { WalletEntriesFilter, WalletEntryPage, WalletMonths } from "#contract/wallet";
import { walletEntryKinds } from "#contract/value-lists";

/** The statement's page: its lines, the months' totals, and the filters it was asked with. */
export type Statement = { page: WalletEntryPage; months: WalletMonths["months"]; filter: WalletEntriesFilter };

// The filters as the contract names them, from its plain lists: the page does not carry zod.
export const statementDirections = ["in", "out"] as const;
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** The address's filters the origin would take; anything else is left out rather than refused. */
export function filterOf(params: URLSearchParams): WalletEntriesFilter {
  const kind = walletEntryKinds.find((known) => known === params.get("kind"));
  const direction = statementDirections.find((known) => known === params.get("direction"));
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  return {
    ...(kind ? { kind } : {}),
    ...(direction ? { direction } : {}),
    ...(dayPattern.test(from) ? { from } : {}),
    ...(dayPattern.test(to) ? { to } : {}),
  };
}
