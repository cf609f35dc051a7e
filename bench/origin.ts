/**
 * `npm run bench:origin` (after `npm run build`): throughput and latency of the built
 * origin worker alone — money moving through the D1 ledger beside a trivial endpoint.
 *
 * bench/origin-serve.ts (a child process in its own process group) serves a private copy
 * of dist/paydesk_origin in workerd via Miniflare, on a direct socket, with a fresh
 * in-memory D1 (all migrations), a generated ADMIN_TOKEN and 20 senders + 20 recipients
 * with live sessions. This process funds every wallet through the ledger (prepaid codes
 * issued by the operator API, redeemed by each user), then loads with autocannon:
 *
 *   a. GET /api/health — no database: the ceiling;
 *   b. POST /api/transfers — a fresh Idempotency-Key per request, rotating sender →
 *      recipient pairs, amount 1 fen;
 *   c. GET /api/users/lookup?handle=… — an authenticated D1 read.
 *
 * Every Idempotency-Key sent is tracked with its answer; a request still in flight when a
 * load stops is sent again with the same key afterwards (it replays, or commits once),
 * so that each key has exactly one outcome. Then the integrity checks: the operator's
 * ledger check finds no violation, there is one transfer row (and 1 fen) per key answered
 * 201, and the money across wallets is what the codes brought in.
 *
 * Exit status: 0 when the bench ran and the ledger is whole (the throughput target met or
 * not), 1 when it broke (server did not start, a sample answer was wrong, a load errored)
 * or an integrity check failed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import autocannon, { type Request as AutocannonRequest, type Result as AutocannonResult } from "autocannon";
import type { OriginBenchUser, OriginServerInfo, OriginStats } from "./origin-serve.ts";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

const root = path.resolve(import.meta.dirname, "..");
const resultsFile = path.join(root, "bench/results/origin-latest.json");

/** A whole number from the environment (for quick runs), within bounds. */
function setting(name: string, fallback: number, min: number, max: number): number {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}
const CONNECTIONS = setting("BENCH_CONNECTIONS", 10, 1, 100);
const DURATION_S = setting("BENCH_DURATION_S", 8, 1, 30);
const WARMUP_S = setting("BENCH_WARMUP_S", 2, 0, 10);
/** Upper bound on requests per load, whatever the duration. */
const MAX_REQUESTS_PER_LOAD = 200_000;
const SERVER_START_TIMEOUT_MS = 60_000;
const SCENARIOS = 3;
/** The whole run (without the build) is stopped after this. */
const WATCHDOG_MS = (45 + SCENARIOS * (WARMUP_S + DURATION_S + 15)) * 1000;

/** Each wallet's opening balance, in fen, brought in by one prepaid code. */
const FUNDING_PER_USER = 1_000_000;
const TRANSFER_AMOUNT = 1;
const TARGET_TRANSFERS_VS_CEILING = 0.5;

// ---------------------------------------------------------------------------
// A private copy of the built origin: the working tree may be rebuilt meanwhile.

const snapshotParts = ["dist/paydesk_origin", "workers/origin/migrations"];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function snapshotOrigin(attempts = 5): Promise<{ dir: string; remove: () => void }> {
  for (const part of snapshotParts) {
    if (!existsSync(path.join(root, part))) throw new Error(`${part} is missing: run \`npm run build\` first.`);
  }
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const dir = mkdtempSync(path.join(tmpdir(), "paydesk-bench-origin-"));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      for (const part of snapshotParts) {
        cpSync(path.join(root, part), path.join(dir, part), {
          recursive: true,
          filter: (source) => !source.endsWith(".map") && path.basename(source) !== ".wrangler",
        });
      }
      // The layout is kept, so the wrangler.json's relative migrations_dir holds.
      const config = JSON.parse(readFileSync(path.join(dir, "dist/paydesk_origin/wrangler.json"), "utf8")) as { main?: string };
      if (!config.main || !existsSync(path.join(dir, "dist/paydesk_origin", config.main))) throw new Error(`the entry module ${config.main} is missing`);
      if (!readdirSync(path.join(dir, "workers/origin/migrations")).some((name) => name.endsWith(".sql"))) throw new Error("no migrations");
      return { dir, remove };
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    remove();
    await sleep(2_000); // a rebuild is probably under way
  }
  throw new Error(`could not take a consistent copy of the built origin (${problem}); is a build running?`);
}

// ---------------------------------------------------------------------------
// The server child process

let server: ChildProcess | null = null;
let removeSnapshot = () => {};
let serverExited: Promise<void> = Promise.resolve();
const activeLoads = new Set<{ stop(): void }>();
const pendingReplies = new Map<number, { resolve: (data: unknown) => void; reject: (error: Error) => void }>();
let nextCommandId = 1;

function startServer(snapshotDir: string): Promise<OriginServerInfo> {
  const child = spawn(process.execPath, [path.join(root, "bench/origin-serve.ts"), snapshotDir], {
    cwd: root,
    detached: true, // its own process group, workerd included: killed as a group
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  });
  server = child;
  serverExited = new Promise((resolve) => child.once("exit", () => resolve()));
  child.once("exit", (code, signal) => {
    for (const [id, pending] of pendingReplies) {
      pending.reject(new Error(`the server exited (code ${code}, signal ${signal})`));
      pendingReplies.delete(id);
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not report READY within ${SERVER_START_TIMEOUT_MS} ms`)), SERVER_START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (line.startsWith("READY ")) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice("READY ".length)) as OriginServerInfo);
      } else if (line.startsWith("REPLY ")) {
        const reply = JSON.parse(line.slice("REPLY ".length)) as { id: number; ok: boolean; data?: unknown; error?: string };
        const pending = pendingReplies.get(reply.id);
        pendingReplies.delete(reply.id);
        if (reply.ok) pending?.resolve(reply.data);
        else pending?.reject(new Error(reply.error ?? "the server's command failed"));
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

/** The D1 figures the API does not show, read by the server through Miniflare's binding. */
function serverStats(timeoutMs = 15_000): Promise<OriginStats> {
  const child = server;
  if (!child?.stdin) return Promise.reject(new Error("the server is not running"));
  const id = nextCommandId++;
  return new Promise<OriginStats>((resolve, reject) => {
    const timer = setTimeout(() => {
      pendingReplies.delete(id);
      reject(new Error(`the server did not answer "stats" within ${timeoutMs} ms`));
    }, timeoutMs);
    pendingReplies.set(id, {
      resolve: (data) => {
        clearTimeout(timer);
        resolve(data as OriginStats);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    child.stdin!.write(`${JSON.stringify({ id, cmd: "stats" })}\n`);
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
  for (const load of activeLoads) load.stop();
  if (!server) return;
  killGroup("SIGTERM");
  const exited = await Promise.race([serverExited.then(() => true), sleep(5_000).then(() => false)]);
  // The group may hold workerd even after origin-serve.ts exited.
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

type Answer = { status: number; headers: Headers; body: string; json: { code?: string; data?: Record<string, unknown>; message?: string } | null };

async function request(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Answer> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const body = await response.text();
  let json: Answer["json"] = null;
  try {
    json = JSON.parse(body) as Answer["json"];
  } catch {
    // not JSON: left null, the checks say so
  }
  return { status: response.status, headers: response.headers, body, json };
}

async function waitUntilServing(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const { status } = await request(url, {}, 2_000);
      if (status === 200) return;
      last = `status ${status}`;
    } catch (error) {
      last = String(error);
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (${last})`);
}

const briefly = (answer: Answer) => `status ${answer.status}: ${answer.body.slice(0, 200)}`;

// ---------------------------------------------------------------------------
// Transfers: every Idempotency-Key sent, and its outcome

type SentTransfer = { from: number; to: number; status?: number; replayed?: boolean };

class TransferLedger {
  readonly keys = new Map<string, SentTransfer>();
  private seq = 0;
  private readonly runId = randomBytes(6).toString("base64url").replace(/[^A-Za-z0-9]/g, "x");
  readonly senders: OriginBenchUser[];
  readonly recipients: OriginBenchUser[];
  readonly bodies: string[];

  constructor(senders: OriginBenchUser[], recipients: OriginBenchUser[]) {
    this.senders = senders;
    this.recipients = recipients;
    this.bodies = recipients.map((r) => JSON.stringify({ toHandle: r.handle, amount: TRANSFER_AMOUNT }));
  }

  /** The next key and pair: senders in turn, each time to another recipient. */
  next(): { key: string; from: number; to: number } {
    const i = this.seq++;
    const from = i % this.senders.length;
    const to = (i + Math.floor(i / this.senders.length)) % this.recipients.length;
    const key = `bench-${this.runId}-${i}`;
    this.keys.set(key, { from, to });
    return { key, from, to };
  }

  headers(key: string, from: number): Record<string, string> {
    return {
      Authorization: `Bearer ${this.senders[from]!.token}`,
      "Idempotency-Key": key,
      "Content-Type": "application/json",
    };
  }

  answered(key: string, status: number, replayed = false): void {
    const sent = this.keys.get(key);
    if (sent && sent.status === undefined) {
      sent.status = status;
      sent.replayed = replayed;
    }
  }

  /** Keys sent that have their answer as 201: each must be exactly one transfer. */
  created(): number {
    let n = 0;
    for (const sent of this.keys.values()) if (sent.status === 201) n++;
    return n;
  }

  unanswered(): [string, SentTransfer][] {
    return [...this.keys].filter(([, sent]) => sent.status === undefined);
  }

  /** One transfer by fetch (sample checks, and keys a stopped load left without an answer). */
  async send(baseUrl: string, key: string, from: number, to: number): Promise<Answer> {
    return request(`${baseUrl}/api/transfers`, { method: "POST", headers: this.headers(key, from), body: this.bodies[to] });
  }

  /**
   * Keys a load left in flight when it stopped: sent again with the same key and body, so
   * each gets its one outcome (a replay if the first request committed, else the commit).
   */
  async settle(baseUrl: string): Promise<{ settled: number; replayed: number }> {
    let replayed = 0;
    const open = this.unanswered();
    for (const [key, sent] of open) {
      const answer = await this.send(baseUrl, key, sent.from, sent.to);
      const wasReplay = answer.headers.get("Idempotent-Replayed") === "true";
      if (wasReplay) replayed++;
      this.answered(key, answer.status, wasReplay);
    }
    return { settled: open.length, replayed };
  }
}

// ---------------------------------------------------------------------------
// Load

type LoadResult = {
  requests: number;
  elapsedS: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  statusCodes: Record<string, number>;
  non2xx: number;
  /** 2xx answers whose body was not `"code":"SUCCESS"`. */
  badBodies: number;
  errors: number;
  timeouts: number;
  /** Transfers only: keys in flight when the load stopped, sent again afterwards. */
  settled?: { settled: number; replayed: number };
  autocannon: { rpsAverage: number; p50: number; p99: number };
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

type Context = Record<string, unknown>;
type LoadSpec = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** Sets up each request (fresh key, rotating users); may note things in the context. */
  setupRequest?: (request: AutocannonRequest, context: Context) => AutocannonRequest;
  /** Sees each answer with the context its request was set up with. */
  onAnswer?: (status: number, context: Context) => void;
};

/** One autocannon load, with latencies recorded at full (sub-millisecond) resolution. */
function load(baseUrl: string, spec: LoadSpec, durationS: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let badBodies = 0;
    let started = performance.now();
    // autocannon calls onResponse(status, body, context, headers) for each answer.
    const requestOptions: AutocannonRequest & { onResponse: (status: number, body: string, context: Context) => void } = {
      method: spec.method,
      path: spec.path,
      onResponse: (status, body, context) => {
        if (status >= 200 && status < 300 && !body.includes('"code":"SUCCESS"')) badBodies++;
        spec.onAnswer?.(status, context);
      },
    };
    // Only when given: autocannon's defaults are overridden by a key set to undefined.
    if (spec.headers) requestOptions.headers = spec.headers;
    if (spec.setupRequest) requestOptions.setupRequest = spec.setupRequest;
    const requests: AutocannonRequest[] = [requestOptions];
    const instance = autocannon(
      {
        url: baseUrl,
        connections: CONNECTIONS,
        pipelining: 1,
        duration: durationS,
        maxOverallRequests: MAX_REQUESTS_PER_LOAD,
        timeout: 10,
        requests,
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
          badBodies,
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
    instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      latencies.push(responseTimeMs);
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
  key: "health" | "transfers" | "lookup";
  label: string;
  path: string;
  spec: () => LoadSpec;
  /** Checks a sample answer before and after the load. */
  check: () => Promise<Check>;
  /** Runs after each load (warm-up too): settles what the load left in flight. */
  afterLoad?: () => Promise<{ settled: number; replayed: number }>;
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

function buildScenarios(info: OriginServerInfo, transfers: TransferLedger): Scenario[] {
  const base = info.url;
  const users = [...info.senders, ...info.recipients];

  const transferCheck = async (): Promise<Check> => {
    const { key, from, to } = transfers.next();
    const first = await transfers.send(base, key, from, to);
    transfers.answered(key, first.status);
    if (first.status !== 201 || first.json?.code !== "SUCCESS") return { ok: false, detail: briefly(first) };
    const data = first.json.data as { id?: string; amount?: number; to?: { handle?: string } } | undefined;
    const recipient = info.recipients[to]!.handle;
    if (data?.amount !== TRANSFER_AMOUNT || data.to?.handle !== recipient) return { ok: false, detail: `unexpected receipt ${first.body.slice(0, 200)}` };
    // The same key again: the first answer, replayed, and no second transfer.
    const again = await transfers.send(base, key, from, to);
    const replayedId = (again.json?.data as { id?: string } | undefined)?.id;
    if (again.status !== 201 || again.headers.get("Idempotent-Replayed") !== "true" || replayedId !== data.id) {
      return { ok: false, detail: `the retry with the same key was not a replay: ${briefly(again)}` };
    }
    return { ok: true, detail: `201, code SUCCESS, ${info.senders[from]!.handle} → ${recipient}; same key again replayed` };
  };

  let lookupSeq = 0;
  const lookupFor = (i: number) => ({ user: users[i % users.length]!, handle: users[(i * 7 + 3) % users.length]!.handle });

  return [
    {
      key: "health",
      label: "GET /api/health (ceiling)",
      path: "/api/health",
      spec: () => ({ method: "GET", path: "/api/health" }),
      check: async () => {
        const answer = await request(`${base}/api/health`);
        return answer.status === 200 && answer.json?.code === "SUCCESS" && answer.json.data?.ok === true
          ? { ok: true, detail: "200, code SUCCESS, ok: true" }
          : { ok: false, detail: briefly(answer) };
      },
    },
    {
      key: "transfers",
      label: `POST /api/transfers (${TRANSFER_AMOUNT} fen)`,
      path: "/api/transfers",
      spec: () => ({
        method: "POST",
        path: "/api/transfers",
        setupRequest: (req, context) => {
          const { key, from, to } = transfers.next();
          context.key = key;
          return { ...req, headers: { ...req.headers, ...transfers.headers(key, from) }, body: transfers.bodies[to] };
        },
        onAnswer: (status, context) => {
          if (typeof context.key === "string") transfers.answered(context.key, status);
        },
      }),
      check: transferCheck,
      afterLoad: () => transfers.settle(base),
    },
    {
      key: "lookup",
      label: "GET /api/users/lookup (auth + D1 read)",
      path: "/api/users/lookup?handle=…",
      spec: () => ({
        method: "GET",
        path: "/api/users/lookup",
        setupRequest: (req) => {
          const { user, handle } = lookupFor(lookupSeq++);
          return { ...req, path: `/api/users/lookup?handle=${handle}`, headers: { ...req.headers, Authorization: `Bearer ${user.token}` } };
        },
      }),
      check: async () => {
        const { user, handle } = lookupFor(lookupSeq++);
        const answer = await request(`${base}/api/users/lookup?handle=${handle}`, { headers: { Authorization: `Bearer ${user.token}` } });
        return answer.status === 200 && answer.json?.code === "SUCCESS" && answer.json.data?.handle === handle
          ? { ok: true, detail: `200, code SUCCESS, found ${handle}` }
          : { ok: false, detail: briefly(answer) };
      },
    },
  ];
}

async function runScenario(scenario: Scenario, baseUrl: string): Promise<ScenarioResult> {
  const out: ScenarioResult = { key: scenario.key, label: scenario.label, url: baseUrl + scenario.path, checkBefore: { ok: false, detail: "not run" } };
  try {
    out.checkBefore = await scenario.check();
    if (!out.checkBefore.ok) {
      console.error(`  ✗ ${scenario.label}: ${out.checkBefore.detail} — not loaded`);
      return out;
    }
    process.stdout.write(`  ${scenario.label}: `);
    if (WARMUP_S > 0) {
      process.stdout.write(`warm-up ${WARMUP_S} s… `);
      await load(baseUrl, scenario.spec(), WARMUP_S);
      await scenario.afterLoad?.();
    }
    process.stdout.write(`load ${DURATION_S} s… `);
    out.result = await load(baseUrl, scenario.spec(), DURATION_S);
    if (scenario.afterLoad) out.result.settled = await scenario.afterLoad();
    out.checkAfter = await scenario.check();
    const r = out.result;
    console.log(
      `${r.rps.toFixed(0)} req/s, p50 ${r.latencyMs.p50.toFixed(2)} ms, p99 ${r.latencyMs.p99.toFixed(2)} ms` +
        (r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} socket errors (${r.timeouts} time-outs)` : "") +
        (r.badBodies ? `, ${r.badBodies} 2xx without code SUCCESS` : "") +
        (out.checkAfter.ok ? "" : ` — check after load FAILED: ${out.checkAfter.detail}`),
    );
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
    console.error(`\n  ✗ ${scenario.label}: ${out.error}`);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Money in, and the integrity checks

/** Every wallet's money comes in through the ledger: one prepaid code per user, redeemed by them. */
async function fundWallets(info: OriginServerInfo): Promise<void> {
  const users = [...info.senders, ...info.recipients];
  const issued = await request(`${info.url}/api/admin/codes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${info.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ value: FUNDING_PER_USER, count: users.length, expiresAt: new Date(Date.now() + 3_600_000).toISOString() }),
  });
  const codes = (issued.json?.data as { codes?: string[] } | undefined)?.codes;
  if (issued.status !== 201 || issued.json?.code !== "SUCCESS" || codes?.length !== users.length) {
    throw new Error(`issuing the prepaid codes failed: ${briefly(issued)}`);
  }
  const runId = randomBytes(6).toString("hex");
  for (const [i, user] of users.entries()) {
    const redeemed = await request(`${info.url}/api/codes/redeem`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}`, "Idempotency-Key": `fund-${runId}-${user.handle}`, "Content-Type": "application/json" },
      body: JSON.stringify({ code: codes[i] }),
    });
    if (redeemed.status !== 201 || redeemed.json?.code !== "SUCCESS" || redeemed.json.data?.value !== FUNDING_PER_USER) {
      throw new Error(`${user.handle} could not redeem a code: ${briefly(redeemed)}`);
    }
  }
}

type IntegrityCheck = { name: string; ok: boolean; detail: string };

function equal(name: string, actual: number, expected: number): IntegrityCheck {
  return { name, ok: actual === expected, detail: actual === expected ? String(actual) : `${actual}, expected ${expected}` };
}

function fundingChecks(stats: OriginStats, info: OriginServerInfo): IntegrityCheck[] {
  const funded = (info.senders.length + info.recipients.length) * FUNDING_PER_USER;
  return [
    equal("codes redeemed (journal)", stats.journal.code_redemption ?? 0, info.senders.length + info.recipients.length),
    equal("money in wallets after funding (fen)", stats.wallets.total, funded),
    equal("world account after funding (fen)", stats.world, -funded),
  ];
}

async function integrityChecks(info: OriginServerInfo, transfers: TransferLedger): Promise<IntegrityCheck[]> {
  const checks: IntegrityCheck[] = [];
  const ledger = await request(`${info.url}/api/admin/ledger/check`, { headers: { Authorization: `Bearer ${info.adminToken}` } });
  const violations = (ledger.json?.data as { violations?: unknown[] } | undefined)?.violations;
  checks.push(
    ledger.status === 200 && ledger.json?.code === "SUCCESS" && Array.isArray(violations)
      ? { name: "GET /api/admin/ledger/check", ok: violations.length === 0, detail: violations.length === 0 ? "violations: []" : JSON.stringify(violations).slice(0, 500) }
      : { name: "GET /api/admin/ledger/check", ok: false, detail: briefly(ledger) },
  );

  const stats = await serverStats();
  const created = transfers.created();
  const open = transfers.unanswered().length;
  const funded = (info.senders.length + info.recipients.length) * FUNDING_PER_USER;
  const moved = created * TRANSFER_AMOUNT;
  checks.push(
    { name: "every key sent has its answer", ok: open === 0, detail: open === 0 ? `${transfers.keys.size} keys` : `${open} of ${transfers.keys.size} keys without an answer` },
    equal("transfer rows = 201 answers", stats.transfers.count, created),
    equal("transfer journal txs = 201 answers", stats.journal.transfer ?? 0, created),
    equal("sum of transfer amounts (fen)", stats.transfers.amount, moved),
    equal("senders' daily totals (fen)", stats.transferDailyTotal, moved),
    equal("money in wallets unchanged (fen)", stats.wallets.total, funded),
    equal("world account unchanged (fen)", stats.world, -funded),
    equal("senders' wallets (fen)", stats.senders, info.senders.length * FUNDING_PER_USER - moved),
    equal("recipients' wallets (fen)", stats.recipients, info.recipients.length * FUNDING_PER_USER + moved),
    equal("negative wallets", stats.wallets.negative, 0),
  );
  return checks;
}

// ---------------------------------------------------------------------------
// Report

const pad = (text: string, width: number) => text.padEnd(width);
const padLeft = (text: string, width: number) => text.padStart(width);

type TargetResult = { name: string; target: string; actual: string; met: boolean | null };

function evaluateTarget(results: ScenarioResult[]): TargetResult {
  const usable = (key: Scenario["key"]) => {
    const r = results.find((s) => s.key === key);
    return r?.result && r.checkBefore.ok && (r.checkAfter?.ok ?? true) && !r.error ? r.result : null;
  };
  const ceiling = usable("health");
  const transfers = usable("transfers");
  const name = `transfers ≥ ${TARGET_TRANSFERS_VS_CEILING}× the ceiling's requests/s`;
  if (!ceiling || !transfers) return { name, target: `≥ ${TARGET_TRANSFERS_VS_CEILING}×`, actual: "n/a", met: null };
  const ratio = transfers.rps / ceiling.rps;
  return {
    name,
    target: `≥ ${TARGET_TRANSFERS_VS_CEILING}×`,
    actual: `${ratio.toFixed(2)}× (${transfers.rps.toFixed(0)} vs ${ceiling.rps.toFixed(0)} req/s)`,
    met: ratio >= TARGET_TRANSFERS_VS_CEILING,
  };
}

function printReport(results: ScenarioResult[], target: TargetResult, checks: IntegrityCheck[]): void {
  const ceilingRps = results.find((s) => s.key === "health")?.result?.rps;
  console.log(`\nOrigin throughput and latency (autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up)\n`);
  const header = `${pad("scenario", 40)} ${padLeft("req/s", 8)} ${padLeft("p50 ms", 8)} ${padLeft("p99 ms", 8)} ${padLeft("×ceiling", 9)} ${padLeft("requests", 9)} ${padLeft("non-2xx", 8)} ${padLeft("errors", 7)}`;
  console.log(header);
  console.log("-".repeat(header.length));
  for (const s of results) {
    const r = s.result;
    if (!r) {
      console.log(`${pad(s.label, 40)} ${padLeft("—", 8)}  not measured: ${s.error ?? s.checkBefore.detail}`);
      continue;
    }
    const broken = !s.checkBefore.ok || s.error || (s.checkAfter && !s.checkAfter.ok) || r.badBodies > 0;
    console.log(
      `${pad(s.label, 40)} ${padLeft(r.rps.toFixed(0), 8)} ${padLeft(r.latencyMs.p50.toFixed(2), 8)} ${padLeft(r.latencyMs.p99.toFixed(2), 8)} ${padLeft(
        ceilingRps ? (r.rps / ceilingRps).toFixed(2) : "—",
        9,
      )} ${padLeft(String(r.requests), 9)} ${padLeft(String(r.non2xx), 8)} ${padLeft(String(r.errors), 7)}${broken ? "  (check failed)" : ""}`,
    );
  }
  const transfers = results.find((s) => s.key === "transfers")?.result;
  if (transfers?.settled?.settled) {
    console.log(`\n  transfers in flight when the load stopped: ${transfers.settled.settled}, sent again with their keys (${transfers.settled.replayed} replayed)`);
  }

  console.log(`\nIntegrity (after all loads)\n`);
  for (const c of checks) console.log(`  ${c.ok ? "✓" : "✗"} ${pad(c.name, 40)} ${c.detail}`);

  console.log(`\nTarget\n`);
  const mark = target.met === null ? "n/a" : target.met ? "met" : "NOT met";
  console.log(`  ${target.name}: ${target.actual} — ${mark}`);
  // The ceiling touches no database; an authenticated one-row read shows what D1 itself allows.
  const lookup = results.find((s) => s.key === "lookup")?.result;
  if (transfers && lookup) {
    console.log(`  for reference, transfers against an authenticated one-row D1 read (lookup): ${(transfers.rps / lookup.rps).toFixed(2)}×`);
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

  const snapshot = await snapshotOrigin();
  removeSnapshot = snapshot.remove;

  // The numbers are only comparable between runs on a quiet machine.
  const loadBefore = loadavg()[0]!;
  const cpus = availableParallelism();
  if (loadBefore > cpus * 0.5) {
    console.warn(`Note: the machine is busy (1-min load average ${loadBefore.toFixed(2)} on ${cpus} CPUs); throughput and latency will be lower than on a quiet machine.`);
  }

  console.log("Starting the built origin worker in workerd (Miniflare, in-memory D1)…");
  const t0 = performance.now();
  const info = await startServer(snapshot.dir);
  await waitUntilServing(`${info.url}/api/health`, 20_000);
  await fundWallets(info);
  const funding = fundingChecks(await serverStats(), info);
  const fundingFailed = funding.filter((c) => !c.ok);
  if (fundingFailed.length) throw new Error(`funding the wallets went wrong: ${fundingFailed.map((c) => `${c.name} ${c.detail}`).join("; ")}`);
  console.log(
    `  ${info.worker} at ${info.url}; migrations: ${info.migrations.join(", ")}; ${info.senders.length} senders + ${info.recipients.length} recipients, ` +
      `${(FUNDING_PER_USER / 100).toLocaleString("en")} CNY each from redeemed codes; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const transfers = new TransferLedger(info.senders, info.recipients);
  const results: ScenarioResult[] = [];
  for (const scenario of buildScenarios(info, transfers)) results.push(await runScenario(scenario, info.url));

  let checks: IntegrityCheck[];
  try {
    await transfers.settle(info.url); // anything a failed load left behind
    checks = await integrityChecks(info, transfers);
  } catch (error) {
    checks = [{ name: "integrity checks", ok: false, detail: error instanceof Error ? error.message : String(error) }];
  }
  const loadAfter = loadavg()[0]!;

  await stopServer();
  removeSnapshot();

  const target = evaluateTarget(results);
  printReport(results, target, checks);
  console.log(`\n  load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${cpus} CPUs`);

  const broken = results.filter((s) => !s.result || s.error || !s.checkBefore.ok || (s.checkAfter && !s.checkAfter.ok) || s.result.badBodies > 0);
  const failedChecks = checks.filter((c) => !c.ok);
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  writeFileSync(
    resultsFile,
    JSON.stringify(
      {
        startedAt: startedAt.toISOString(),
        finishedAt: new Date().toISOString(),
        node: process.version,
        machine: { cpus, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadAfter },
        load: { tool: "autocannon", connections: CONNECTIONS, durationS: DURATION_S, warmupS: WARMUP_S, pipelining: 1 },
        server: {
          how: "Miniflare (workerd): dist/paydesk_origin alone on a direct socket, in-memory D1 with all migrations",
          url: info.url,
          worker: info.worker,
          migrations: info.migrations,
          senders: info.senders.length,
          recipients: info.recipients.length,
          fundingPerUserFen: FUNDING_PER_USER,
          transferAmountFen: TRANSFER_AMOUNT,
        },
        scenarios: results,
        transfers: { keysSent: transfers.keys.size, answered201: transfers.created() },
        integrity: [...funding, ...checks],
        target,
        ok: broken.length === 0 && failedChecks.length === 0,
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nResults written to ${path.relative(root, resultsFile)}`);
  clearTimeout(watchdog);

  if (broken.length || failedChecks.length) {
    console.error(
      `\nThe bench ${failedChecks.length ? "found the ledger NOT whole" : "is incomplete"}: ${[...broken.map((s) => s.label), ...failedChecks.map((c) => c.name)].join("; ")}`,
    );
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
    removeSnapshot();
    process.exitCode = 1;
  });
