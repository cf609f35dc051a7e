/**
 * A worker's configuration floor: its built wrangler.json (bindings, compatibility date and
 * flags, assets) with a one-line main module and nothing else uploaded. Started like the
 * worker itself (bench/startup.ts), it costs what workerd and the local emulation of those
 * bindings cost before any of the worker's code is compiled or run: Miniflare implements a
 * D1 database or a rate limit as services of its own, which a start pays for, where
 * Cloudflare's are not the worker's to start. The worker's start-up over its floor is its
 * code's own share (docs/decisions/035-start-up-floors.md).
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const floorAnswer = "config floor";

/**
 * Writes the floor of the worker built in `workerDir` into a sibling directory (the same
 * depth, so the config's relative paths, `../client` for assets or a migrations folder, still
 * hold) and returns the path of its wrangler.json.
 */
export function writeConfigFloor(workerDir: string): string {
  const floorDir = `${workerDir.replace(/[\\/]+$/, "")}-config-floor`;
  rmSync(floorDir, { recursive: true, force: true });
  mkdirSync(floorDir, { recursive: true });
  copyFileSync(path.join(workerDir, "wrangler.json"), path.join(floorDir, "wrangler.json"));
  writeFileSync(path.join(floorDir, "index.js"), `export default { fetch() { return new Response(${JSON.stringify(floorAnswer)}); } };\n`);
  return path.join(floorDir, "wrangler.json");
}
