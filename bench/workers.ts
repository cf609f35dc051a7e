/**
 * Built workers in Miniflare, for the bench servers (bench/serve.ts, bench/origin-serve.ts):
 * each worker exactly as the wrangler.json the build wrote beside it describes it, and its
 * D1 migrated as `wrangler d1 migrations apply` would — so that the benches measure what
 * would be deployed, not a hand-written stand-in.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Log, LogLevel, Miniflare, type WorkerOptions } from "miniflare";
import { splitSqlStatements } from "./sql.ts";

/** The slice of a built wrangler.json the benches read. */
export type WranglerJson = {
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

export type BuiltWorker = {
  /** Its wrangler.json. */
  configFile: string;
  config: WranglerJson;
  /** Miniflare's options for it; a server may add to them (a direct socket, a binding). */
  options: WorkerOptions;
};

/** The directory a bench server serves: the copy of the build its bench made (argv[2]), else this checkout. */
export const servedRoot = () => path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));

function moduleFiles(dir: string, entry: string): string[] {
  const files = (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => path.join(dir, name))
    // .wrangler holds wrangler's own bundles (after a deploy from this directory), not the build's modules.
    .filter((file) => /\.m?js$/.test(file) && file !== entry && !file.includes(`${path.sep}.wrangler${path.sep}`));
  return [entry, ...files.sort()];
}

/** The built worker whose wrangler.json is `configFile` (under `root`). */
export function builtWorker(root: string, configFile: string): BuiltWorker {
  const file = path.join(root, configFile);
  if (!existsSync(file)) throw new Error(`${configFile} is missing: run \`npm run build\` first.`);
  const config = JSON.parse(readFileSync(file, "utf8")) as WranglerJson;
  const dir = path.dirname(file);
  const options: WorkerOptions = {
    name: config.name,
    // As wrangler does for `no_bundle` output: every .js/.mjs file beside the entry is a
    // module (the build keeps dynamic imports that Miniflare cannot follow itself).
    modulesRoot: dir,
    modules: moduleFiles(dir, path.resolve(dir, config.main)).map((module) => ({ type: "ESModule" as const, path: module })),
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
      // As wrangler does: `true` runs the worker first for everything, a list for those paths.
      routerConfig: {
        has_user_worker: true,
        invoke_user_worker_ahead_of_assets: config.assets.run_worker_first === true,
        ...(Array.isArray(config.assets.run_worker_first)
          ? { static_routing: { user_worker: config.assets.run_worker_first.filter((rule) => !rule.startsWith("!")) } }
          : {}),
      },
    };
  }
  return { configFile: file, config, options };
}

/** Gives the worker a socket of its own, so it can be reached without Miniflare's entry worker in the path. */
export function withDirectSocket(worker: BuiltWorker): BuiltWorker {
  worker.options.unsafeDirectSockets = [{ host: "127.0.0.1", port: 0 }];
  return worker;
}

/** One Miniflare for a bench: on a free loopback port, nothing persisted, nothing fetched from Cloudflare. */
export function benchMiniflare(workers: BuiltWorker[]): Miniflare {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  process.env.WRANGLER_SEND_METRICS = "false";
  return new Miniflare({
    host: "127.0.0.1",
    port: 0,
    log: new Log(LogLevel.WARN),
    // Request logging goes through Miniflare's Node loopback server on every request.
    logRequests: false,
    cf: false,
    d1Persist: false,
    cachePersist: false,
    workers: workers.map((w) => w.options),
  });
}

export type D1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;

/** Applies the migrations of `worker`'s D1 `binding`, in file order; returns the D1 and the files applied. */
export async function migrateD1(mf: Miniflare, worker: BuiltWorker, binding = "DB"): Promise<{ db: D1; migrations: string[] }> {
  const d1 = worker.config.d1_databases?.find((d) => d.binding === binding);
  if (!d1) throw new Error(`${worker.config.name} has no D1 binding ${binding}.`);
  const migrationsDir = path.resolve(path.dirname(worker.configFile), d1.migrations_dir ?? "migrations");
  const db = await mf.getD1Database(binding, worker.config.name);
  const migrations = readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  for (const name of migrations) {
    const statements = splitSqlStatements(readFileSync(path.join(migrationsDir, name), "utf8"));
    if (statements.length) await db.batch(statements.map((sql) => db.prepare(sql)));
  }
  return { db, migrations };
}
