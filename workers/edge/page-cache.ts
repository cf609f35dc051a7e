/**
 * The edge cache for pages and route data. Pages are the same for every user
 * (docs/architecture.md), so one rendering serves everyone until the next deploy. Two tiers:
 * this isolate's memory, then the data centre's Cache API. A page enters the shared
 * tier when it is asked for a second time: one-off URLs (cache-busting queries, bots)
 * then cost no cache write and cannot flood the data centre's cache.
 */
import { PageMemory, type StoredPage } from "./page-memory";

const renderNonceHeader = "X-Render-Nonce";

/** The cache key: the page URL (query sorted) in one language, within one deploy version. */
export function pageCacheKey(request: Request, deployVersion: string, language: string): Request {
  const url = new URL(request.url);
  url.searchParams.sort();
  url.searchParams.set("__deploy", deployVersion);
  url.searchParams.set("__lang", language);
  return new Request(url, { method: "GET" });
}

function directives(cacheControl: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (cacheControl ?? "").toLowerCase().split(",")) {
    const [name, value = ""] = part.trim().split("=");
    if (name) map.set(name, value);
  }
  return map;
}

/** Seconds a shared cache may keep the answer (0: not at all). */
function sharedLifetime(response: Response): number {
  const cc = directives(response.headers.get("Cache-Control"));
  if (!cc.has("public") || cc.has("private") || cc.has("no-store")) return 0;
  return Number(cc.get("s-maxage") ?? cc.get("max-age") ?? 0) || 0;
}

/** Only public, successful answers without cookies may be shared between users. */
export function isShareable(response: Response): boolean {
  return response.status === 200 && !response.headers.has("Set-Cookie") && sharedLifetime(response) > 0;
}

const utf8 = new TextEncoder();

/**
 * Cuts a rendered page around the nonce it was rendered with, once, when it is stored.
 * React escapes `"` in text, so `nonce="…"` can only be an attribute; only the nonce the
 * page was rendered with is ever renewed.
 */
export function splitAroundNonce(body: string, renderedWith: string): Uint8Array[] {
  return body.split(`nonce="${renderedWith}"`).map((piece) => utf8.encode(piece));
}

/** A stored page's bytes on `nonce`: its pieces joined by `nonce="<nonce>"` (a copy, as a body is consumed). */
export function joinAroundNonce(pieces: Uint8Array[], nonce: string): Uint8Array<ArrayBuffer> {
  const attribute = utf8.encode(`nonce="${nonce}"`);
  let length = attribute.length * (pieces.length - 1);
  for (const piece of pieces) length += piece.length;
  const page = new Uint8Array(length);
  let at = 0;
  pieces.forEach((piece, index) => {
    if (index > 0) {
      page.set(attribute, at);
      at += attribute.length;
    }
    page.set(piece, at);
    at += piece.length;
  });
  return page;
}

function storedPage(body: string, response: Response, headers: [string, string][], renderedWith: string, shared: boolean): StoredPage {
  const pieces = splitAroundNonce(body, renderedWith);
  return {
    pieces,
    bytes: pieces.reduce((sum, piece) => sum + piece.length, 0),
    status: response.status,
    headers,
    renderedWith,
    expiresAt: Date.now() + sharedLifetime(response) * 1000,
    shared,
  };
}

export type PageCacheTiers = { memory: PageMemory; shared: () => Cache };

export function createPageCache(shared: () => Cache = () => caches.default, memory = new PageMemory()): PageCacheTiers {
  return { memory, shared };
}

function toResponse(page: StoredPage, nonce: string): Response {
  return new Response(joinAroundNonce(page.pieces, nonce), { status: page.status, headers: page.headers });
}

export type PageHit = {
  response: Response;
  /** Work to finish after answering (admitting the page to the shared tier), if any. */
  pending: Promise<void> | null;
};

function sharedCopy(page: StoredPage): Response {
  const response = new Response(joinAroundNonce(page.pieces, page.renderedWith), { status: page.status, headers: page.headers });
  response.headers.set(renderNonceHeader, page.renderedWith);
  return response;
}

/** A stored answer for `key`, already on this response's nonce, or null. */
export async function matchPage(tiers: PageCacheTiers, key: Request, nonce: string): Promise<PageHit | null> {
  const remembered = tiers.memory.get(key.url);
  if (remembered) {
    let pending: Promise<void> | null = null;
    if (!remembered.shared) {
      remembered.shared = true;
      pending = tiers.shared().put(key, sharedCopy(remembered));
    }
    return { response: toResponse(remembered, nonce), pending };
  }

  const hit = await tiers.shared().match(key);
  if (!hit) return null;
  const headers = new Headers(hit.headers);
  const renderedWith = headers.get(renderNonceHeader) ?? "";
  headers.delete(renderNonceHeader);
  const page = storedPage(await hit.text(), hit, [...headers], renderedWith, true);
  tiers.memory.set(key.url, page);
  return { response: toResponse(page, nonce), pending: null };
}

/** Keeps a copy of `response` (which stays usable) in this isolate's memory. */
export async function storePage(tiers: PageCacheTiers, key: Request, response: Response, renderedWith: string): Promise<void> {
  const copy = response.clone();
  tiers.memory.set(key.url, storedPage(await copy.text(), copy, [...copy.headers], renderedWith, false));
}
