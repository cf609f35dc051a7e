/**
 * Serves the BUILT app for the benchmark: one workerd (through Miniflare) running the
 * edge worker (build/server) with its static assets (build/client) and the origin
 * worker (dist/paydesk_origin) behind the ORIGIN service binding, exactly as the two
 * wrangler.json files the build wrote describe them. The edge is on Miniflare's main
 * socket; the origin also gets a direct socket of its own for the "direct" measurement.
 *
 * The origin's D1 (in memory, fresh each run) gets the migrations of
 * workers/origin/migrations and one seeded user + session.
 *
 * Run as a child of bench/run.ts in its own process group, given the directory that
 * holds build/ and dist/ (a snapshot of the build). It prints one line
 * `READY {json}` on stdout and serves until SIGTERM/SIGINT or until stdin closes
 * (the parent went away).
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, fstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";
import { splitSqlStatements } from "./sql.ts";

process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_SEND_METRICS = "false";

// The app to serve: a copy of the build made by bench/run.ts (argv[2]), else this checkout.
const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const edgeConfigPath = path.join(root, "build/server/wrangler.json");
const originConfigPath = path.join(root, "dist/paydesk_origin/wrangler.json");

type WranglerJson = {
  name: string;
  main: string;
  compatibility_date?: string;
  compatibility_flags?: string[];
  vars?: Record<string, unknown>;
  assets?: { directory: string; binding?: string; run_worker_first?: boolean | string[] };
  services?: { binding: string; service: string; entrypoint?: string }[];
  d1_databases?: { binding: string; database_id?: string; preview_database_id?: string; database_name?: string; migrations_dir?: string }[];
  kv_namespaces?: { binding: string; id?: string }[];
  version_metadata?: { binding: string };
};

function readConfig(file: string): WranglerJson {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(file, "utf8")) as WranglerJson;
}

function moduleFiles(dir: string, entry: string): string[] {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => path.join(dir, name))
    .filter((file) => /\.m?js$/.test(file) && file !== entry);
  return [entry, ...files.sort()];
}

/** Miniflare options for one built worker, from the wrangler.json the build wrote next to it. */
function workerOptions(file: string, config: WranglerJson): WorkerOptions {
  const dir = path.dirname(file);
  const options: WorkerOptions = {
    name: config.name,
    // As wrangler does for `no_bundle` output: every .js/.mjs file beside the entry is a
    // module (the build keeps dynamic imports that Miniflare cannot follow itself).
    modulesRoot: dir,
    modules: moduleFiles(dir, path.resolve(dir, config.main)).map((file) => ({ type: "ESModule" as const, path: file })),
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: config.vars ?? {},
  };
  if (config.services?.length) {
    options.serviceBindings = Object.fromEntries(
      config.services.map((s) => [s.binding, s.entrypoint ? { name: s.service, entrypoint: s.entrypoint } : s.service]),
    );
  }
  if (config.d1_databases?.length) {
    options.d1Databases = Object.fromEntries(
      config.d1_databases.map((d) => [d.binding, d.preview_database_id ?? d.database_id ?? d.database_name ?? d.binding]),
    );
  }
  if (config.kv_namespaces?.length) {
    options.kvNamespaces = Object.fromEntries(config.kv_namespaces.map((k) => [k.binding, k.id ?? k.binding]));
  }
  if (config.version_metadata) options.versionMetadata = config.version_metadata.binding;
  if (config.assets) {
    options.assets = {
      directory: path.resolve(dir, config.assets.directory),
      binding: config.assets.binding,
      routerConfig: {
        has_user_worker: true,
        invoke_user_worker_ahead_of_assets: config.assets.run_worker_first === true,
      },
    };
  }
  return options;
}

const edgeConfig = readConfig(edgeConfigPath);
const originConfig = readConfig(originConfigPath);
const edge = workerOptions(edgeConfigPath, edgeConfig);
const origin = workerOptions(originConfigPath, originConfig);
origin.unsafeDirectSockets = [{ host: "127.0.0.1", port: 0 }];

const mf = new Miniflare({
  host: "127.0.0.1",
  port: 0,
  log: new Log(LogLevel.WARN),
  // Request logging goes through Miniflare's Node loopback server on every request.
  logRequests: false,
  cf: false,
  d1Persist: false,
  cachePersist: false,
  workers: [edge, origin],
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
// Started by bench/run.ts, stdin is a pipe from the parent: its end means the parent is gone.
if (fstatSync(0).isFIFO()) {
  process.stdin.on("end", () => shutdown(0));
  process.stdin.on("error", () => shutdown(0));
  process.stdin.resume();
}

try {
  const edgeUrl = await mf.ready;
  const originUrl = await mf.unsafeGetDirectURL(originConfig.name);

  // Migrations, in file order, as `wrangler d1 migrations apply` would apply them.
  const d1 = originConfig.d1_databases?.find((d) => d.binding === "DB");
  if (!d1) throw new Error("The origin has no D1 binding DB.");
  const migrationsDir = path.resolve(path.dirname(originConfigPath), d1.migrations_dir ?? "migrations");
  const db = await mf.getD1Database("DB", originConfig.name);
  const migrations = readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  for (const name of migrations) {
    const statements = splitSqlStatements(readFileSync(path.join(migrationsDir, name), "utf8"));
    if (statements.length) await db.batch(statements.map((sql) => db.prepare(sql)));
  }

  // One user with a wallet and a live session.
  const token = randomBytes(32).toString("base64url");
  const tokenHash = createHash("sha256").update(token).digest("hex");
  const now = Date.now();
  const userId = "u_bench_0001";
  await db.batch([
    db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES (?1, ?2, ?3, ?4)").bind(userId, "bench_user", "Bench User", now),
    db
      .prepare("INSERT INTO account (id, owner_id, kind, available, held) VALUES (?1, ?2, 'user', ?3, ?4)")
      .bind("a_bench_0001", userId, 123_456, 7_890),
    db
      .prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at, ended_at) VALUES (?1, ?2, ?3, ?4, NULL)")
      .bind(tokenHash, userId, now, now),
  ]);

  process.stdout.write(
    `READY ${JSON.stringify({
      edgeUrl: edgeUrl.origin,
      originUrl: originUrl.origin,
      token,
      migrations,
      workers: [edgeConfig.name, originConfig.name],
    })}\n`,
  );
} catch (error) {
  console.error("[bench/serve] failed to start:", error);
  shutdown(1);
}
