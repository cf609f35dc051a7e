/**
 * `npm run bench:ops` (builds first): the back office at scale (issue #10, item 6).
 *
 * - The console's first load: the gzip size of the JavaScript a first visit to /ops loads —
 *   the entry, the root and the back office's layout and overview chunks, with their imports
 *   — beside the same for /help, a page of the people's site.
 * - The overview's origin time: the built origin served alone by `wrangler dev` on a local
 *   D1 seeded with 10,000 people and 100,000 ledger entries (50,000 transactions over 30
 *   days), GET /api/ops/overview timed sequentially, beside GET /api/health and the full
 *   ledger check (GET /api/ops/ledger/check, which the overview ran on every visit before
 *   docs/decisions/027-recorded-ledger-checks.md) in the same run.
 *
 * Results go to bench/results/ops-latest.json. Against 127.0.0.1 only, bounded in count.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { prepareLocalD1 } from "../test/support/local-d1.ts";
import { seedUserSql } from "../test/support/seed-user.ts";
import { startWranglerDev } from "../test/support/wrangler-dev.ts";
import { fileSize, KB, readManifest } from "./sizes.ts";

const PEOPLE = 10_000;
const TRANSACTIONS = 50_000;
const SAMPLES = 30;
const root = path.resolve(import.meta.dirname, "..");
const clientDir = path.join(root, "build/client");

/** The JavaScript a first visit to a route loads: the entry, the routes matched, their imports. */
function firstLoadGzip(routeIds: string[]): { files: number; gzip: number } {
  const manifest = readManifest(clientDir);
  const modules = new Set<string>([manifest.entry?.module ?? "", ...(manifest.entry?.imports ?? [])].filter(Boolean));
  for (const id of routeIds) {
    const route = manifest.routes[id];
    if (!route) throw new Error(`no route ${id} in the client manifest`);
    modules.add(route.module);
    for (const imported of route.imports ?? []) modules.add(imported);
  }
  return { files: modules.size, gzip: [...modules].reduce((sum, file) => sum + fileSize(clientDir, file).gzip, 0) };
}

/** 10,000 people with wallets; 50,000 code redemptions of ¥1.00 spread over 30 days (two entries each). */
function seedSql(now: number): string[] {
  const numbers = (count: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
  const day = 24 * 60 * 60 * 1000;
  return [
    `${numbers(PEOPLE)} INSERT INTO user (id, handle, display_name, created_at) SELECT 'usr_b' || i, 'bench_' || i, 'Bench person ' || i, ${now} FROM n`,
    `${numbers(PEOPLE)} INSERT INTO account (id, owner_id, kind) SELECT 'acc_usr_b' || i, 'usr_b' || i, 'user' FROM n`,
    `${numbers(TRANSACTIONS)} INSERT INTO journal_tx (id, kind, created_at) SELECT 'tx_b' || i, 'code_redemption', ${now} - (i % 30) * ${day} FROM n`,
    // A transaction's two entries side by side (contiguous ids, as one batch writes them).
    `${numbers(TRANSACTIONS)} INSERT INTO entry (tx_id, account_id, bucket, amount)
       SELECT 'tx_b' || i, CASE side WHEN 0 THEN 'acc_world' ELSE 'acc_usr_b' || (i % ${PEOPLE} + 1) END, 'available', CASE side WHEN 0 THEN -100 ELSE 100 END
       FROM n CROSS JOIN (SELECT 0 AS side UNION ALL SELECT 1) ORDER BY i, side`,
    `${numbers(TRANSACTIONS)} INSERT INTO tx_seal (tx_id) SELECT 'tx_b' || i FROM n`,
  ];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

async function timed(url: string, headers: Record<string, string>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES + 3; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers });
    await response.text();
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    if (i >= 3) times.push(performance.now() - start); // the first three warm the isolate
  }
  return times.sort((a, b) => a - b);
}

const dir = mkdtempSync(path.join(tmpdir(), "paydesk-bench-ops-"));
try {
  const build = path.join(dir, "dist/paydesk_origin");
  mkdirSync(build, { recursive: true });
  cpSync(path.join(root, "dist/paydesk_origin/index.js"), path.join(build, "index.js"));
  // The chunks it imports (the runtime helpers, Sentry's SDK and SimpleWebAuthn on demand), as a deploy uploads them.
  cpSync(path.join(root, "dist/paydesk_origin/assets"), path.join(build, "assets"), { recursive: true });
  cpSync(path.join(root, "workers/origin/migrations"), path.join(dir, "workers/origin/migrations"), { recursive: true });
  const config = path.join(build, "wrangler.json");
  writeFileSync(config, readFileSync(path.join(root, "dist/paydesk_origin/wrangler.json")));
  const edgeSecret = randomBytes(32).toString("base64url");
  writeFileSync(path.join(build, ".dev.vars"), `ADMIN_TOKEN=${randomBytes(32).toString("base64url")}\nEDGE_SECRET=${edgeSecret}\n`);
  const operator = { id: "usr_bench_ops", handle: "bench_ops", displayName: "Bench Ops", token: randomBytes(32).toString("base64url") };
  const persistTo = path.join(dir, "state");
  const seedStart = performance.now();
  await prepareLocalD1({ config, persistTo }, [
    ...seedSql(Date.now()),
    ...seedUserSql(operator),
    `INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES ('${operator.id}', 'admin', 'cli', ${Date.now()})`,
  ]);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  const server = await startWranglerDev({ configs: [config], persistTo, registryDir: path.join(dir, "registry") });
  try {
    await server.ready;
    const edge = { "X-Edge-Secret": edgeSecret };
    const health = await timed(`${server.url}/api/health`, edge);
    const asOperator = { ...edge, Authorization: `Bearer ${operator.token}` };
    const overview = await timed(`${server.url}/api/ops/overview`, asOperator);
    const ledgerCheck = await timed(`${server.url}/api/ops/ledger/check`, asOperator);
    const backOffice = firstLoadGzip(["root", "ops", "ops_index"]);
    const help = firstLoadGzip(["root", "help"]);
    const results = {
      at: new Date().toISOString(),
      loadAverage: loadavg().map((value) => Number(value.toFixed(2))),
      seeded: { people: PEOPLE, transactions: TRANSACTIONS, entries: TRANSACTIONS * 2, seconds: Number(seedSeconds.toFixed(1)) },
      overviewMs: { p50: percentile(overview, 50), p95: percentile(overview, 95), samples: SAMPLES },
      healthMs: { p50: percentile(health, 50), p95: percentile(health, 95), samples: SAMPLES },
      ledgerCheckMs: { p50: percentile(ledgerCheck, 50), p95: percentile(ledgerCheck, 95), samples: SAMPLES },
      overviewVsHealthP50: percentile(overview, 50) / percentile(health, 50),
      overviewVsLedgerCheckP50: percentile(overview, 50) / percentile(ledgerCheck, 50),
      firstLoadGzipKb: { console: backOffice.gzip / KB, consoleFiles: backOffice.files, help: help.gzip / KB, helpFiles: help.files },
    };
    mkdirSync(path.join(root, "bench/results"), { recursive: true });
    writeFileSync(path.join(root, "bench/results/ops-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    console.log(
      `seeded ${PEOPLE} people and ${TRANSACTIONS * 2} entries in ${seedSeconds.toFixed(1)} s (load ${results.loadAverage.join(" ")})`,
    );
    console.log(`GET /api/ops/overview  p50 ${ms(results.overviewMs.p50)}  p95 ${ms(results.overviewMs.p95)}  (${SAMPLES} sequential)`);
    console.log(
      `GET /api/health        p50 ${ms(results.healthMs.p50)}  p95 ${ms(results.healthMs.p95)}  → overview ${results.overviewVsHealthP50.toFixed(1)}× health`,
    );
    console.log(
      `GET /api/ops/ledger/check  p50 ${ms(results.ledgerCheckMs.p50)}  p95 ${ms(results.ledgerCheckMs.p95)}  → overview ${results.overviewVsLedgerCheckP50.toFixed(2)}× the check`,
    );
    console.log(
      `first load, JS gzip: /ops ${(backOffice.gzip / KB).toFixed(1)} KB in ${backOffice.files} files; /help ${(help.gzip / KB).toFixed(1)} KB in ${help.files} files`,
    );
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
