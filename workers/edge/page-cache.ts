/**
 * The edge cache for pages and route data. Pages are the same for every user
 * (PRODUCT.md §1), so one rendering serves everyone until the next deploy.
 */

const renderNonceHeader = "X-Render-Nonce";

/** The cache key: the page URL (query sorted) within one deploy version. */
export function pageCacheKey(request: Request, deployVersion: string): Request {
  const url = new URL(request.url);
  url.searchParams.sort();
  url.searchParams.set("__deploy", deployVersion);
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

/** Only public, successful answers without cookies may be shared between users. */
export function isShareable(response: Response): boolean {
  if (response.status !== 200 || response.headers.has("Set-Cookie")) return false;
  const cc = directives(response.headers.get("Cache-Control"));
  if (!cc.has("public") || cc.has("private") || cc.has("no-store")) return false;
  return Number(cc.get("s-maxage") ?? cc.get("max-age") ?? 0) > 0;
}

export type CachedPage = { response: Response; renderedWith: string | null };

export async function matchPage(cache: Cache, key: Request): Promise<CachedPage | null> {
  const hit = await cache.match(key);
  if (!hit) return null;
  const response = new Response(hit.body, hit);
  const renderedWith = response.headers.get(renderNonceHeader);
  response.headers.delete(renderNonceHeader);
  return { response, renderedWith };
}

/** Stores a copy of `response` (which stays usable) and returns the store operation. */
export function storePage(cache: Cache, key: Request, response: Response, renderedWith: string): Promise<void> {
  const copy = new Response(response.clone().body, response);
  copy.headers.set(renderNonceHeader, renderedWith);
  return cache.put(key, copy);
}
