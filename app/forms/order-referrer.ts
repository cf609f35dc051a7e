import { orderReferrerLength } from "#contract/value-lists";
import type { Referrers } from "../startup/referrer";

/**
 * The first touch as an order carries it: the contract bounds it, and a longer one is still
 * worth its first part (cut between code points, so no half of a pair is sent).
 */
export function orderReferrerOf(referrers: Referrers): string {
  return [...referrers.firstTouch].slice(0, orderReferrerLength).join("");
}
