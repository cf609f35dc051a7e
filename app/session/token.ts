import type { KeyValueStore } from "../storage/safe-storage";

const tokenKey = "paydesk:token";
/** Where the bearer token lives in localStorage (other tabs watch it). */
export const tokenStorageKey = tokenKey;
/** What a bearer token looks like (the head's token mark checks the same). */
export const tokenFormat = /^[A-Za-z0-9_-]{16,128}$/;

export type AddressBar = { href: string; replace(url: string): void };

/**
 * Removes a `token` parameter from the address bar and answers it when well-formed.
 * Start-up calls this before error reporting starts, so the token never reaches a report.
 */
export function takeLinkToken(addressBar: AddressBar): string | null {
  const url = new URL(addressBar.href);
  const fromLink = url.searchParams.get("token");
  if (fromLink === null) return null;
  url.searchParams.delete("token");
  addressBar.replace(url.pathname + url.search + url.hash);
  return tokenFormat.test(fromLink) ? fromLink : null;
}

/**
 * The bearer token (start-up step 4): a sign-in link's token, taken from the landing URL
 * so it is neither bookmarked nor leaked through a later Referer, is adopted into storage;
 * otherwise the stored token; otherwise none.
 */
export function chooseToken(fromLink: string | null, store: KeyValueStore): string | null {
  if (fromLink !== null) {
    store.set(tokenKey, fromLink);
    return fromLink;
  }
  return readToken(store);
}

/**
 * A sign-in link that arrives while another account is signed in on this device is not
 * adopted silently: anyone can send anyone a link to their own account (login CSRF), so
 * the person is asked first. Answers the link to hold for that question, or null.
 */
export function linkToConfirm(fromLink: string | null, store: KeyValueStore): string | null {
  const stored = readToken(store);
  return fromLink !== null && stored !== null && stored !== fromLink ? fromLink : null;
}

export function readToken(store: KeyValueStore): string | null {
  const stored = store.get(tokenKey);
  return stored !== null && tokenFormat.test(stored) ? stored : null;
}

export function storeToken(store: KeyValueStore, token: string | null): void {
  store.set(tokenKey, token ?? "");
}
