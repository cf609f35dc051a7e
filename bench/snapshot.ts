/**
 * A private copy of the build for one bench run, so that a rebuild in the working tree
 * while the bench runs (vite empties build/ first) cannot pull files from under the
 * server. The layout is kept, so the relative paths in the wrangler.json files hold:
 * build/server (edge) → ../client (assets); dist/paydesk_origin → ../../workers/origin/migrations.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const parts = ["build/client", "build/server", "dist/paydesk_origin", "workers/origin/migrations"];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asset files the server build names that the client build lacks (a half-written build). */
function missingAssets(root: string): string[] {
  const server = path.join(root, "build/server/index.js");
  if (!existsSync(server)) return ["build/server/index.js"];
  const referenced = new Set(readFileSync(server, "utf8").match(/\/assets\/[A-Za-z0-9._-]+\.(?:js|css)\b/g) ?? []);
  return [...referenced].filter((asset) => !existsSync(path.join(root, "build/client", asset)));
}

export async function snapshotBuild(repoRoot: string, attempts = 5): Promise<{ dir: string; remove: () => void }> {
  for (const part of parts) {
    if (!existsSync(path.join(repoRoot, part))) throw new Error(`${part} is missing: run \`npm run build\` first.`);
  }
  let problem = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const dir = mkdtempSync(path.join(tmpdir(), "paydesk-bench-"));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      for (const part of parts) {
        cpSync(path.join(repoRoot, part), path.join(dir, part), { recursive: true, filter: (source) => !source.endsWith(".map") });
      }
      const missing = missingAssets(dir);
      if (missing.length === 0) return { dir, remove };
      problem = `the server build references missing assets: ${missing.slice(0, 5).join(", ")}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    remove();
    await sleep(2_000); // a rebuild is probably under way
  }
  throw new Error(`could not take a consistent copy of the build (${problem}); is a build running?`);
}
