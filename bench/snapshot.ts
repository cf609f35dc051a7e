/**
 * A private copy of the build for one bench run, so that a rebuild in the working tree
 * while the bench runs (vite empties build/ first) cannot pull files from under the
 * server. The layout is kept, so the relative paths in the wrangler.json files hold:
 * build/server (edge) → ../client (assets); dist/paydesk_origin → ../../workers/origin/migrations.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export type SnapshotSpec = {
  /** What is copied, as the messages name it. */
  what: string;
  /** Of the temporary directory's name. */
  prefix: string;
  /** Directories copied, relative to the repository. */
  parts: string[];
  /** Throws when the copy is not whole: a build was half-written when it was taken. */
  verify: (dir: string) => void;
};

/**
 * Asset files the server build names that neither the client build nor the server's own
 * chunks hold (a half-written build). The server imports some modules on demand from its
 * own `assets/` (a library a passkey ceremony loads), so a name may live on either side.
 */
function missingAssets(root: string): string[] {
  const server = path.join(root, "build/server/index.js");
  if (!existsSync(server)) return ["build/server/index.js"];
  const referenced = new Set(readFileSync(server, "utf8").match(/\/assets\/[A-Za-z0-9._-]+\.(?:js|css)\b/g) ?? []);
  const present = (asset: string) => ["build/client", "build/server"].some((side) => existsSync(path.join(root, side, asset)));
  return [...referenced].filter((asset) => !present(asset));
}

/**
 * The whole app: edge worker, its assets, the origin worker and its migrations, and the
 * bench's anchor app beside them (bench/run.ts).
 */
export const appBuild: SnapshotSpec = {
  what: "the build",
  prefix: "paydesk-bench-",
  parts: [
    "build/client",
    "build/server",
    "dist/paydesk_origin",
    "workers/origin/migrations",
    "bench/anchor/build/client",
    "bench/anchor/build/server",
    "bench/anchor/build-twin/client",
    "bench/anchor/build-twin/server",
  ],
  verify: (dir) => {
    const missing = [...missingAssets(dir), ...missingAssets(path.join(dir, "bench/anchor"))];
    if (missing.length) throw new Error(`the server build references missing assets: ${missing.slice(0, 5).join(", ")}`);
  },
};

/** The origin worker and its migrations alone (bench/origin.ts). */
export const originBuild: SnapshotSpec = {
  what: "the built origin",
  prefix: "paydesk-bench-origin-",
  parts: ["dist/paydesk_origin", "workers/origin/migrations"],
  verify: (dir) => {
    const config = JSON.parse(readFileSync(path.join(dir, "dist/paydesk_origin/wrangler.json"), "utf8")) as { main?: string };
    if (!config.main || !existsSync(path.join(dir, "dist/paydesk_origin", config.main)))
      throw new Error(`the entry module ${config.main} is missing`);
    if (!readdirSync(path.join(dir, "workers/origin/migrations")).some((name) => name.endsWith(".sql"))) throw new Error("no migrations");
  },
};

export async function snapshotBuild(repoRoot: string, spec: SnapshotSpec, attempts = 5): Promise<{ dir: string; remove: () => void }> {
  for (const part of spec.parts) {
    if (!existsSync(path.join(repoRoot, part))) throw new Error(`${part} is missing: run \`npm run build\` first.`);
  }
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const dir = mkdtempSync(path.join(tmpdir(), spec.prefix));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      for (const part of spec.parts) {
        cpSync(path.join(repoRoot, part), path.join(dir, part), {
          recursive: true,
          // Source maps are not served; .wrangler is wrangler's scratch state (bundles of its own), not the
          // build; .dev.vars holds the working tree's test secrets, and a bench server writes its own.
          filter: (source) => !source.endsWith(".map") && ![".wrangler", ".dev.vars"].includes(path.basename(source)),
        });
      }
      spec.verify(dir);
      return { dir, remove };
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    remove();
    await sleep(2_000); // a rebuild is probably under way
  }
  throw new Error(`could not take a consistent copy of ${spec.what} (${problem}); is a build running?`);
}
