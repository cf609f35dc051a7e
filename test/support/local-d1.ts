/**
 * A local D1 as `wrangler dev --persist-to <dir>` serves it, prepared and read through
 * wrangler's own d1 commands: migrated exactly as `wrangler d1 migrations apply` does it
 * (and records it), so the browser tests (test/e2e/serve.ts) and the benches (bench/)
 * serve the database a deploy would have, not a hand-made imitation of it.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

/** The project's wrangler, whatever the caller's working directory. */
export const wranglerBin = path.resolve(import.meta.dirname, "../../node_modules/.bin/wrangler");

/** Nothing fetched from Cloudflare, nothing reported to it. */
export const wranglerEnv: NodeJS.ProcessEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

/** A D1 binding of a wrangler config, in a local state directory. */
export type LocalD1 = { config: string; persistTo: string; binding?: string };

/** Each call starts workerd: seconds, not minutes, unless something hangs. */
const WRANGLER_TIMEOUT_MS = 120_000;

const execFileAsync = promisify(execFile);

/** Runs one wrangler command; its output (tables of every migration) shows only when it fails. */
async function wrangler(args: string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(wranglerBin, args, {
      env: wranglerEnv,
      timeout: WRANGLER_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    const output = `${stderr ?? ""}${stdout ?? ""}`.trim().slice(-2_000);
    throw new Error(
      `wrangler ${args.slice(0, 3).join(" ")} failed: ${error instanceof Error ? error.message.split("\n")[0] : error}\n${output}`,
    );
  }
}

const target = (db: LocalD1) => [db.binding ?? "DB", "--local", "-c", db.config, "--persist-to", db.persistTo];

/** Runs `statements` in order and returns each one's rows (an empty list for those that return none). */
export async function queryLocalD1<Row = Record<string, unknown>>(db: LocalD1, statements: string[]): Promise<Row[][]> {
  const stdout = await wrangler(["d1", "execute", ...target(db), "--json", "--command", statements.join(";\n")]);
  const results = JSON.parse(stdout) as { results?: Row[] }[];
  return results.map((result) => result.results ?? []);
}

/**
 * A fresh D1 with every migration of its config's migrations_dir, then `seed` run;
 * returns the migrations applied, as D1 recorded them.
 */
export async function prepareLocalD1(db: LocalD1, seed: string[]): Promise<string[]> {
  await wrangler(["d1", "migrations", "apply", ...target(db)]);
  const results = await queryLocalD1<{ name: string }>(db, [...seed, "SELECT name FROM d1_migrations ORDER BY id"]);
  return (results.at(-1) ?? []).map((row) => row.name);
}
