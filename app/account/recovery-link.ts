/*
 * A recovery link (`/recover?link=…`, issued by an admin) is a credential in an address. It
 * leaves the address bar as soon as /recover's code runs, before the router reads the address
 * and before error reporting starts, so it stays out of the history, a bookmark, a shared
 * screen and a later report; the tab holds it until it is used or refused
 * (docs/decisions/052-recovery-link-leaves-the-address-bar.md).
 */
import type { KeyValueStore } from "../storage/safe-storage";
import type { AddressBar } from "../session/token";

const heldLinkKey = "paydesk:recovery-link";

/** Where a recovery link is read and held: /recover, in this tab only. */
export const recoveryLinkPath = "/recover";

/**
 * Takes the link out of `addressBar` on /recover, holds it in `tabStore` and answers it (null
 * when there is none): the link as given, whole or not, so that a link cut short is refused
 * with the form's own words. The caller keeps the answer too, for a tab that cannot store it.
 */
export function takeRecoveryLink(addressBar: AddressBar, tabStore: KeyValueStore): string | null {
  const url = new URL(addressBar.href);
  const link = url.searchParams.get("link");
  // The router matches /recover whatever its case and a trailing slash: so does this.
  if (url.pathname.replace(/\/+$/, "").toLowerCase() !== recoveryLinkPath || link === null) return null;
  url.searchParams.delete("link");
  addressBar.replace(url.pathname + url.search + url.hash);
  if (link === "") return null;
  tabStore.set(heldLinkKey, link);
  return link;
}

/** The link this tab holds, or null. */
export function heldRecoveryLink(tabStore: KeyValueStore): string | null {
  return tabStore.get(heldLinkKey) || null;
}

/** Lets go of the held link: it has been used, or the origin refused it. */
export function forgetRecoveryLink(tabStore: KeyValueStore): void {
  tabStore.set(heldLinkKey, "");
}
