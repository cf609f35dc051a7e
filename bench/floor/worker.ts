/**
 * The bench's floor worker (served by bench/serve.ts): the least a worker can do for two of
 * issue #12's scenarios, behind the same wrangler dev plumbing as the edge.
 *
 *   GET /floor?bytes=N  answers N bytes it holds in memory, as a page: nothing a cached page
 *                       could do costs less, so against the same-size static file it is the
 *                       ceiling of the cached page's throughput;
 *   /api/*              passes the request to the origin over the ORIGIN binding with the
 *                       edge's credential, nothing else: the ceiling of a proxied call.
 *
 * docs/decisions/028-honest-bench.md ("Ceilings") reads the figures.
 */
type FloorEnv = { ORIGIN?: { fetch(request: Request): Promise<Response> }; EDGE_SECRET?: string };

const MAX_BYTES = 1 << 20;
const bodies = new Map<number, Uint8Array<ArrayBuffer>>();

function bodyOf(bytes: number): Uint8Array<ArrayBuffer> {
  let body = bodies.get(bytes);
  if (!body) {
    body = new TextEncoder().encode("x".repeat(bytes));
    bodies.set(bytes, body);
  }
  return body;
}

export default {
  fetch(request: Request, env: FloorEnv): Response | Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/api/") && env.ORIGIN) {
      const forwarded = new Request(request);
      if (env.EDGE_SECRET) forwarded.headers.set("X-Edge-Secret", env.EDGE_SECRET);
      return env.ORIGIN.fetch(forwarded);
    }
    const bytes = Number(url.searchParams.get("bytes"));
    if (url.pathname !== "/floor" || !Number.isInteger(bytes) || bytes < 0 || bytes > MAX_BYTES) {
      return new Response("GET /floor?bytes=N (0 ≤ N ≤ 1 MiB), or /api/*", { status: 404 });
    }
    return new Response(bodyOf(bytes), { headers: { "Content-Type": "text/html; charset=utf-8" } });
  },
};
