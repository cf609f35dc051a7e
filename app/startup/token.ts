import type { KeyValueStore } from "./safe-storage";

const tokenKey = "paydesk:token";
const tokenFormat = /^[A-Za-z0-9_-]{16,128}$/;

export type AddressBar = { href: string; replace(url: string): void };

/**
 * The bearer token: a `token` query parameter of the landing URL (a sign-in link) is
 * adopted into storage and removed from the address bar, so it is neither bookmarked
 * nor leaked through a later Referer; otherwise the stored token; otherwise none.
 */
export function adoptToken(addressBar: AddressBar, store: KeyValueStore): string | null {
  const url = new URL(addressBar.href);
  const fromLink = url.searchParams.get("token");
  if (fromLink !== null) {
    url.searchParams.delete("token");
    addressBar.replace(url.pathname + url.search + url.hash);
    if (tokenFormat.test(fromLink)) {
      store.set(tokenKey, fromLink);
      return fromLink;
    }
  }
  return readToken(store);
}

export function readToken(store: KeyValueStore): string | null {
  const stored = store.get(tokenKey);
  return stored !== null && tokenFormat.test(stored) ? stored : null;
}

export function storeToken(store: KeyValueStore, token: string | null): void {
  store.set(tokenKey, token ?? "");
}
