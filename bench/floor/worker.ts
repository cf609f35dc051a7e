/**
 * The bench's floor worker (served by bench/serve.ts): the least a worker can do for two of
 * issue #12's scenarios, behind the same wrangler dev plumbing as the edge.
 *
 *   GET /floor?page=/<asset>[&headers=/<asset>]
 *                             answers that static asset's bytes, read once through the assets
 *                             binding and then held in memory, as a page: nothing a cached page
 *                             could do costs less, so against the same file served as a static
 *                             asset it is the ceiling of the cached page's throughput. The
 *                             bytes are the page's own (the bench's same-size static file is
 *                             the page), because what serves them costs by their markup, not
 *                             only by their length (docs/decisions/039-the-floor-answers-the-page.md);
 *                             and so are the headers, when `headers` names an asset holding
 *                             them as `[name, value]` pairs, because under wrangler dev each
 *                             header costs too (docs/decisions/042-the-floor-answers-the-page-headers.md);
 *   /api/*                    passes the request to the origin over the ORIGIN binding with the
 *                             edge's credential, nothing else: the ceiling of a proxied call.
 *
 * docs/decisions/028-honest-bench.md ("Ceilings") reads the figures.
 */
type FloorEnv = {
  ORIGIN?: { fetch(request: Request): Promise<Response> };
  ASSETS?: { fetch(request: Request): Promise<Response> };
  EDGE_SECRET?: string;
};

type HeldPage = { body: Uint8Array<ArrayBuffer>; headers: [string, string][] };

const MAX_PAGES = 16;
const pages = new Map<string, HeldPage>();

const usage = (status: number, detail: string) =>
  new Response(`${detail}\nGET /floor?page=/<static asset>[&headers=/<static asset>], or /api/*\n`, {
    status,
    headers: { "Content-Type": "text/plain" },
  });

/** A path of the assets (not another origin's), or null. */
const assetPath = (value: string | null) => (value?.startsWith("/") && !value.startsWith("//") ? value : null);

const isHeaderList = (value: unknown): value is [string, string][] =>
  Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === "string"));

/**
 * The asset's bytes, and the headers to answer them with (the page's own, else the asset's
 * type alone), read through the assets binding the first time and held after that.
 */
async function heldPage(
  assets: NonNullable<FloorEnv["ASSETS"]>,
  page: string,
  headersAsset: string | null,
  base: URL,
): Promise<HeldPage | Response> {
  const id = `${page}\n${headersAsset ?? ""}`;
  const held = pages.get(id);
  if (held) return held;
  const asset = await assets.fetch(new Request(new URL(page, base)));
  // A file the bench has just written may not be served yet: nothing is held until it is.
  if (asset.status !== 200) return usage(404, `${page}: the assets answered ${asset.status}`);
  let headers: [string, string][] = [["Content-Type", asset.headers.get("Content-Type") ?? "text/html"]];
  if (headersAsset) {
    const listed = await assets.fetch(new Request(new URL(headersAsset, base)));
    if (listed.status !== 200) return usage(404, `${headersAsset}: the assets answered ${listed.status}`);
    const list: unknown = await listed.json().catch(() => null);
    if (!isHeaderList(list)) return usage(404, `${headersAsset}: not a list of [name, value] pairs`);
    headers = list;
  }
  const read = { body: new Uint8Array(await asset.arrayBuffer()), headers };
  if (pages.size >= MAX_PAGES) pages.clear();
  pages.set(id, read);
  return read;
}

export default {
  async fetch(request: Request, env: FloorEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/api/") && env.ORIGIN) {
      const forwarded = new Request(request);
      if (env.EDGE_SECRET) forwarded.headers.set("X-Edge-Secret", env.EDGE_SECRET);
      return env.ORIGIN.fetch(forwarded);
    }
    const page = assetPath(url.searchParams.get("page"));
    const headersAsset = assetPath(url.searchParams.get("headers"));
    if (url.pathname !== "/floor" || !page || (url.searchParams.has("headers") && !headersAsset)) return usage(404, "not a floor request");
    if (!env.ASSETS) return usage(500, "the floor is configured without its ASSETS binding");
    const held = await heldPage(env.ASSETS, page, headersAsset, url);
    if (held instanceof Response) return held;
    return new Response(held.body, { headers: held.headers });
  },
};
