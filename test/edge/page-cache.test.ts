import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import type { RouterContextProvider, ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { createEdgeHandler, type EdgeEnv } from "../../workers/edge/edge-handler";
import { createPageCache, isShareable, joinAroundNonce, pageCacheKey, SeenOnce, splitAroundNonce } from "../../workers/edge/page-cache";
import { PageMemory } from "../../workers/edge/page-memory";
import { staticPagePaths } from "../../workers/edge/static-pages";
import { cspNonceContext } from "#app/server-context";

const utf8 = new TextEncoder();

/** The pages these tests' handlers render, each at its own path under a root. */
const stubRoutes = Object.fromEntries([
  ["root", { id: "root", path: "" }],
  ...["help", "tos", "once", "popular"].map((path) => [path, { id: path, path, parentId: "root" }]),
]);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function edgeSettled(path: string) {
  const response = await exports.default.fetch(new Request(`https://paydesk.test${path}`));
  const body = await response.text();
  return { response, body };
}

/** One request through a handler under test: its answer, its body read, its waitUntil work done. */
async function handled(handle: ReturnType<typeof createEdgeHandler>, path: string, env: EdgeEnv = { CF_VERSION_METADATA: { id: "d" } }) {
  const ctx = createExecutionContext();
  const response = await handle(new Request(`https://paydesk.test${path}`), env, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body };
}

describe("the edge page cache (the built worker)", () => {
  it("renders a page once and serves the repeat from the cache", async () => {
    const path = "/tos";
    const first = await edgeSettled(path);
    // The built worker's isolate is shared with the other files: an earlier visit may have kept it.
    expect(["MISS", "HIT"]).toContain(first.response.headers.get("X-Edge-Cache"));
    const second = await edgeSettled(path);
    expect(second.response.headers.get("X-Edge-Cache")).toBe("HIT");
    // Same document; only the nonce differs (renewed per response).
    const withoutNonce = (html: string) => html.replace(/\s*nonce="[^"]*"/g, "").replace(/\s+(\/?>)/g, "$1");
    expect(withoutNonce(second.body)).toBe(withoutNonce(first.body));
    expect(second.body).not.toBe(first.body);
  });

  it("keeps a URL with a query when it is asked for a second time, not before", async () => {
    const path = `/tos?visit=${crypto.randomUUID()}`;
    const answers = [await edgeSettled(path), await edgeSettled(path), await edgeSettled(path)];
    expect(answers.map((answer) => answer.response.headers.get("X-Edge-Cache"))).toEqual(["MISS", "MISS", "HIT"]);
    // Rendered or kept, the same page apart from its nonce, and each answer on its own.
    const nonces = answers.map(({ body }) => /<script nonce="([^"]+)"/.exec(body)?.[1]);
    expect(new Set(nonces).size).toBe(3);
    const withoutNonce = answers.map(({ body }, index) => body.replaceAll(`nonce="${nonces[index]}"`, 'nonce=""'));
    expect(withoutNonce[1]).toBe(withoutNonce[0]);
    expect(withoutNonce[2]).toBe(withoutNonce[0]);
  });

  it("caches .data answers of public routes too", async () => {
    const path = `/help.data?visit=${crypto.randomUUID()}`;
    expect((await edgeSettled(path)).response.headers.get("X-Edge-Cache")).toBe("MISS");
    expect((await edgeSettled(path)).response.headers.get("X-Edge-Cache")).toBe("MISS");
    expect((await edgeSettled(path)).response.headers.get("X-Edge-Cache")).toBe("HIT");
  });

  it("never keeps the back office's pages, and tells robots not to index them", async () => {
    // React Router matches paths in any letter case and percent-decoded: so does the edge.
    const paths = ["/ops", "/ops/people", `/ops/orders/ord_x?visit=${crypto.randomUUID()}`, "/OPS", "/Ops/People", "/%6Fps/people"];
    for (const path of paths) {
      for (const attempt of [1, 2]) {
        const { response, body } = await edgeSettled(path);
        expect(response.status, `${path} #${attempt}`).toBe(200);
        expect(response.headers.get("X-Edge-Cache"), path).toBe("BYPASS");
        expect(response.headers.get("Cache-Control"), path).toBe("no-store");
        expect(response.headers.get("X-Robots-Tag"), path).toBe("noindex, nofollow");
        expect(body, path).toContain('<meta name="robots" content="noindex, nofollow"/>');
      }
    }
    // The people's pages stay cacheable and indexable.
    expect((await edgeSettled(`/help?visit=${crypto.randomUUID()}`)).response.headers.get("X-Robots-Tag")).toBeNull();
  });

  it("keeps 404 pages and API answers out of the cache", async () => {
    const missing = await edgeSettled("/no-such-page");
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get("X-Edge-Cache")).toBe("BYPASS");
    // Not to be kept downstream either: React Router gives it the root's public headers.
    expect(missing.response.headers.get("Cache-Control")).toBe("no-store");
    expect(missing.body).toContain("Page not found");
  });

  it("answers a missing hashed asset with a plain 404, never the HTML page", async () => {
    const { response, body } = await edgeSettled("/assets/route-0ld0ld0l.js");
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toBe("text/plain");
    expect(body).not.toContain("<html");
  });
});

describe("the cache key and what may be shared", () => {
  it("keys by URL, language and deploy version", () => {
    const url = new URL("https://paydesk.test/help?b=2&a=1");
    expect(pageCacheKey(url, "v1", "en")).toBe(pageCacheKey(new URL("https://paydesk.test/help?a=1&b=2"), "v1", "en"));
    expect(pageCacheKey(url, "v1", "en")).not.toBe(pageCacheKey(url, "v2", "en"));
    expect(pageCacheKey(url, "v1", "en")).not.toBe(pageCacheKey(url, "v1", "zh-CN"));
    expect(pageCacheKey(url, "v1", "en")).not.toBe(pageCacheKey(new URL("https://paydesk.test/tos?a=1&b=2"), "v1", "en"));
    // The page's URL is left as it was.
    expect(url.search).toBe("?b=2&a=1");
    // The key's own parameters come last: a query naming them is a page of its own.
    const plain = pageCacheKey(new URL("https://paydesk.test/help"), "v1", "en");
    expect(plain).toBe("https://paydesk.test/help?__deploy=v1&__lang=en");
    expect(pageCacheKey(new URL("https://paydesk.test/help?__lang=en"), "v1", "en")).not.toBe(plain);
    expect(pageCacheKey(new URL("https://paydesk.test/help?__deploy=v1&__lang=en"), "v1", "en")).not.toBe(plain);
    expect(pageCacheKey(new URL("https://paydesk.test/help?b=2&a=1"), "v 1", "zh-CN")).toBe(
      "https://paydesk.test/help?a=1&b=2&__deploy=v+1&__lang=zh-CN",
    );
  });

  it.each([
    ["public, s-maxage=60", 200, {}, true],
    ["public, max-age=0, s-maxage=60", 200, {}, true],
    ["private, max-age=60", 200, {}, false],
    ["public, no-store, s-maxage=60", 200, {}, false],
    ["public, s-maxage=0", 200, {}, false],
    ["public, s-maxage=60", 404, {}, false],
    ["public, s-maxage=60", 200, { "Set-Cookie": "a=1" }, false],
    [null, 200, {}, false],
  ])("Cache-Control %s with status %i shareable: %s", (cacheControl, status, extra, expected) => {
    const headers = new Headers(extra);
    if (cacheControl) headers.set("Cache-Control", cacheControl);
    expect(isShareable(new Response("x", { status, headers }))).toBe(expected);
  });
});

describe("the edge handler renders once per deploy version", () => {
  const build = { assets: { version: "client-1" }, routes: stubRoutes } as unknown as ServerBuild;

  it("serves repeats without rendering, and renders again for a new deploy", async () => {
    let renders = 0;
    const cache = await caches.open(`pages-${crypto.randomUUID()}`);
    const handle = createEdgeHandler({
      build,
      cache: createPageCache(() => cache),
      render: async () => {
        renders += 1;
        return new Response(`<!doctype html><p>render ${renders}</p>`, {
          headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" },
        });
      },
    });
    const get = async (version: string) => {
      const { response, body } = await handled(handle, "/help", { CF_VERSION_METADATA: { id: version } });
      return { text: body, cache: response.headers.get("X-Edge-Cache") };
    };

    expect(await get("deploy-1")).toEqual({ text: "<!doctype html><p>render 1</p>", cache: "MISS" });
    expect(await get("deploy-1")).toEqual({ text: "<!doctype html><p>render 1</p>", cache: "HIT" });
    expect(renders).toBe(1);
    expect(await get("deploy-2")).toEqual({ text: "<!doctype html><p>render 2</p>", cache: "MISS" });
    expect(renders).toBe(2);
  });

  it("renders a URL with a query twice before keeping it, and a one-off never enters either tier", async () => {
    let renders = 0;
    const shared = await caches.open(`pages-${crypto.randomUUID()}`);
    const handleRender = async (_request: Request, context: RouterContextProvider) => {
      renders += 1;
      return new Response(`<!doctype html><script nonce="${context.get(cspNonceContext)}"></script><p>${renders}</p>`, {
        headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" },
      });
    };
    // An isolate of its own: its own memory tier and list of one-off URLs, the shared tier in common.
    const isolate = () => {
      const handle = createEdgeHandler({ build, cache: createPageCache(() => shared), render: handleRender });
      return async (path: string) => (await handled(handle, path)).response.headers.get("X-Edge-Cache");
    };
    const get = isolate();
    const sharedKey = (path: string) => pageCacheKey(new URL(`https://paydesk.test${path}`), "d.client-1", "en");

    expect(await get("/help?utm=once")).toBe("MISS");
    expect(await get("/help?utm=twice")).toBe("MISS");
    expect(await get("/help?utm=twice")).toBe("MISS");
    expect(renders).toBe(3);
    expect(await get("/help?utm=twice")).toBe("HIT");
    expect(renders).toBe(3);
    expect(await shared.match(sharedKey("/help?utm=once"))).toBeUndefined();
    expect(await shared.match(sharedKey("/help?utm=twice"))).toBeDefined();
    // The page without a query is kept at its first rendering, as before.
    expect(await get("/help")).toBe("MISS");
    expect(await get("/help")).toBe("HIT");
    expect(renders).toBe(4);

    // Another isolate looks a query URL up in the shared tier from its second request.
    const getOther = isolate();
    expect(await getOther("/help?utm=twice")).toBe("MISS");
    expect(renders).toBe(5);
    expect(await getOther("/help?utm=twice")).toBe("HIT");
    expect(renders).toBe(5);
    // A page without a query is looked up there at once.
    expect(await getOther("/help")).toBe("HIT");
    expect(renders).toBe(5);
  });

  it("answers a URL with a query seen for the first time as it renders, and reads it whole only when it keeps it", async () => {
    // Each rendering sends its first piece at once and its last only when the test releases
    // it: an edge that read the page whole before answering could not answer until then.
    const releases: (() => void)[] = [];
    const shared = await caches.open(`pages-${crypto.randomUUID()}`);
    const handle = createEdgeHandler({
      build,
      cache: createPageCache(() => shared),
      render: async () =>
        new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(utf8.encode("<!doctype html><p>first</p>"));
              await new Promise<void>((resolve) => releases.push(resolve));
              controller.enqueue(utf8.encode("<p>last</p>"));
              controller.close();
            },
          }),
          { headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" } },
        ),
    });
    const answer = (path: string) =>
      handle(new Request(`https://paydesk.test${path}`), { CF_VERSION_METADATA: { id: "d" } }, createExecutionContext());
    const settles = async (pending: Promise<Response>) =>
      await Promise.race([pending.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 200))]);

    const once = answer("/help?utm=streamed");
    expect(await settles(once)).toBe(true);
    const streamed = await once;
    expect(streamed.headers.get("X-Edge-Cache")).toBe("MISS");
    releases.shift()?.();
    expect(await streamed.text()).toBe("<!doctype html><p>first</p><p>last</p>");

    // Its second rendering is kept, so it is read whole first: no answer before its last piece.
    const again = answer("/help?utm=streamed");
    expect(await settles(again)).toBe(false);
    releases.shift()?.();
    expect(await (await again).text()).toBe("<!doctype html><p>first</p><p>last</p>");
  });

  it("admits a page to the data centre's cache when it is asked for again, for other isolates", async () => {
    let renders = 0;
    const shared = await caches.open(`pages-${crypto.randomUUID()}`);
    const isolate = () =>
      createEdgeHandler({
        build,
        cache: createPageCache(() => shared),
        render: async () => {
          renders += 1;
          return new Response("<!doctype html><p>page</p>", {
            headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" },
          });
        },
      });
    const get = async (handle: ReturnType<typeof isolate>, path: string) =>
      (await handled(handle, path)).response.headers.get("X-Edge-Cache");

    const first = isolate();
    expect(await get(first, "/once")).toBe("MISS");
    const sharedKey = (path: string) => pageCacheKey(new URL(`https://paydesk.test${path}`), "d.client-1", "en");
    expect(await shared.match(sharedKey("/once"))).toBeUndefined();
    expect(await get(isolate(), "/once")).toBe("MISS");
    expect(renders).toBe(2);

    expect(await get(first, "/popular")).toBe("MISS");
    expect(await get(first, "/popular")).toBe("HIT");
    expect(renders).toBe(3);
    expect(await shared.match(sharedKey("/popular"))).toBeDefined();
    expect(await get(isolate(), "/popular")).toBe("HIT");
    expect(renders).toBe(3);
  });
});

describe("a page's own address", () => {
  it("lists the paths without a parameter, nested and index routes joined, with their data URLs", () => {
    const routes = {
      root: { id: "root", path: "" },
      home: { id: "home", parentId: "root", index: true },
      help: { id: "help", parentId: "root", path: "help" },
      receipt: { id: "receipt", parentId: "root", path: "wallet/receipts/:kind/:id" },
      ops: { id: "ops", parentId: "root", path: "ops" },
      opsIndex: { id: "opsIndex", parentId: "ops", index: true },
      people: { id: "people", parentId: "ops", path: "people" },
      person: { id: "person", parentId: "ops", path: "people/:id" },
      notFound: { id: "notFound", parentId: "root", path: "*" },
    } as unknown as ServerBuild["routes"];
    expect([...staticPagePaths({ routes })].sort()).toEqual(
      ["/", "/_.data", "/help", "/help.data", "/ops", "/ops.data", "/ops/people", "/ops/people.data"].sort(),
    );
  });

  it("is kept at its first rendering; another spelling or an id in the path only at its second", async () => {
    let renders = 0;
    const shared = await caches.open(`pages-${crypto.randomUUID()}`);
    const handle = createEdgeHandler({
      build: { assets: { version: "client-1" }, routes: stubRoutes } as unknown as ServerBuild,
      cache: createPageCache(() => shared),
      render: async () => {
        renders += 1;
        return new Response("<!doctype html><p>page</p>", {
          headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" },
        });
      },
    });
    const get = async (path: string) => (await handled(handle, path)).response.headers.get("X-Edge-Cache");
    expect([await get("/help"), await get("/help")]).toEqual(["MISS", "HIT"]);
    // A flood of one-off addresses (each a page of the receipt route, or /help spelt otherwise)
    // is rendered and answered, but neither tier keeps any of them.
    for (const path of ["/HELP", "/help/", "/%68elp", "/wallet/receipts/transfer/trf_1", "/wallet/receipts/transfer/trf_2"]) {
      expect(await get(path), path).toBe("MISS");
      const key = pageCacheKey(new URL(`https://paydesk.test${path}`), "d.client-1", "en");
      expect(await shared.match(key), path).toBeUndefined();
    }
    expect(renders).toBe(6);
    // One asked for again is kept then, as a URL with a query is.
    expect([await get("/HELP"), await get("/HELP")]).toEqual(["MISS", "HIT"]);
  });
});

describe("when something fails", () => {
  const build = { assets: { version: "client-1" }, routes: stubRoutes } as unknown as ServerBuild;
  const page = () =>
    new Response("<!doctype html><p>page</p>", { headers: { "Content-Type": "text/html", "Cache-Control": "public, s-maxage=60" } });

  it("renders the page when the shared tier cannot be read, as on a miss", async () => {
    const broken = {
      match: () => Promise.reject(new Error("cache unavailable")),
      put: () => Promise.reject(new Error("cache unavailable")),
    } as unknown as Cache;
    const handle = createEdgeHandler({ build, cache: createPageCache(() => broken), render: async () => page() });
    const { response, body } = await handled(handle, "/help");
    expect(response.status).toBe(200);
    expect(body).toBe("<!doctype html><p>page</p>");
    // Kept in memory all the same; putting it in the shared tier fails quietly after the answer.
    const again = await handled(handle, "/help");
    expect([again.response.status, again.response.headers.get("X-Edge-Cache")]).toEqual([200, "HIT"]);
  });

  it("answers what it cannot handle with a plain 500 carrying the security headers, in the reader's language", async () => {
    const handle = createEdgeHandler({
      build,
      render: async () => {
        throw new Error("the renderer broke");
      },
    });
    const ctx = createExecutionContext();
    const request = new Request("https://paydesk.test/tos", { headers: { "Accept-Language": "zh-CN" } });
    const response = await handle(request, { CF_VERSION_METADATA: { id: "d" } }, ctx);
    expect(response.status).toBe(500);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain("default-src");
    expect(await response.text()).toContain("出错了");
  });
});

describe("the memory tier", () => {
  const page = (body: string, expiresAt = Number.POSITIVE_INFINITY) => ({
    pieces: splitAroundNonce(utf8.encode(body), "n"),
    bytes: body.length,
    status: 200,
    headers: [] as [string, string][],
    renderedWith: "n",
    expiresAt,
    shared: false,
  });

  it("evicts the least recently used pages beyond its size", () => {
    const memory = new PageMemory(100);
    memory.set("a", page("x".repeat(12)));
    memory.set("b", page("y".repeat(12)));
    memory.get("a");
    for (let i = 0; i < 7; i += 1) memory.set(`c${i}`, page("z".repeat(12)));
    expect(memory.get("a")).toBeDefined();
    expect(memory.get("b")).toBeUndefined();
    expect(memory.size).toBeLessThanOrEqual(8);
  });

  it("remembers a bounded number of one-off URLs, the oldest forgotten first", () => {
    const seen = new SeenOnce(3);
    expect(["a", "b", "c", "d"].map((key) => seen.seenBefore(key))).toEqual([false, false, false, false]);
    expect(seen.size).toBe(3);
    expect(seen.seenBefore("a")).toBe(false);
    expect(seen.seenBefore("d")).toBe(true);
    // Kept once seen twice: the third request is no longer "seen before".
    expect(seen.seenBefore("d")).toBe(false);
  });

  it("remembers one-off URLs within a length budget, so long URLs cannot fill the isolate's memory", () => {
    const seen = new SeenOnce(4096, 100);
    const long = (tag: string) => tag.padEnd(40, "x");
    expect([long("a"), long("b"), long("c")].map((key) => seen.seenBefore(key))).toEqual([false, false, false]);
    // 120 characters do not fit in 100: the oldest went.
    expect(seen.size).toBe(2);
    expect(seen.chars).toBe(80);
    expect(seen.has(long("a"))).toBe(false);
    expect(seen.seenBefore(long("c"))).toBe(true);
    expect(seen.chars).toBe(40);
    // Longer than the whole budget: not remembered, and nothing else is pushed out for it.
    expect(seen.seenBefore("y".repeat(101))).toBe(false);
    expect(seen.has("y".repeat(101))).toBe(false);
    expect(seen.has(long("b"))).toBe(true);
    expect(seen.chars).toBe(40);
  });

  it("forgets a page when its shared-cache lifetime ends", () => {
    let now = 1_000;
    const memory = new PageMemory(1_000, () => now);
    memory.set("a", page("x", 2_000));
    expect(memory.get("a")).toBeDefined();
    now = 2_000;
    expect(memory.get("a")).toBeUndefined();
  });

  it("renews only the nonce the page was rendered with", () => {
    const html = '<script nonce="old">a</script><script nonce="other">b</script><p>nonce=&quot;old&quot;</p>';
    const renewed = decode(joinAroundNonce(splitAroundNonce(utf8.encode(html), "old"), "new"));
    expect(renewed).toBe('<script nonce="new">a</script><script nonce="other">b</script><p>nonce=&quot;old&quot;</p>');
  });

  it("keeps a stored page byte for byte apart from its nonce, in any language, however often it is answered", () => {
    const html = '<html lang="zh-CN"><style nonce="r1">p{}</style><p>帮助中心 — 付款</p><script nonce="r1">go()</script></html>';
    const page = utf8.encode(html);
    const pieces = splitAroundNonce(page, "r1");
    expect(pieces).toHaveLength(3);
    // The pieces are copies: the rendered bytes go on to be answered.
    page.fill(0);
    const first = joinAroundNonce(pieces, "AAAA+/==");
    const second = joinAroundNonce(pieces, "BBBB");
    expect(decode(first)).toBe(html.replaceAll('nonce="r1"', 'nonce="AAAA+/=="'));
    expect(decode(second)).toBe(html.replaceAll('nonce="r1"', 'nonce="BBBB"'));
    // Each answer is its own copy: one body being consumed never changes another.
    expect(first.buffer).not.toBe(second.buffer);
    expect(decode(joinAroundNonce(pieces, "r1"))).toBe(html);
    // A page without the nonce (route data) is one piece, answered unchanged.
    expect(decode(joinAroundNonce(splitAroundNonce(utf8.encode('{"a":1}'), "r1"), "x"))).toBe('{"a":1}');
    // Nor is an empty nonce ever renewed: `<link nonce="">` stays as it is.
    expect(splitAroundNonce(utf8.encode('<link nonce=""/><script nonce="">'), "")).toHaveLength(1);
    // A nonce at either end, or twice in a row, leaves empty pieces that join back.
    const edges = 'nonce="r1"nonce="r1"<p>nonce="r</p>nonce="r1"';
    expect(decode(joinAroundNonce(splitAroundNonce(utf8.encode(edges), "r1"), "z"))).toBe('nonce="z"nonce="z"<p>nonce="r</p>nonce="z"');
  });

  it("answers hits on a fresh nonce that matches the response's policy, through both tiers", async () => {
    const shared = await caches.open(`pages-${crypto.randomUUID()}`);
    const build = { assets: { version: "client-1" }, routes: stubRoutes } as unknown as ServerBuild;
    const isolate = () =>
      createEdgeHandler({
        build,
        cache: createPageCache(() => shared),
        render: async (_request, context) => {
          const nonce = context.get(cspNonceContext);
          return new Response(`<!doctype html><script nonce="${nonce}">1</script><p>帮助</p><style nonce="${nonce}"></style>`, {
            headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, s-maxage=60" },
          });
        },
      });
    const get = async (handle: ReturnType<typeof isolate>) => {
      const { response, body } = await handled(handle, "/help");
      const policy = response.headers.get("Content-Security-Policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "missing";
      return { body, nonce, policy, cache: response.headers.get("X-Edge-Cache"), headers: response.headers };
    };
    const first = isolate();
    const answers = [await get(first), await get(first), await get(first), await get(isolate())];
    expect(answers.map((answer) => answer.cache)).toEqual(["MISS", "HIT", "HIT", "HIT"]);
    for (const answer of answers) {
      expect(answer.body).toBe(
        `<!doctype html><script nonce="${answer.nonce}">1</script><p>帮助</p><style nonce="${answer.nonce}"></style>`,
      );
      expect(answer.policy).toContain(`script-src 'self' 'nonce-${answer.nonce}'`);
      expect(answer.headers.get("Content-Language")).toBe("en");
      expect(answer.headers.get("Vary")).toBe("Cookie, Accept-Language");
      expect(answer.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(answer.headers.get("Strict-Transport-Security")).toContain("max-age=");
    }
    expect(new Set(answers.map((answer) => answer.nonce)).size).toBe(4);
  });
});
