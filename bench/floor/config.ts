/**
 * The floor worker's wrangler config (bench/floor/worker.ts): in the edge's place, with the
 * edge's compatibility date, assets directory, `run_worker_first` and service bindings, and
 * the assets bound as ASSETS so that the floor can hold a page's own bytes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

type EdgeConfig = { compatibility_date: string; assets: { run_worker_first?: string[] }; services?: unknown[] };

/** Writes `dir`/wrangler.json (and the edge's secret as its .dev.vars); returns the config's path. */
export function writeFloorConfig(dir: string, edge: { config: string; assetsDirectory: string; secret: string }): string {
  const edgeConfig = JSON.parse(readFileSync(edge.config, "utf8")) as EdgeConfig;
  const config = path.join(dir, "wrangler.json");
  mkdirSync(dir, { recursive: true });
  const floor = {
    name: "paydesk-bench-floor",
    main: path.join(import.meta.dirname, "worker.ts"),
    compatibility_date: edgeConfig.compatibility_date,
    assets: { directory: edge.assetsDirectory, binding: "ASSETS", run_worker_first: edgeConfig.assets.run_worker_first },
    services: edgeConfig.services,
  };
  writeFileSync(config, JSON.stringify(floor));
  writeFileSync(path.join(dir, ".dev.vars"), `EDGE_SECRET=${edge.secret}\n`, { mode: 0o600 });
  return config;
}
