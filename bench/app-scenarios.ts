/**
 * The loads of `npm run bench`, each beside its ceiling or anchor: the cached page beside
 * a static file of its size, the uncached page beside the anchor app's server render (of its
 * own page, and of /help's page: bench/build-anchors.ts), the session call through the edge beside the same call straight to the origin. The floor
 * worker (bench/floor/worker.ts) does the least a worker could in the cached page's and
 * the edge's place: what it reaches bounds what any code there can.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { LoadKey } from "./app-targets.ts";
import { request } from "./http.ts";
import { load, type LoadResult, type LoadSpec } from "./load.ts";
import { treeCpuMs } from "./process-cpu.ts";
import type { Check, Scenario } from "./scenario.ts";
import { policyReportOnly } from "./page-headers.ts";
import type { SameSizeStatic } from "./same-size-static.ts";
import type { AppServerInfo } from "./serve.ts";

/** Upper bound on requests per load, whatever the duration. */
const MAX_REQUESTS_PER_LOAD = 400_000;

/** Pages are measured in English (the edge picks the language by Accept-Language). */
const english = { "Accept-Language": "en" };

/** A load of `spec` on the server whose wrangler runs as `serverPid`, with that server's CPU per request. */
const loadOf = (baseUrl: string, serverPid: number | null, spec: LoadSpec) => async (durationS: number) => {
  const cpuBefore = serverPid === null ? null : treeCpuMs(serverPid);
  const result = await load(baseUrl, spec, durationS, MAX_REQUESTS_PER_LOAD);
  const cpuAfter = serverPid === null ? null : treeCpuMs(serverPid);
  if (cpuBefore !== null && cpuAfter !== null && result.requests > 0)
    result.serverCpuMsPerRequest = (cpuAfter - cpuBefore) / result.requests;
  return result;
};

function expect200(label: string, status: number, extra?: string): Check {
  return status === 200 ? { ok: true, detail: `200${extra ? `, ${extra}` : ""}` } : { ok: false, detail: `${label}: status ${status}` };
}

function sessionCheck(url: string, token: string): () => Promise<Check> {
  return async () => {
    const { status, body } = await request(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    if (status !== 200) return { ok: false, detail: `status ${status}: ${body.slice(0, 200)}` };
    const parsed = JSON.parse(body) as { code?: string; data?: { handle?: string } };
    return parsed.code === "SUCCESS" && parsed.data?.handle === "bench_user"
      ? { ok: true, detail: "200, code SUCCESS, user bench_user" }
      : { ok: false, detail: `unexpected body ${body.slice(0, 200)}` };
  };
}

/** A fresh query for every request: no cache can answer it. */
function freshPaths() {
  let counter = 0;
  return (pathname: string) => `${pathname}?bench=${Date.now().toString(36)}-${++counter}`;
}

export function buildScenarios(info: AppServerInfo, sameSizeStatic: SameSizeStatic): Scenario<LoadKey, LoadResult>[] {
  const { edgeUrl, originUrl, anchorUrl, twinUrl, floorUrl, token, pids } = info;
  // The floor answers the static file's own bytes, which are the page's, with the page's own
  // headers (bench/floor/worker.ts).
  const floorPage = `/floor?page=${encodeURIComponent(sameSizeStatic.path)}&headers=${encodeURIComponent(sameSizeStatic.headersPath)}`;
  /** The headers the edge answered /help with, as the bench wrote them beside the static file. */
  const pageHeaders = async () => JSON.parse((await request(edgeUrl + sameSizeStatic.headersPath)).body) as [string, string][];
  const fresh = freshPaths();
  /** A page rendered afresh for every request, in English: a new query each time. */
  const freshLoad = (baseUrl: string, serverPid: number | null, pathname: string) =>
    loadOf(baseUrl, serverPid, {
      method: "GET",
      path: pathname,
      headers: english,
      setupRequest: (req) => ({ ...req, path: fresh(pathname) }),
    });
  // As the app's client sends it (app/session/session-call.ts): a POST without a body.
  const sessionSpec: LoadSpec = {
    method: "POST",
    path: "/api/user/session",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "0" },
  };
  const sessionScenario = (key: LoadKey, label: string, baseUrl: string, serverPid: number | null): Scenario<LoadKey, LoadResult> => ({
    key,
    label,
    url: baseUrl + sessionSpec.path,
    load: loadOf(baseUrl, serverPid, sessionSpec),
    check: sessionCheck(baseUrl + sessionSpec.path, token),
  });
  return [
    {
      key: "sameSizeStatic",
      label: `static file of /help's size ${sameSizeStatic.path}`,
      url: edgeUrl + sameSizeStatic.path,
      load: loadOf(edgeUrl, pids.edge, { method: "GET", path: sameSizeStatic.path }),
      check: async () => {
        // wrangler dev picks the new file up by itself; allow it a moment.
        let last = "";
        for (let i = 0; i < 50; i++) {
          const { status, body, headers } = await request(edgeUrl + sameSizeStatic.path);
          const bytes = Buffer.byteLength(body);
          if (status === 200 && bytes === sameSizeStatic.bytes)
            return expect200("static", status, `${bytes} bytes, ${headers.get("Content-Type")}`);
          last = `status ${status}, ${bytes} bytes`;
          await sleep(100);
        }
        return { ok: false, detail: `expected 200 with ${sameSizeStatic.bytes} bytes, got ${last}` };
      },
    },
    {
      key: "cachedPage",
      label: "cached page GET /help (HIT)",
      url: `${edgeUrl}/help`,
      load: loadOf(edgeUrl, pids.edge, { method: "GET", path: "/help", headers: english }),
      check: async () => {
        await request(`${edgeUrl}/help`, { headers: english }); // warms the edge cache
        // The cache write happens in waitUntil: allow it a moment.
        let cache = "";
        for (let i = 0; i < 20; i++) {
          const { status, headers, body } = await request(`${edgeUrl}/help`, { headers: english });
          cache = headers.get("X-Edge-Cache") ?? "(none)";
          if (status !== 200) return expect200("/help", status);
          if (cache === "HIT") {
            const bytes = Buffer.byteLength(body);
            return bytes === sameSizeStatic.bytes
              ? { ok: true, detail: `200, X-Edge-Cache: HIT, ${bytes} bytes` }
              : { ok: false, detail: `/help is ${bytes} bytes now, its static twin ${sameSizeStatic.bytes}` };
          }
          await sleep(100);
        }
        return { ok: false, detail: `expected X-Edge-Cache: HIT, got ${cache}` };
      },
    },
    {
      key: "floorPage",
      label: "floor worker, /help's bytes from memory",
      url: floorUrl + floorPage,
      load: loadOf(floorUrl, pids.floor, { method: "GET", path: floorPage }),
      check: async () => {
        // The floor's own wrangler dev picks the new file up by itself too; allow it a moment.
        const page = (await request(edgeUrl + sameSizeStatic.path)).body;
        const pagePolicy = new Headers(await pageHeaders()).get("Content-Security-Policy");
        if (!pagePolicy) return { ok: false, detail: `${sameSizeStatic.headersPath} holds no Content-Security-Policy` };
        let last = "";
        for (let i = 0; i < 50; i++) {
          const { status, body, headers } = await request(floorUrl + floorPage);
          const policy = headers.get("Content-Security-Policy");
          if (status === 200 && body === page && policy === pagePolicy)
            return { ok: true, detail: `200, the static file's ${Buffer.byteLength(body)} bytes, the page's headers` };
          last =
            status !== 200
              ? `status ${status}`
              : body !== page
                ? `${Buffer.byteLength(body)} bytes that are not the static file's`
                : `Content-Security-Policy ${policy ?? "(none)"}`;
          await sleep(100);
        }
        return { ok: false, detail: `expected the static file's ${sameSizeStatic.bytes} bytes and the page's headers, got ${last}` };
      },
    },
    {
      key: "uncachedPage",
      label: "uncached SSR GET /help?bench=<n> (MISS)",
      url: `${edgeUrl}/help?bench=<n>`,
      load: freshLoad(edgeUrl, pids.edge, "/help"),
      check: async () => {
        const { status, headers } = await request(edgeUrl + fresh("/help"), { headers: english });
        if (status !== 200) return expect200("/help?bench", status);
        const cache = headers.get("X-Edge-Cache") ?? "(none)";
        return cache === "MISS"
          ? { ok: true, detail: "200, X-Edge-Cache: MISS" }
          : { ok: false, detail: `expected X-Edge-Cache: MISS, got ${cache}` };
      },
    },
    {
      key: "anchorSsr",
      label: "anchor SSR GET /?bench=<n>",
      url: `${anchorUrl}/?bench=<n>`,
      // The anchor caches nothing; the fresh query treats it exactly as the uncached /help.
      load: freshLoad(anchorUrl, pids.anchor, "/"),
      check: async () => {
        const { status, headers, body } = await request(anchorUrl + fresh("/"), { headers: english });
        if (status !== 200) return expect200("anchor /", status);
        if (!body.includes("<h1>Help</h1>")) return { ok: false, detail: "the anchor's page has no <h1>Help</h1>" };
        const cached = ["Age", "CF-Cache-Status", "Cache-Control"].filter((name) => headers.has(name));
        return cached.length
          ? { ok: false, detail: `the anchor's answer carries ${cached.join(", ")}: something may cache it` }
          : { ok: true, detail: `200, server-rendered, no caching headers, ${Buffer.byteLength(body)} bytes` };
      },
    },
    {
      // The anchor rendering the page /help is (its elements, links and loader data, captured
      // by bench/build-anchors.ts): what the framework alone costs for that page.
      key: "anchorTwinSsr",
      label: "anchor SSR of /help's page GET /twin?bench=<n>",
      url: `${twinUrl}/twin?bench=<n>`,
      load: freshLoad(twinUrl, pids.twin, "/twin"),
      check: async () => {
        const { status, body, headers } = await request(twinUrl + fresh("/twin"), { headers: english });
        if (status !== 200) return expect200("anchor /twin (built by bench/build-anchors.ts?)", status);
        const bytes = Buffer.byteLength(body);
        // Within a tenth of the page's size: the same elements, without Paydesk's start-up scripts.
        if (Math.abs(bytes - sameSizeStatic.bytes) > sameSizeStatic.bytes / 10)
          return { ok: false, detail: `${bytes} bytes where /help has ${sameSizeStatic.bytes}: not /help's page` };
        // The same headers as /help's (their values were captured from another rendering).
        const missing = policyReportOnly(await pageHeaders())
          .map(([name]) => name)
          .filter((name) => !headers.has(name));
        return missing.length
          ? { ok: false, detail: `/help's headers the twin does not answer with: ${missing.join(", ")}` }
          : { ok: true, detail: `200, ${bytes} bytes (/help: ${sameSizeStatic.bytes}), /help's headers` };
      },
    },
    // The same request through the edge and straight to the origin: the proxy's cost. Both
    // pass one wrangler dev entry in front of the worker, so that cost is on both sides.
    sessionScenario("sessionProxied", "POST /api/user/session via edge", edgeUrl, pids.edge),
    sessionScenario("sessionDirect", "POST /api/user/session origin direct", originUrl, pids.origin),
    sessionScenario("sessionFloor", "POST /api/user/session via floor worker", floorUrl, pids.floor),
  ];
}
