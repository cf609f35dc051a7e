/**
 * Serves the BUILT origin worker alone for `npm run bench:origin`: dist/paydesk_origin (as
 * its wrangler.json describes it) in workerd through Miniflare, on a direct socket of its
 * own (no Miniflare entry worker in the path), with a fresh in-memory D1 that gets every
 * migration of workers/origin/migrations, an ADMIN_TOKEN binding generated here, and the
 * bench users (user + wallet account + live session; their money comes later, through
 * the ledger, from prepaid codes redeemed over the API).
 *
 * Run as a child of bench/origin.ts in its own process group, given the directory that
 * holds a snapshot of dist/paydesk_origin and workers/origin/migrations. It prints one
 * line `READY {json}` on stdout. Then it reads one JSON command per line on stdin
 * (`{"id":1,"cmd":"stats"}`) and answers each with a line `REPLY {json}`: D1 figures the
 * API does not expose, read through Miniflare's D1 binding. It serves until
 * SIGTERM/SIGINT or until stdin closes (the parent went away).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";
import { splitSqlStatements } from "./sql.ts";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

export type OriginBenchUser = { id: string; handle: string; token: string };
export type OriginServerInfo = {
  url: string;
  adminToken: string;
  migrations: string[];
  worker: string;
  senders: OriginBenchUser[];
  recipients: OriginBenchUser[];
};
export type OriginStats = {
  transfers: { count: number; amount: number };
  transferDailyTotal: number;
  journal: Record<string, number>;
  codeRedemptions: number;
  idempotencyRows: number;
  wallets: { count: number; total: number; negative: number };
  senders: number;
  recipients: number;
  world: number;
};

const SENDERS = 20;
const RECIPIENTS = 20;

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const configPath = path.join(root, "dist/paydesk_origin/wrangler.json");

type WranglerJson = {
  name: string;
  main: string;
  compatibility_date?: string;
  compatibility_flags?: string[];
  vars?: Record<string, unknown>;
  d1_databases?: { binding: string; database_id?: string; preview_database_id?: string; database_name?: string; migrations_dir?: string }[];
};

if (!existsSync(configPath)) throw new Error(`${configPath} is missing: run \`npm run build\` first.`);
const config = JSON.parse(readFileSync(configPath, "utf8")) as WranglerJson;
const dir = path.dirname(configPath);
const entry = path.resolve(dir, config.main);
// As wrangler does for `no_bundle` output: every .js/.mjs file beside the entry is a module.
const modules = [
  entry,
  ...(readdirSync(dir, { recursive: true }) as string[])
    .map((name) => path.join(dir, name))
    .filter((file) => /\.m?js$/.test(file) && file !== entry && !file.includes(`${path.sep}.wrangler${path.sep}`))
    .sort(),
];
const d1 = config.d1_databases?.find((d) => d.binding === "DB");
if (!d1) throw new Error("The origin has no D1 binding DB.");

const adminToken = randomBytes(32).toString("base64url");
const origin: WorkerOptions = {
  name: config.name,
  modulesRoot: dir,
  modules: modules.map((file) => ({ type: "ESModule" as const, path: file })),
  compatibilityDate: config.compatibility_date,
  compatibilityFlags: config.compatibility_flags,
  bindings: { ...config.vars, ADMIN_TOKEN: adminToken },
  d1Databases: { DB: d1.preview_database_id ?? d1.database_id ?? d1.database_name ?? "DB" },
  unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
};

const mf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  log: new Log(LogLevel.WARN),
  logRequests: false,
  cf: false,
  d1Persist: false,
  cachePersist: false,
  workers: [origin],
});

let disposing: Promise<void> | null = null;
function shutdown(code: number): void {
  disposing ??= mf
    .dispose()
    .catch(() => {})
    .finally(() => process.exit(code));
}
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(0));

type D1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;

async function stats(db: D1): Promise<OriginStats> {
  const [transfers, daily, journal, redemptions, idempotency, wallets, senders, recipients, world] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT count(*) AS n, coalesce(sum(amount), 0) AS total FROM transfer"),
    db.prepare("SELECT coalesce(sum(total), 0) AS total FROM transfer_daily"),
    db.prepare("SELECT kind, count(*) AS n FROM journal_tx GROUP BY kind"),
    db.prepare("SELECT count(*) AS n FROM code_redemption"),
    db.prepare("SELECT count(*) AS n FROM idempotency"),
    db.prepare(
      `SELECT count(*) AS n, coalesce(sum(available + held), 0) AS total,
              coalesce(sum(CASE WHEN available < 0 OR held < 0 THEN 1 ELSE 0 END), 0) AS negative
       FROM account WHERE kind = 'user'`,
    ),
    db.prepare(
      `SELECT coalesce(sum(account.available + account.held), 0) AS total
       FROM account JOIN user ON user.id = account.owner_id WHERE account.kind = 'user' AND user.handle GLOB 'bench_s*'`,
    ),
    db.prepare(
      `SELECT coalesce(sum(account.available + account.held), 0) AS total
       FROM account JOIN user ON user.id = account.owner_id WHERE account.kind = 'user' AND user.handle GLOB 'bench_r*'`,
    ),
    db.prepare("SELECT available + held AS total FROM account WHERE id = 'acc_world'"),
  ]);
  const first = (result: { results?: Record<string, unknown>[] } | undefined, column: string) => Number(result?.results?.[0]?.[column] ?? Number.NaN);
  return {
    transfers: { count: first(transfers, "n"), amount: first(transfers, "total") },
    transferDailyTotal: first(daily, "total"),
    journal: Object.fromEntries(((journal?.results ?? []) as Record<string, unknown>[]).map((row) => [String(row.kind), Number(row.n)])),
    codeRedemptions: first(redemptions, "n"),
    idempotencyRows: first(idempotency, "n"),
    wallets: { count: first(wallets, "n"), total: first(wallets, "total"), negative: first(wallets, "negative") },
    senders: first(senders, "total"),
    recipients: first(recipients, "total"),
    world: first(world, "total"),
  };
}

try {
  await mf.ready;
  const url = await mf.unsafeGetDirectURL(config.name);
  const db = await mf.getD1Database("DB", config.name);

  // Migrations, in file order, as `wrangler d1 migrations apply` would apply them.
  const migrationsDir = path.resolve(dir, d1.migrations_dir ?? "migrations");
  const migrations = readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  for (const name of migrations) {
    const statements = splitSqlStatements(readFileSync(path.join(migrationsDir, name), "utf8"));
    if (statements.length) await db.batch(statements.map((sql) => db.prepare(sql)));
  }

  // Users with an empty wallet and a live session (token stored as its SHA-256 hex).
  const now = Date.now();
  const makeUser = (kind: "s" | "r", n: number): OriginBenchUser => {
    const handle = `bench_${kind}${String(n).padStart(2, "0")}`;
    return { id: `usr_${handle}`, handle, token: randomBytes(32).toString("base64url") };
  };
  const senders = Array.from({ length: SENDERS }, (_, i) => makeUser("s", i + 1));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => makeUser("r", i + 1));
  await db.batch(
    [...senders, ...recipients].flatMap((user) => [
      db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES (?1, ?2, ?3, ?4)").bind(user.id, user.handle, `Bench ${user.handle}`, now),
      db.prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, ?2, 'user')").bind(`acc_${user.id}`, user.id),
      db
        .prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at, ended_at) VALUES (?1, ?2, ?3, ?3, NULL)")
        .bind(createHash("sha256").update(user.token).digest("hex"), user.id, now),
    ]),
  );

  const commands = createInterface({ input: process.stdin });
  commands.on("line", (line) => {
    if (!line.trim()) return;
    let id: unknown = null;
    void (async () => {
      const command = JSON.parse(line) as { id: unknown; cmd: string };
      id = command.id;
      if (command.cmd !== "stats") throw new Error(`unknown command ${command.cmd}`);
      return stats(db);
    })().then(
      (data) => process.stdout.write(`REPLY ${JSON.stringify({ id, ok: true, data })}\n`),
      (error: unknown) => process.stdout.write(`REPLY ${JSON.stringify({ id, ok: false, error: String(error) })}\n`),
    );
  });
  // stdin is a pipe from the parent: its end means the parent is gone.
  commands.on("close", () => shutdown(0));

  const info: OriginServerInfo = { url: url.origin, adminToken, migrations, worker: config.name, senders, recipients };
  process.stdout.write(`READY ${JSON.stringify(info)}\n`);
} catch (error) {
  console.error("[bench/origin-serve] failed to start:", error);
  shutdown(1);
}
