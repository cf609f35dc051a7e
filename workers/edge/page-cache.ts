/**
 * The edge cache for pages and route data. Pages are the same for every user
 * (docs/architecture.md), so one rendering serves everyone until the next deploy. Two tiers:
 * this isolate's memory, then the data centre's Cache API. A page enters the shared
 * tier when it is asked for a second time: one-off URLs (cache-busting queries, bots)
 * then cost no cache write and cannot flood the data centre's cache. A URL with a query
 * is neither looked up in the shared tier nor kept in memory before its second request
 * (docs/decisions/031-page-throughput.md).
 */
import { captureException } from "./error-reporting";
import { PageMemory, type StoredPage } from "./page-memory";

const renderNonceHeader = "X-Render-Nonce";

/** The key's tail for one deploy and language: the same for nearly every request, so built once. */
const keyTails = new Map<string, string>();

function keyTail(deployVersion: string, language: string): string {
  const id = `${deployVersion}\n${language}`;
  let tail = keyTails.get(id);
  if (tail === undefined) {
    tail = new URLSearchParams({ __deploy: deployVersion, __lang: language }).toString();
    if (keyTails.size >= 16) keyTails.clear();
    keyTails.set(id, tail);
  }
  return tail;
}

/**
 * The cache key: the page URL (query sorted) in one language, within one deploy version.
 * The deploy and the language come last, after the visitor's own query whatever it holds,
 * so no query can make one page's key another's.
 */
export function pageCacheKey(url: URL, deployVersion: string, language: string): string {
  const tail = keyTail(deployVersion, language);
  if (!url.search) return `${url.origin}${url.pathname}?${tail}`;
  const query = new URLSearchParams(url.search);
  query.sort();
  return `${url.origin}${url.pathname}?${query}&${tail}`;
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
function sharedLifetime(headers: Headers): number {
  const cc = directives(headers.get("Cache-Control"));
  if (!cc.has("public") || cc.has("private") || cc.has("no-store")) return 0;
  return Number(cc.get("s-maxage") ?? cc.get("max-age") ?? 0) || 0;
}

/** Only public, successful answers without cookies may be shared between users. */
export function isShareable(response: Response): boolean {
  return response.status === 200 && !response.headers.has("Set-Cookie") && sharedLifetime(response.headers) > 0;
}

const utf8 = new TextEncoder();

/** Where `needle` first occurs in `haystack` at or after `from`, or -1 (bytes, no decoding). */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(needle[0] ?? 0, from); at !== -1 && at <= last; at = haystack.indexOf(needle[0] ?? 0, at + 1)) {
    let matched = 1;
    while (matched < needle.length && haystack[at + matched] === needle[matched]) matched += 1;
    if (matched === needle.length) return at;
  }
  return -1;
}

/**
 * Cuts a rendered page's UTF-8 bytes around the nonce it was rendered with, once, when it
 * is stored; each piece is a copy of its own. React escapes `"` in text, so `nonce="…"`
 * can only be an attribute; only the nonce the page was rendered with is ever renewed (an
 * empty one never: `<link nonce="">` must stay as it is).
 */
export function splitAroundNonce(page: Uint8Array, renderedWith: string): Uint8Array[] {
  if (!renderedWith) return [page.slice()];
  const attribute = utf8.encode(`nonce="${renderedWith}"`);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (let at = indexOfBytes(page, attribute, 0); at !== -1; at = indexOfBytes(page, attribute, from)) {
    pieces.push(page.slice(from, at));
    from = at + attribute.length;
  }
  pieces.push(page.slice(from));
  return pieces;
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

/** A shareable answer read whole: its bytes, status and headers. */
export type RenderedPage = { body: Uint8Array; status: number; headers: Headers };

function storedPage({ body, status, headers }: RenderedPage, renderedWith: string, shared: boolean): StoredPage {
  const pieces = splitAroundNonce(body, renderedWith);
  return {
    pieces,
    bytes: pieces.reduce((sum, piece) => sum + piece.length, 0),
    status,
    headers: [...headers],
    renderedWith,
    expiresAt: Date.now() + sharedLifetime(headers) * 1000,
    shared,
  };
}

/**
 * The keys of query-bearing URLs rendered once and not (yet) kept, newest last: a URL with
 * a query is kept when it comes again while remembered. Bounded by count and by the keys'
 * total length: a visitor sending thousands of distinct 16 KB URLs must not fill the
 * isolate's memory with them (a key is about a hundred characters otherwise).
 */
export class SeenOnce {
  readonly #keys = new Set<string>();
  #chars = 0;

  constructor(
    readonly maxKeys = 4096,
    readonly maxChars = 512 * 1024,
  ) {}

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** True when `key` was remembered (it is forgotten then); otherwise remembers it. */
  seenBefore(key: string): boolean {
    if (this.#keys.delete(key)) {
      this.#chars -= key.length;
      return true;
    }
    // A key longer than the whole budget is not remembered, nor does it push others out.
    if (key.length > this.maxChars) return false;
    this.#keys.add(key);
    this.#chars += key.length;
    for (const oldest of this.#keys) {
      if (this.#keys.size <= this.maxKeys && this.#chars <= this.maxChars) break;
      this.#keys.delete(oldest);
      this.#chars -= oldest.length;
    }
    return false;
  }

  get size(): number {
    return this.#keys.size;
  }

  /** The remembered keys' total length, in UTF-16 code units. */
  get chars(): number {
    return this.#chars;
  }
}

export type PageCacheTiers = { memory: PageMemory; shared: () => Cache; seenOnce: SeenOnce };

export function createPageCache(shared: () => Cache = () => caches.default, memory = new PageMemory()): PageCacheTiers {
  return { memory, shared, seenOnce: new SeenOnce() };
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

/**
 * A stored answer for `key`, already on this response's nonce, or null. An address that
 * `waitsForSecond` (a query, or not a page's own path: static-pages.ts) is looked for in the
 * shared tier only from its second request in this isolate: a one-off address costs no Cache
 * API lookup, a popular one at most one extra rendering per isolate.
 */
export async function matchPage(tiers: PageCacheTiers, key: string, nonce: string, waitsForSecond: boolean): Promise<PageHit | null> {
  const remembered = tiers.memory.get(key);
  if (remembered) {
    let pending: Promise<void> | null = null;
    if (!remembered.shared) {
      remembered.shared = true;
      pending = tiers
        .shared()
        .put(key, sharedCopy(remembered))
        .catch((error: unknown) => captureException(error, { tags: { cache: "put" } }));
    }
    return { response: toResponse(remembered, nonce), pending };
  }

  if (waitsForSecond && !tiers.seenOnce.has(key)) return null;
  // The shared tier only saves work: when it fails, the page is rendered as on a miss.
  let body: Uint8Array;
  let hit: Response | undefined;
  try {
    hit = await tiers.shared().match(key);
    if (!hit) return null;
    body = new Uint8Array(await hit.arrayBuffer());
  } catch (error) {
    captureException(error, { tags: { cache: "match" } });
    return null;
  }
  const headers = new Headers(hit.headers);
  const renderedWith = headers.get(renderNonceHeader) ?? "";
  headers.delete(renderNonceHeader);
  const page = storedPage({ body, status: hit.status, headers }, renderedWith, true);
  tiers.memory.set(key, page);
  return { response: toResponse(page, nonce), pending: null };
}

/**
 * Whether a page rendered for `key` now is to be kept: at once for a page's own address, at
 * its second rendering for one that `waitsForSecond` (this call remembers the first). A page
 * not kept is answered as it streams.
 */
export function keepsRendering(tiers: PageCacheTiers, key: string, waitsForSecond: boolean): boolean {
  return !waitsForSecond || tiers.seenOnce.seenBefore(key);
}

/** Keeps a rendered page in this isolate's memory (once `keepsRendering` said so). */
export function storePage(tiers: PageCacheTiers, key: string, page: RenderedPage, renderedWith: string): void {
  tiers.memory.set(key, storedPage(page, renderedWith, false));
}
