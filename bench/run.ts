/**
 * `npm run bench` (after `npm run build`): throughput and latency of the built app in
 * workerd, and the client JavaScript/CSS sizes.
 *
 * bench/serve.ts (a child process in its own process group) serves the built edge worker
 * + static assets + origin worker in one workerd via Miniflare; the origin also listens
 * on a direct socket. autocannon loads each scenario in turn from this process.
 *
 * Exit status: 0 when the bench ran (targets met or not), 1 when it broke (server did
 * not start, a sample response was wrong, a load errored).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import autocannon, { type Request as AutocannonRequest, type Result as AutocannonResult } from "autocannon";
import { KB, measureSizes, type Sizes } from "./sizes.ts";
import { snapshotBuild } from "./snapshot.ts";

const root = path.resolve(import.meta.dirname, "..");
const resultsFile = path.join(root, "bench/results/latest.json");

/** A whole number from the environment (for quick runs), within bounds. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}
const CONNECTIONS = setting("BENCH_CONNECTIONS", 10, 1, 100);
const DURATION_S = setting("BENCH_DURATION_S", 8, 1, 30);
const WARMUP_S = setting("BENCH_WARMUP_S", 2, 0, 10);
/** Upper bound on requests per load, whatever the duration. */
const MAX_REQUESTS_PER_LOAD = 400_000;
const SERVER_START_TIMEOUT_MS = 60_000;
/** The whole run (without the build) is stopped after this: 5 scenarios plus start-up and sizes. */
const WATCHDOG_MS = (60 + 5 * (WARMUP_S + DURATION_S + 20)) * 1000;

const targets = {
  cachedVsStatic: 0.8,
  uncachedVsStatic: 0.3,
  proxiedVsDirectP50: 1.5,
  firstVisitJsKb: 130,
  routeChunkKb: 15,
};

// ---------------------------------------------------------------------------
// The server child process

type ServerInfo = { edgeUrl: string; originUrl: string; token: string; migrations: string[]; workers: string[] };

let server: ChildProcess | null = null;
/** Removes the private copy of the build. */
let removeSnapshot = () => {};
let serverExited: Promise<void> = Promise.resolve();
const activeLoads = new Set<{ stop(): void }>();

function startServer(appDir: string): Promise<ServerInfo> {
  const child = spawn(process.execPath, [path.join(root, "bench/serve.ts"), appDir], {
    cwd: root,
    detached: true, // its own process group, workerd included: killed as a group
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  });
  server = child;
  serverExited = new Promise((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not report READY within ${SERVER_START_TIMEOUT_MS} ms`)), SERVER_START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("READY ")) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice("READY ".length)) as ServerInfo);
      } else if (line.trim()) {
        console.log(`[server] ${line}`);
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited before it was ready (code ${code}, signal ${signal})`));
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function killGroup(signal: NodeJS.Signals): void {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // already gone
  }
}

async function stopServer(): Promise<void> {
  if (!server) return;
  for (const load of activeLoads) load.stop();
  killGroup("SIGTERM");
  const exited = await Promise.race([serverExited.then(() => true), sleep(5_000).then(() => false)]);
  // The group may hold workerd even after serve.ts exited.
  try {
    process.kill(-server.pid!, "SIGKILL");
  } catch {
    // no process left in the group
  }
  if (!exited) await Promise.race([serverExited, sleep(2_000)]);
  server.stdin?.destroy();
  server = null;
}

process.on("exit", () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  removeSnapshot();
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server…`);
    void stopServer().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------
// HTTP helpers

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function request(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<{ status: number; headers: Headers; body: string }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Polls `url` until it answers with an accepted status. */
async function waitUntilServing(url: string, timeoutMs: number, accept: (status: number) => boolean = (status) => status === 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const { status } = await request(url, {}, 2_000);
      if (accept(status)) return;
      last = `status ${status}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer as expected within ${timeoutMs} ms (${last})`);
}

// ---------------------------------------------------------------------------
// Load

type LoadRequest = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A new path for every request (defeats the edge cache). */
  pathFor?: () => string;
};

type LoadResult = {
  requests: number;
  elapsedS: number;
  bytesPerResponse: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  autocannon: { rpsAverage: number; p50: number; p99: number };
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** One autocannon load, with latencies recorded at full (sub-millisecond) resolution. */
function load(baseUrl: string, spec: LoadRequest, durationS: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    let bytes = 0;
    const statusCodes: Record<string, number> = {};
    let started = 0;
    const requestOptions: AutocannonRequest = {
      method: spec.method,
      path: spec.path,
      headers: spec.headers,
      body: spec.body,
    };
    if (spec.pathFor) {
      const pathFor = spec.pathFor;
      requestOptions.setupRequest = (req) => ({ ...req, path: pathFor() });
    }
    const instance = autocannon(
      {
        url: baseUrl,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: durationS,
        maxOverallRequests: MAX_REQUESTS_PER_LOAD,
        timeout: 10,
        requests: [requestOptions],
      },
      (error, result: AutocannonResult) => {
        clearTimeout(hardStop);
        activeLoads.delete(instance);
        if (error) return reject(error);
        const elapsedS = (performance.now() - started) / 1000;
        const sorted = Float64Array.from(latencies).sort();
        const non2xx = Object.entries(statusCodes)
          .filter(([code]) => !code.startsWith("2"))
          .reduce((n, [, count]) => n + count, 0);
        resolve({
          requests: sorted.length,
          elapsedS,
          bytesPerResponse: Math.round(bytes / (sorted.length || 1)),
          rps: sorted.length / elapsedS,
          latencyMs: {
            mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1),
            p50: percentile(sorted, 50),
            p90: percentile(sorted, 90),
            p99: percentile(sorted, 99),
            max: percentile(sorted, 100),
          },
          statusCodes,
          non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          autocannon: { rpsAverage: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 },
        });
      },
    );
    activeLoads.add(instance);
    instance.on("start", () => {
      started = performance.now();
    });
    started = performance.now();
    instance.on("response", (_client: unknown, statusCode: number, responseBytes: number, responseTimeMs: number) => {
      latencies.push(responseTimeMs);
      bytes += responseBytes;
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    });
    // Never let one load outlive its duration by much.
    const hardStop = setTimeout(() => instance.stop(), (durationS + 15) * 1000);
  });
}

// ---------------------------------------------------------------------------
// Scenarios

type Check = { ok: boolean; detail: string };

type Scenario = {
  key: "static" | "cachedPage" | "uncachedPage" | "sessionProxied" | "sessionDirect";
  label: string;
  baseUrl: string;
  spec: LoadRequest;
  /** Prepares (warms) and checks a sample response before the load. */
  check: () => Promise<Check>;
};

type ScenarioResult = {
  key: Scenario["key"];
  label: string;
  url: string;
  checkBefore: Check;
  checkAfter?: Check;
  result?: LoadResult;
  error?: string;
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

function buildScenarios(info: ServerInfo, staticAsset: string): Scenario[] {
  const { edgeUrl, originUrl, token } = info;
  let missCounter = 0;
  const missPath = () => `/help?bench=${Date.now().toString(36)}-${++missCounter}`;
  // As the app's client sends it (app/startup/session.ts): a POST without a body.
  const sessionSpec: LoadRequest = {
    method: "POST",
    path: "/api/user/session",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Content-Length": "0" },
  };
  return [
    {
      key: "static",
      label: `static asset ${staticAsset}`,
      baseUrl: edgeUrl,
      spec: { method: "GET", path: staticAsset },
      check: async () => {
        const { status, headers } = await request(edgeUrl + staticAsset);
        return expect200("static asset", status, headers.get("Content-Type") ?? "");
      },
    },
    {
      key: "cachedPage",
      label: "cached page GET /help (HIT)",
      baseUrl: edgeUrl,
      spec: { method: "GET", path: "/help" },
      check: async () => {
        await request(edgeUrl + "/help"); // warms the edge cache
        // The cache write happens in waitUntil: allow it a moment.
        let cache = "";
        for (let i = 0; i < 20; i++) {
          const { status, headers } = await request(edgeUrl + "/help");
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
      baseUrl: edgeUrl,
      spec: { method: "GET", path: "/help", pathFor: missPath },
      check: async () => {
        const { status, headers } = await request(edgeUrl + missPath());
        if (status !== 200) return expect200("/help?bench", status);
        const cache = headers.get("X-Edge-Cache") ?? "(none)";
        return cache === "MISS" ? { ok: true, detail: "200, X-Edge-Cache: MISS" } : { ok: false, detail: `expected X-Edge-Cache: MISS, got ${cache}` };
      },
    },
    {
      key: "sessionProxied",
      label: "POST /api/user/session via edge",
      baseUrl: edgeUrl,
      spec: sessionSpec,
      check: sessionCheck(edgeUrl + "/api/user/session", token),
    },
    {
      key: "sessionDirect",
      label: "POST /api/user/session origin direct",
      baseUrl: originUrl,
      spec: sessionSpec,
      check: sessionCheck(originUrl + "/api/user/session", token),
    },
  ];
}

async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  const url = scenario.baseUrl + (scenario.spec.pathFor ? "/help?bench=<n>" : scenario.spec.path);
  const out: ScenarioResult = { key: scenario.key, label: scenario.label, url, checkBefore: { ok: false, detail: "not run" } };
  try {
    out.checkBefore = await scenario.check();
    if (!out.checkBefore.ok) {
      console.error(`  ✗ ${scenario.label}: ${out.checkBefore.detail} — not loaded`);
      return out;
    }
    process.stdout.write(`  ${scenario.label}: `);
    if (WARMUP_S > 0) {
      process.stdout.write(`warm-up ${WARMUP_S} s… `);
      await load(scenario.baseUrl, scenario.spec, WARMUP_S);
    }
    process.stdout.write(`load ${DURATION_S} s… `);
    out.result = await load(scenario.baseUrl, scenario.spec, DURATION_S);
    out.checkAfter = await scenario.check();
    const r = out.result;
    console.log(
      `${r.rps.toFixed(0)} req/s, p50 ${r.latencyMs.p50.toFixed(2)} ms, p99 ${r.latencyMs.p99.toFixed(2)} ms` +
        (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} socket errors (${r.timeouts} time-outs)` : "") +
        (out.checkAfter.ok ? "" : ` — check after load FAILED: ${out.checkAfter.detail}`),
    );
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
    console.error(`\n  ✗ ${scenario.label}: ${out.error}`);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Report

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);
/** More than 1% of the requests failed at the socket level: the numbers are suspect. */
const erratic = (r: LoadResult) => r.errors > 0.01 * Math.max(1, r.requests);
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

type TargetResult = { name: string; target: string; actual: string; met: boolean | null };

function evaluateTargets(results: ScenarioResult[], sizes: Sizes | null): TargetResult[] {
  const get = (key: ScenarioResult["key"]) => {
    const r = results.find((s) => s.key === key);
    return r?.result && r.checkBefore.ok && (r.checkAfter?.ok ?? true) ? r.result : null;
  };
  const staticR = get("static");
  const ratio = (key: ScenarioResult["key"], min: number, name: string): TargetResult => {
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
      actual: largest ? `largest ${largest.routeId} ${kb(largest.gzip)}${over.length ? `; over: ${over.map((r) => r.routeId).join(", ")}` : ""}` : "n/a",
      met: over.length === 0,
    });
  }
  return list;
}

function printReport(results: ScenarioResult[], sizes: Sizes | null, targetResults: TargetResult[]): void {
  const staticRps = results.find((s) => s.key === "static")?.result?.rps;
  console.log(`\nThroughput and latency (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up)\n`);
  const header = `${pad("scenario", 46)} ${padLeft("req/s", 8)} ${padLeft("p50 ms", 8)} ${padLeft("p99 ms", 8)} ${padLeft("×static", 8)} ${padLeft("KB/resp", 8)} ${padLeft("non-2xx", 8)} ${padLeft("errors", 7)}`;
  console.log(header);
  console.log("-".repeat(header.length));
  for (const s of results) {
    const r = s.result;
    const broken = !s.checkBefore.ok || s.error || (s.checkAfter && !s.checkAfter.ok);
    if (!r) {
      console.log(`${pad(s.label, 46)} ${padLeft("—", 8)}  not measured: ${s.error ?? s.checkBefore.detail}`);
      continue;
    }
    console.log(
      `${pad(s.label, 46)} ${padLeft(r.rps.toFixed(0), 8)} ${padLeft(r.latencyMs.p50.toFixed(2), 8)} ${padLeft(r.latencyMs.p99.toFixed(2), 8)} ${padLeft(
        staticRps ? `${(r.rps / staticRps).toFixed(2)}` : "—",
        8,
      )} ${padLeft((r.bytesPerResponse / KB).toFixed(1), 8)} ${padLeft(String(r.non2xx), 8)} ${padLeft(String(r.errors), 7)}${broken ? "  (check failed)" : ""}${erratic(r) ? "  (many errors)" : ""}`,
    );
  }

  if (sizes) {
    console.log(`\nFirst visit to / — JavaScript referenced by the HTML (gzip -9)\n`);
    for (const f of sizes.firstVisit.files) console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}`);
    console.log(`  ${pad(`total (${sizes.firstVisit.files.length} files)`, 44)} ${padLeft(kb(sizes.firstVisit.totalBytes), 10)} ${padLeft(kb(sizes.firstVisit.totalGzip), 10)}`);
    if (sizes.firstVisit.unreferencedStaticImports.length) {
      console.log(`  note: statically imported but not referenced by the HTML: ${sizes.firstVisit.unreferencedStaticImports.join(", ")}`);
    }
    console.log(`\nRoute modules (each route's own chunk, gzip -9; target ≤ ${targets.routeChunkKb} KB)\n`);
    for (const r of sizes.routes) {
      const shared = r.sharedWith.length ? ` (same file as ${r.sharedWith.join(", ")})` : "";
      console.log(`  ${pad(r.routeId, 12)} ${pad(r.module, 36)} ${padLeft(kb(r.gzip), 10)} ${r.gzip <= targets.routeChunkKb * KB ? "" : "  OVER"}${shared}`);
    }
    console.log(`\nCSS (gzip -9)\n`);
    for (const f of sizes.css.files) {
      const first = sizes.css.firstVisit.includes(f.file) ? "  (first visit)" : "";
      console.log(`  ${pad(f.file, 44)} ${padLeft(kb(f.bytes), 10)} ${padLeft(kb(f.gzip), 10)}${first}`);
    }
    console.log(`  ${pad(`total (${sizes.css.files.length} files)`, 44)} ${padLeft(kb(sizes.css.totalBytes), 10)} ${padLeft(kb(sizes.css.totalGzip), 10)}`);
  }

  console.log(`\nTargets\n`);
  for (const t of targetResults) {
    const mark = t.met === null ? "n/a" : t.met ? "met" : "NOT met";
    console.log(`  ${pad(t.name, 26)} ${pad(t.target, 22)} ${pad(t.actual, 44)} ${mark}`);
  }
}

// ---------------------------------------------------------------------------

async function main(): Promise<number> {
  const startedAt = new Date();
  const watchdog = setTimeout(() => {
    console.error(`\nThe bench did not finish within ${WATCHDOG_MS / 1000} s: stopping.`);
    void stopServer().finally(() => process.exit(1));
  }, WATCHDOG_MS);
  watchdog.unref();

  // Serve and measure a private copy: the working tree may be rebuilt meanwhile.
  const snapshot = await snapshotBuild(root);
  removeSnapshot = snapshot.remove;
  const clientDir = path.join(snapshot.dir, "build/client");
  const entry = readdirSync(path.join(clientDir, "assets")).find((name) => /^entry\.client-.*\.js$/.test(name));
  if (!entry) throw new Error("build/client/assets/entry.client-*.js is missing: run `npm run build` first.");
  const staticAsset = `/assets/${entry}`;

  // The numbers are only comparable between runs on a quiet machine.
  const loadBefore = loadavg()[0]!;
  const cpus = availableParallelism();
  if (loadBefore > cpus * 0.5) {
    console.warn(`Note: the machine is busy (1-min load average ${loadBefore.toFixed(2)} on ${cpus} CPUs); throughput and latency will be lower than on a quiet machine.`);
  }

  console.log("Starting the built edge + origin workers in workerd (Miniflare)…");
  const t0 = performance.now();
  const info = await startServer(snapshot.dir);
  await waitUntilServing(info.edgeUrl + staticAsset, 20_000);
  // The origin answers any request (a GET of the session route is its JSON 404); the session check comes later.
  await waitUntilServing(info.originUrl + "/api/user/session", 20_000, (status) => status < 500);
  console.log(
    `  edge ${info.edgeUrl} (workers ${info.workers.join(" → ")}), origin direct ${info.originUrl}; migrations: ${info.migrations.join(", ")}; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const results: ScenarioResult[] = [];
  for (const scenario of buildScenarios(info, staticAsset)) results.push(await runScenario(scenario));

  let sizes: Sizes | null = null;
  let sizesError: string | undefined;
  try {
    const home = await request(info.edgeUrl + "/");
    if (home.status !== 200) throw new Error(`GET / answered ${home.status}`);
    sizes = measureSizes(clientDir, home.body, info.edgeUrl + "/");
  } catch (error) {
    sizesError = error instanceof Error ? error.message : String(error);
    console.error(`  ✗ sizes: ${sizesError}`);
  }

  await stopServer();
  removeSnapshot();

  const targetResults = evaluateTargets(results, sizes);
  printReport(results, sizes, targetResults);

  const broken = results.filter((s) => !s.result || s.error || !s.checkBefore.ok || (s.checkAfter && !s.checkAfter.ok));
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(
    resultsFile,
    JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        node: process.version,
        machine: { cpus, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadavg()[0] },
        load: { tool: "autocannon", connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S, pipelining: 1 },
        server: { how: "Miniflare (workerd): build/server edge worker + build/client assets + dist/paydesk_origin, origin also on a direct socket", ...info, token: undefined },
        scenarios: results,
        targets: targetResults,
        sizes,
        sizesError,
        ok: broken.length === 0 && !sizesError,
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nResults written to ${path.relative(root, resultsFile)}`);
  clearTimeout(watchdog);

  if (broken.length || sizesError) {
    console.error(`\nThe bench is incomplete: ${[...broken.map((s) => s.label), ...(sizesError ? ["sizes"] : [])].join("; ")}`);
    return 1;
  }
  return 0;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch(async (error: unknown) => {
    console.error("\nThe bench failed:", error instanceof Error ? error.message : error);
    await stopServer();
    process.exitCode = 1;
  });
