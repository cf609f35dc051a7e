/**
 * `npm run bench:origin` (after `npm run build`): throughput and latency of the built
 * origin worker alone — money moving through the D1 ledger beside a trivial endpoint.
 *
 * bench/origin-serve.ts (a child process in its own process group) serves a private copy
 * of dist/paydesk_origin with `wrangler dev`, with a fresh local D1 (all migrations), a
 * generated ADMIN_TOKEN and 20 senders + 20 recipients with live sessions. This process
 * funds every wallet through the ledger (prepaid codes issued by the operator API,
 * redeemed by each user), then loads with autocannon:
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
import { randomBytes } from "node:crypto";
import { runBench } from "./harness.ts";
import { waitUntilServing } from "../test/support/wrangler-dev.ts";
import { credentialFor, presentAsEdge, request, type Answer } from "./http.ts";
import { DURATION_S, load, loadDescription, WARMUP_S, type LoadResult, type LoadSpec } from "./load.ts";
import type { OriginBenchUser, OriginServerInfo } from "./origin-serve.ts";
import type { OriginStats } from "./origin-stats.ts";
import { columns, loadAverage, noteMachineLoad, pad, printScenarioTable, targetMark, writeResults, type TargetResult } from "./report.ts";
import { runScenario, scenarioFailed, type Check, type Scenario, type ScenarioResult } from "./scenario.ts";
import type { ServerProcess } from "./server-process.ts";
import { originBuild } from "./snapshot.ts";

const resultsFile = "bench/results/origin-latest.json";

/** Upper bound on requests per load, whatever the duration. */
const MAX_REQUESTS_PER_LOAD = 200_000;
const SCENARIOS = 4;
/**
 * The whole run (without the build) is stopped after this: start-up (wrangler migrates
 * and seeds the D1, then starts wrangler dev), funding, the scenarios and the D1 reads.
 */
const WATCHDOG_MS = (180 + SCENARIOS * (WARMUP_S + DURATION_S + 15)) * 1000;

/** Each wallet's opening balance, in fen, brought in by one prepaid code. */
const FUNDING_PER_USER = 1_000_000;
const TRANSFER_AMOUNT = 1;
const TARGET_TRANSFERS_VS_CEILING = 0.5;

type OriginServer = ServerProcess<OriginServerInfo>;

/** The D1 figures the API does not show, read by the server with `wrangler d1 execute` (a workerd start each time). */
const serverStats = (server: OriginServer) => server.command<OriginStats>("stats", 60_000);

const briefly = (answer: Answer) => `status ${answer.status}: ${answer.body.slice(0, 200)}`;

// ---------------------------------------------------------------------------
// Transfers: every Idempotency-Key sent, and its outcome

type SentTransfer = { from: number; to: number; status?: number; replayed?: boolean };

class TransferLedger {
  readonly keys = new Map<string, SentTransfer>();
  private seq = 0;
  private readonly runId = randomBytes(6)
    .toString("base64url")
    .replace(/[^A-Za-z0-9]/g, "x");
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

type OriginLoadResult = LoadResult & {
  /** 2xx answers whose body was not `"code":"SUCCESS"`. */
  badBodies: number;
  /** Transfers only: keys in flight when the load stopped, sent again afterwards. */
  settled?: { settled: number; replayed: number };
};

/** One load, counting the 2xx answers that are not the API's success: a fast wrong answer is no throughput. */
async function loadChecked(baseUrl: string, spec: LoadSpec, durationS: number): Promise<OriginLoadResult> {
  let badBodies = 0;
  const result = await load(
    baseUrl,
    {
      ...spec,
      onResponse: (status, body, context) => {
        if (status >= 200 && status < 300 && !body.includes('"code":"SUCCESS"')) badBodies++;
        spec.onResponse?.(status, body, context);
      },
    },
    durationS,
    MAX_REQUESTS_PER_LOAD,
  );
  return { ...result, badBodies };
}

// ---------------------------------------------------------------------------
// Scenarios

type Key = "health" | "ready" | "transfers" | "lookup";
type OriginScenarioResult = ScenarioResult<Key, OriginLoadResult>;

const loadOf = (baseUrl: string, spec: () => LoadSpec) => (durationS: number) => loadChecked(baseUrl, spec(), durationS);

function buildScenarios(info: OriginServerInfo, transfers: TransferLedger): Scenario<Key, OriginLoadResult>[] {
  const base = info.url;
  const users = [...info.senders, ...info.recipients];

  const transferCheck = async (): Promise<Check> => {
    const { key, from, to } = transfers.next();
    const first = await transfers.send(base, key, from, to);
    transfers.answered(key, first.status);
    if (first.status !== 201 || first.json?.code !== "SUCCESS") return { ok: false, detail: briefly(first) };
    const data = first.json.data as { id?: string; amount?: number; to?: { handle?: string } } | undefined;
    const recipient = info.recipients[to]!.handle;
    if (data?.amount !== TRANSFER_AMOUNT || data.to?.handle !== recipient)
      return { ok: false, detail: `unexpected receipt ${first.body.slice(0, 200)}` };
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
      url: `${base}/api/health`,
      load: loadOf(base, () => ({ method: "GET", path: "/api/health" })),
      check: async () => {
        const answer = await request(`${base}/api/health`);
        return answer.status === 200 && answer.json?.code === "SUCCESS" && answer.json.data?.ok === true
          ? { ok: true, detail: "200, code SUCCESS, ok: true" }
          : { ok: false, detail: briefly(answer) };
      },
    },
    {
      // The floor under anything that touches D1: one round trip, no work.
      key: "ready",
      label: "GET /api/health/ready (one D1 round trip)",
      url: `${base}/api/health/ready`,
      load: loadOf(base, () => ({ method: "GET", path: "/api/health/ready" })),
      check: async () => {
        const answer = await request(`${base}/api/health/ready`);
        return answer.status === 200 && answer.json?.data?.database === true
          ? { ok: true, detail: "200, code SUCCESS, database: true" }
          : { ok: false, detail: briefly(answer) };
      },
    },
    {
      key: "transfers",
      label: `POST /api/transfers (${TRANSFER_AMOUNT} fen)`,
      url: `${base}/api/transfers`,
      load: loadOf(base, () => ({
        method: "POST",
        path: "/api/transfers",
        setupRequest: (req, context) => {
          const { key, from, to } = transfers.next();
          context.key = key;
          return { ...req, headers: { ...req.headers, ...transfers.headers(key, from) }, body: transfers.bodies[to] };
        },
        onResponse: (status, _body, context) => {
          if (typeof context.key === "string") transfers.answered(context.key, status);
        },
      })),
      check: transferCheck,
      // Settles what the load left in flight, so that every key has its one outcome.
      afterLoad: async (result) => {
        result.settled = await transfers.settle(base);
      },
    },
    {
      key: "lookup",
      label: "GET /api/users/lookup (auth + D1 read)",
      url: `${base}/api/users/lookup?handle=…`,
      load: loadOf(base, () => ({
        method: "GET",
        path: "/api/users/lookup",
        setupRequest: (req) => {
          const { user, handle } = lookupFor(lookupSeq++);
          return { ...req, path: `/api/users/lookup?handle=${handle}`, headers: { ...req.headers, Authorization: `Bearer ${user.token}` } };
        },
      })),
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

/** Broken: a failed check, an error, or success answers that were not. */
const broken = (s: OriginScenarioResult) => scenarioFailed(s) || (s.result?.badBodies ?? 0) > 0;

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
      headers: {
        Authorization: `Bearer ${user.token}`,
        "Idempotency-Key": `fund-${runId}-${user.handle}`,
        "Content-Type": "application/json",
      },
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

async function integrityChecks(server: OriginServer, info: OriginServerInfo, transfers: TransferLedger): Promise<IntegrityCheck[]> {
  const checks: IntegrityCheck[] = [];
  const ledger = await request(`${info.url}/api/admin/ledger/check`, { headers: { Authorization: `Bearer ${info.adminToken}` } });
  const violations = (ledger.json?.data as { violations?: unknown[] } | undefined)?.violations;
  checks.push(
    ledger.status === 200 && ledger.json?.code === "SUCCESS" && Array.isArray(violations)
      ? {
          name: "GET /api/admin/ledger/check",
          ok: violations.length === 0,
          detail: violations.length === 0 ? "violations: []" : JSON.stringify(violations).slice(0, 500),
        }
      : { name: "GET /api/admin/ledger/check", ok: false, detail: briefly(ledger) },
  );

  const stats = await serverStats(server);
  const created = transfers.created();
  const open = transfers.unanswered().length;
  const funded = (info.senders.length + info.recipients.length) * FUNDING_PER_USER;
  const moved = created * TRANSFER_AMOUNT;
  checks.push(
    {
      name: "every key sent has its answer",
      ok: open === 0,
      detail: open === 0 ? `${transfers.keys.size} keys` : `${open} of ${transfers.keys.size} keys without an answer`,
    },
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

function evaluateTarget(results: OriginScenarioResult[]): TargetResult {
  const usable = (key: Key) => {
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

function printReport(results: OriginScenarioResult[], target: TargetResult, checks: IntegrityCheck[]): void {
  const ceilingRps = results.find((s) => s.key === "health")?.result?.rps;
  console.log(`\nOrigin throughput and latency (${loadDescription})\n`);
  printScenarioTable(
    results,
    40,
    [
      columns.rps,
      columns.p50,
      columns.p99,
      { title: "×ceiling", width: 9, value: (r) => (ceilingRps ? (r.rps / ceilingRps).toFixed(2) : "—") },
      { title: "requests", width: 9, value: (r) => String(r.requests) },
      columns.non2xx,
      columns.errors,
    ],
    (s) => (broken(s) ? "  (check failed)" : ""),
  );
  const transfers = results.find((s) => s.key === "transfers")?.result;
  if (transfers?.settled?.settled) {
    console.log(
      `\n  transfers in flight when the load stopped: ${transfers.settled.settled}, sent again with their keys (${transfers.settled.replayed} replayed)`,
    );
  }

  console.log(`\nIntegrity (after all loads)\n`);
  for (const c of checks) console.log(`  ${c.ok ? "✓" : "✗"} ${pad(c.name, 40)} ${c.detail}`);

  console.log(`\nTarget\n`);
  console.log(`  ${target.name}: ${target.actual} — ${targetMark(target)}`);
  // The ceiling touches no database; an authenticated one-row read shows what D1 itself allows.
  const lookup = results.find((s) => s.key === "lookup")?.result;
  const oneTrip = results.find((s) => s.key === "ready")?.result;
  if (transfers && oneTrip && ceilingRps) {
    console.log(
      `  the D1 floor: one round trip (GET /api/health/ready) ${(oneTrip.rps / ceilingRps).toFixed(2)}× the ceiling; transfers ${(transfers.rps / oneTrip.rps).toFixed(2)}× one round trip`,
    );
  }
  if (transfers && lookup) {
    console.log(
      `  for reference, transfers against an authenticated one-row D1 read (lookup): ${(transfers.rps / lookup.rps).toFixed(2)}×`,
    );
  }
}

// ---------------------------------------------------------------------------

runBench(WATCHDOG_MS, async (run) => {
  const startedAt = new Date();

  // Serve a private copy of the built origin: the working tree may be rebuilt meanwhile.
  const snapshotDir = await run.snapshot(originBuild);

  const { cpus, loadBefore } = noteMachineLoad();

  console.log("Starting the built origin worker with wrangler dev (local D1)…");
  const t0 = performance.now();
  const server: OriginServer = run.startServer<OriginServerInfo>("bench/origin-serve.ts", [snapshotDir]);
  const info = await server.ready;
  presentAsEdge(info.url, info.edgeSecret);
  await waitUntilServing(`${info.url}/api/health`, 20_000, undefined, credentialFor(info.url));
  await fundWallets(info);
  const funding = fundingChecks(await serverStats(server), info);
  const fundingFailed = funding.filter((c) => !c.ok);
  if (fundingFailed.length)
    throw new Error(`funding the wallets went wrong: ${fundingFailed.map((c) => `${c.name} ${c.detail}`).join("; ")}`);
  console.log(
    `  ${info.worker} at ${info.url}; migrations: ${info.migrations.join(", ")}; ${info.senders.length} senders + ${info.recipients.length} recipients, ` +
      `${(FUNDING_PER_USER / 100).toLocaleString("en")} CNY each from redeemed codes; ready in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  );

  const transfers = new TransferLedger(info.senders, info.recipients);
  const results: OriginScenarioResult[] = [];
  for (const scenario of buildScenarios(info, transfers)) {
    results.push(await runScenario(scenario, (r) => (r.badBodies ? `, ${r.badBodies} 2xx without code SUCCESS` : "")));
  }

  let checks: IntegrityCheck[];
  try {
    await transfers.settle(info.url); // anything a failed load left behind
    checks = await integrityChecks(server, info, transfers);
  } catch (error) {
    checks = [{ name: "integrity checks", ok: false, detail: error instanceof Error ? error.message : String(error) }];
  }
  const loadAfter = loadAverage();

  await run.stopServer();
  run.removeSnapshot();

  const target = evaluateTarget(results);
  printReport(results, target, checks);
  console.log(`\n  load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${cpus} CPUs`);

  const brokenScenarios = results.filter(broken);
  const failedChecks = checks.filter((c) => !c.ok);
  writeResults(
    resultsFile,
    startedAt,
    { cpus, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadAfter },
    {
      server: {
        how: "wrangler dev: dist/paydesk_origin alone, local D1 with all migrations",
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
      ok: brokenScenarios.length === 0 && failedChecks.length === 0,
    },
  );

  if (brokenScenarios.length || failedChecks.length) {
    console.error(
      `\nThe bench ${failedChecks.length ? "found the ledger NOT whole" : "is incomplete"}: ${[...brokenScenarios.map((s) => s.label), ...failedChecks.map((c) => c.name)].join("; ")}`,
    );
    return 1;
  }
  return 0;
});
