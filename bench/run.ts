/**
 * `npm run bench` (after `npm run build`): throughput and latency of the built app in
 * workerd, and the client JavaScript/CSS sizes.
 *
 * bench/serve.ts (a child process in its own process group) serves the built edge worker
 * + static assets + origin worker with `wrangler dev`, and the origin alone with a second
 * `wrangler dev` for the direct session call. autocannon loads each scenario in turn from
 * this process.
 *
 * Exit status: 0 when the bench ran (targets met or not), 1 when it broke (server did
 * not start, a sample response was wrong, a load errored).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { runBench } from "./harness.ts";
import { waitUntilServing } from "../test/support/wrangler-dev.ts";
import { credentialFor, presentAsEdge, request } from "./http.ts";
import { DURATION_S, load, loadDescription, WARMUP_S, type LoadResult, type LoadSpec } from "./load.ts";
import {
  columns,
  loadAverage,
  noteMachineLoad,
  pad,
  padLeft,
  printScenarioTable,
  targetMark,
  writeResults,
  type TargetResult,
} from "./report.ts";
import { runScenario, scenarioFailed, type Check, type Scenario, type ScenarioResult } from "./scenario.ts";
import type { AppServerInfo } from "./serve.ts";
import { KB, measureSizes, type Sizes } from "./sizes.ts";
import { appBuild } from "./snapshot.ts";

const resultsFile = "bench/results/latest.json";

/** Upper bound on requests per load, whatever the duration. */
const MAX_REQUESTS_PER_LOAD = 400_000;
/**
 * The whole run (without the build) is stopped after this: 5 scenarios, plus start-up
 * (wrangler migrates and seeds two D1s, then starts two wrangler dev) and sizes.
 */
const WATCHDOG_MS = (180 + 5 * (WARMUP_S + DURATION_S + 20)) * 1000;

const targets = {
  cachedVsStatic: 0.8,
  uncachedVsStatic: 0.3,
  proxiedVsDirectP50: 1.5,
  firstVisitJsKb: 130,
  routeChunkKb: 15,
};

// ---------------------------------------------------------------------------
// Scenarios

type Key = "static" | "cachedPage" | "uncachedPage" | "sessionProxied" | "sessionDirect";
type AppScenarioResult = ScenarioResult<Key, LoadResult>;

const loadOf = (baseUrl: string, spec: LoadSpec) => (durationS: number) => load(baseUrl, spec, durationS, MAX_REQUESTS_PER_LOAD);

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

function buildScenarios(info: AppServerInfo, staticAsset: string): Scenario<Key, LoadResult>[] {
  const { edgeUrl, originUrl, token } = info;
  let missCounter = 0;
  const missPath = () => `/help?bench=${Date.now().toString(36)}-${++missCounter}`;
  // As the app's client sends it (app/session/session-call.ts): a POST without a body.
  const sessionSpec: LoadSpec = {
    method: "POST",
    path: "/api/user/session",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "0" },
  };
  const sessionScenario = (key: Key, label: string, baseUrl: string): Scenario<Key, LoadResult> => ({
    key,
    label,
    url: baseUrl + sessionSpec.path,
    load: loadOf(baseUrl, sessionSpec),
    check: sessionCheck(baseUrl + sessionSpec.path, token),
  });
  return [
    {
      key: "static",
      label: `static asset ${staticAsset}`,
      url: edgeUrl + staticAsset,
      load: loadOf(edgeUrl, { method: "GET", path: staticAsset }),
      check: async () => {
        const { status, headers } = await request(edgeUrl + staticAsset);
        return expect200("static asset", status, headers.get("Content-Type") ?? "");
      },
    },
    {
      key: "cachedPage",
      label: "cached page GET /help (HIT)",
      url: `${edgeUrl}/help`,
      load: loadOf(edgeUrl, { method: "GET", path: "/help" }),
      check: async () => {
        await request(`${edgeUrl}/help`); // warms the edge cache
        // The cache write happens in waitUntil: allow it a moment.
        let cache = "";
        for (let i = 0; i < 20; i++) {
          const { status, headers } = await request(`${edgeUrl}/help`);
          cache = headers.get("X-Edge-Cache") ?? "(none)";
          if (status !== 200) return expect200("/help", status);
          if (cache === "HIT") return { ok: true, detail: "200, X-Edge-Cache: HIT" };
          await sleep(100);
        }
        return { ok: false, detail: `expected X-Edge-Cache: HIT, got ${cache}` };
      },
    },
    {
      key: "uncachedPage",
      label: "uncached SSR GET /help?bench=<n> (MISS)",
      url: `${edgeUrl}/help?bench=<n>`,
      // A new path for every request defeats the edge cache.
      load: loadOf(edgeUrl, { method: "GET", path: "/help", setupRequest: (req) => ({ ...req, path: missPath() }) }),
      check: async () => {
        const { status, headers } = await request(edgeUrl + missPath());
        if (status !== 200) return expect200("/help?bench", status);
        const cache = headers.get("X-Edge-Cache") ?? "(none)";
        return cache === "MISS"
          ? { ok: true, detail: "200, X-Edge-Cache: MISS" }
          : { ok: false, detail: `expected X-Edge-Cache: MISS, got ${cache}` };
      },
    },
    // The same request through the edge and straight to the origin: the proxy's cost. Both
    // pass one wrangler dev entry in front of the worker, so that cost is on both sides.
    sessionScenario("sessionProxied", "POST /api/user/session via edge", edgeUrl),
    sessionScenario("sessionDirect", "POST /api/user/session origin direct", originUrl),
  ];
}

// ---------------------------------------------------------------------------
// Report

/** More than 1% of the requests failed at the socket level: the numbers are suspect. */
const erratic = (r: LoadResult) => r.errors > 0.01 * Math.max(1, r.requests);
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

function evaluateTargets(results: AppScenarioResult[], sizes: Sizes | null): TargetResult[] {
  const get = (key: Key) => {
    const r = results.find((s) => s.key === key);
    return r?.result && r.checkBefore.ok && (r.checkAfter?.ok ?? true) ? r.result : null;
  };
  const staticR = get("static");
  const ratio = (key: Key, min: number, name: string): TargetResult => {
    const r = get(key);
    if (!r || !staticR) return { name, target: `≥ ${min}× static req/s`, actual: "n/a", met: null };
    const value = r.rps / staticR.rps;
    return { name, target: `≥ ${min}× static req/s`, actual: `${value.toFixed(2)}×`, met: value >= min };
  };
  const list: TargetResult[] = [
    ratio("cachedPage", targets.cachedVsStatic, "cached page throughput"),
    ratio("uncachedPage", targets.uncachedVsStatic, "uncached /help throughput"),
  ];
  const proxied = get("sessionProxied");
  const direct = get("sessionDirect");
  if (proxied && direct) {
    const value = proxied.latencyMs.p50 / direct.latencyMs.p50;
    list.push({
      name: "proxied session p50",
      target: `≤ ${targets.proxiedVsDirectP50}× direct p50`,
      actual: `${value.toFixed(2)}× (${proxied.latencyMs.p50.toFixed(2)} vs ${direct.latencyMs.p50.toFixed(2)} ms)`,
      met: value <= targets.proxiedVsDirectP50,
    });
  } else {
    list.push({ name: "proxied session p50", target: `≤ ${targets.proxiedVsDirectP50}× direct p50`, actual: "n/a", met: null });
  }
  if (sizes) {
    list.push({
      name: "first-visit JS (/)",
      target: `≤ ${targets.firstVisitJsKb} KB gzip`,
      actual: kb(sizes.firstVisit.totalGzip),
      met: sizes.firstVisit.totalGzip <= targets.firstVisitJsKb * KB,
    });
    const largest = [...sizes.routes].sort((a, b) => b.gzip - a.gzip)[0];
    const over = sizes.routes.filter((r) => r.gzip > targets.routeChunkKb * KB);
    list.push({
      name: "each route chunk",
      target: `≤ ${targets.routeChunkKb} KB gzip`,
      actual: largest
        ? `largest ${largest.routeId} ${kb(largest.gzip)}${over.length ? `; over: ${over.map((r) => r.routeId).join(", ")}` : ""}`
        : "n/a",
      met: over.length === 0,
    });
  }
  return list;
}

function printReport(results: AppScenarioResult[], sizes: Sizes | null, targetResults: TargetResult[]): void {
  const staticRps = results.find((s) => s.key === "static")?.result?.rps;
  console.log(`\nThroughput and latency (${loadDescription})\n`);
  printScenarioTable(
    results,
    46,
    [
      columns.rps,
      columns.p50,
      columns.p99,
      { title: "×static", width: 8, value: (r) => (staticRps ? `${(r.rps / staticRps).toFixed(2)}` : "—") },
      { title: "KB/resp", width: 8, value: (r) => (r.bytesPerResponse / KB).toFixed(1) },
      columns.non2xx,
      columns.errors,
    ],
    (s, r) => `${scenarioFailed(s) ? "  (check failed)" : ""}${erratic(r) ? "  (many errors)" : ""}`,
  );

  if (sizes) {
    console.log(`\nFirst visit to / — JavaScript referenced by the HTML (gzip -9)\n`);
    for (const f of sizes.firstVisit.files) console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}`);
    console.log(
      `  ${pad(`total (${sizes.firstVisit.files.length} files)`, 44)} ${padLeft(kb(sizes.firstVisit.totalBytes), 10)} ${padLeft(kb(sizes.firstVisit.totalGzip), 10)}`,
    );
    if (sizes.firstVisit.unreferencedStaticImports.length) {
      console.log(`  note: statically imported but not referenced by the HTML: ${sizes.firstVisit.unreferencedStaticImports.join(", ")}`);
    }
    console.log(`\nRoute modules (each route's own chunk, gzip -9; target ≤ ${targets.routeChunkKb} KB)\n`);
    for (const r of sizes.routes) {
      const shared = r.sharedWith.length ? ` (same file as ${r.sharedWith.join(", ")})` : "";
      console.log(
        `  ${pad(r.routeId, 12)} ${pad(r.module, 36)} ${padLeft(kb(r.gzip), 10)} ${r.gzip <= targets.routeChunkKb * KB ? "" : "  OVER"}${shared}`,
      );
    }
    console.log(`\nCSS (gzip -9)\n`);
    for (const f of sizes.css.files) {
      const first = sizes.css.firstVisit.includes(f.file) ? "  (first visit)" : "";
      console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}${first}`);
    }
    console.log(
      `  ${pad(`total (${sizes.css.files.length} files)`, 44)} ${padLeft(kb(sizes.css.totalBytes), 10)} ${padLeft(kb(sizes.css.totalGzip), 10)}`,
    );
  }

  console.log(`\nTargets\n`);
  for (const t of targetResults) console.log(`  ${pad(t.name, 26)} ${pad(t.target, 22)} ${pad(t.actual, 44)} ${targetMark(t)}`);
}

// ---------------------------------------------------------------------------

runBench(WATCHDOG_MS, async (run) => {
  const startedAt = new Date();

  // Serve and measure a private copy: the working tree may be rebuilt meanwhile.
  const snapshotDir = await run.snapshot(appBuild);
  const clientDir = path.join(snapshotDir, "build/client");
  const entry = readdirSync(path.join(clientDir, "assets")).find((name) => /^entry\.client-.*\.js$/.test(name));
  if (!entry) throw new Error("build/client/assets/entry.client-*.js is missing: run `npm run build` first.");
  const staticAsset = `/assets/${entry}`;

  const { cpus, loadBefore } = noteMachineLoad();

  console.log("Starting the built edge + origin workers with wrangler dev…");
  const t0 = performance.now();
  const info = await run.startServer<AppServerInfo>("bench/serve.ts", [snapshotDir]).ready;
  presentAsEdge(info.originUrl, info.edgeSecret);
  await waitUntilServing(info.edgeUrl + staticAsset, 20_000);
  // The origin answers any request (a GET of the session route is its JSON 404); the session check comes later.
  await waitUntilServing(`${info.originUrl}/api/user/session`, 20_000, (status) => status < 500, credentialFor(info.originUrl));
  console.log(
    `  edge ${info.edgeUrl} (workers ${info.workers.join(" → ")}), origin direct ${info.originUrl}; migrations: ${info.migrations.join(", ")}; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const results: AppScenarioResult[] = [];
  for (const scenario of buildScenarios(info, staticAsset)) results.push(await runScenario(scenario));

  let sizes: Sizes | null = null;
  let sizesError: string | undefined;
  try {
    const home = await request(`${info.edgeUrl}/`);
    if (home.status !== 200) throw new Error(`GET / answered ${home.status}`);
    sizes = measureSizes(clientDir, home.body, `${info.edgeUrl}/`);
  } catch (error) {
    sizesError = error instanceof Error ? error.message : String(error);
    console.error(`  ✗ sizes: ${sizesError}`);
  }

  await run.stopServer();
  run.removeSnapshot();

  const targetResults = evaluateTargets(results, sizes);
  printReport(results, sizes, targetResults);

  const broken = results.filter(scenarioFailed);
  writeResults(
    resultsFile,
    startedAt,
    { cpus, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadAverage() },
    {
      server: {
        how: "wrangler dev: build/server edge worker + build/client assets + dist/paydesk_origin bound in-process; dist/paydesk_origin alone in a second wrangler dev for the direct calls",
        ...info,
        token: undefined,
      },
      scenarios: results,
      targets: targetResults,
      sizes,
      sizesError,
      ok: broken.length === 0 && !sizesError,
    },
  );

  if (broken.length || sizesError) {
    console.error(`\nThe bench is incomplete: ${[...broken.map((s) => s.label), ...(sizesError ? ["sizes"] : [])].join("; ")}`);
    return 1;
  }
  return 0;
});
