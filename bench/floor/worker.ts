/**
 * The bench's floor worker (served by bench/serve.ts): the least a worker can do for two of
 * issue #12's scenarios, behind the same wrangler dev plumbing as the edge.
 *
 *   GET /floor?page=/<asset>  answers that static asset's bytes, read once through the assets
 *                             binding and then held in memory, as a page: nothing a cached page
 *                             could do costs less, so against the same file served as a static
 *                             asset it is the ceiling of the cached page's throughput. The
 *                             bytes are the page's own (the bench's same-size static file is
 *                             the page), because what serves them costs by their markup, not
 *                             only by their length (docs/decisions/039-the-floor-answers-the-page.md);
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

type HeldPage = { body: Uint8Array<ArrayBuffer>; contentType: string };

const MAX_PAGES = 16;
const pages = new Map<string, HeldPage>();

const usage = (status: number, detail: string) =>
  new Response(`${detail}\nGET /floor?page=/<static asset>, or /api/*\n`, { status, headers: { "Content-Type": "text/plain" } });

/** The asset's bytes, read through the assets binding the first time and held after that. */
async function heldPage(assets: NonNullable<FloorEnv["ASSETS"]>, page: string, base: URL): Promise<HeldPage | Response> {
  const held = pages.get(page);
  if (held) return held;
  const asset = await assets.fetch(new Request(new URL(page, base)));
  // A file the bench has just written may not be served yet: nothing is held until it is.
  if (asset.status !== 200) return usage(404, `${page}: the assets answered ${asset.status}`);
  const read = { body: new Uint8Array(await asset.arrayBuffer()), contentType: asset.headers.get("Content-Type") ?? "text/html" };
  if (pages.size >= MAX_PAGES) pages.clear();
  pages.set(page, read);
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
    const page = url.searchParams.get("page");
    if (url.pathname !== "/floor" || !page?.startsWith("/") || page.startsWith("//")) return usage(404, "not a floor request");
    if (!env.ASSETS) return usage(500, "the floor is configured without its ASSETS binding");
    const held = await heldPage(env.ASSETS, page, url);
    if (held instanceof Response) return held;
    return new Response(held.body, { headers: { "Content-Type": held.contentType } });
  },
};
