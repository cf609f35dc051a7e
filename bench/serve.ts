/**
 * Serves the BUILT app for the benchmark the way `wrangler dev` serves it (as
 * test/e2e/serve.ts does), from the two wrangler.json files the build wrote:
 *
 *   proxied: `wrangler dev -c build/server/wrangler.json -c dist/paydesk_origin/wrangler.json`,
 *            the edge worker with its static assets (build/client) and the origin bound
 *            to it in-process as `paydesk-origin`, as the service binding is deployed;
 *   direct:  `wrangler dev -c dist/paydesk_origin/wrangler.json`, the origin alone on a
 *            port of its own (a multi-config wrangler dev serves only its first worker),
 *            for the session call without the edge in the path;
 *   anchor:  `wrangler dev -c bench/anchor/build/server/wrangler.json`, the bench's bare React
 *            Router app (bench/anchor) with its assets, the framework's own figures beside ours;
 *   twin:    `wrangler dev -c bench/anchor/build-twin/server/wrangler.json`, the same app built
 *            with its `/twin` route, which renders Paydesk's /help (bench/build-anchors.ts);
 *   floor:   `wrangler dev -c <state>/floor-worker/wrangler.json -c dist/paydesk_origin/wrangler.json`,
 *            bench/floor/worker.ts in the edge's place (its assets, its routing, the origin
 *            bound to it the same way): what any worker would reach here, Paydesk's code aside.
 *
 * Each has a local D1 of its own (a temporary directory, removed at the end), given every
 * migration by `wrangler d1 migrations apply` and the same seeded user and session by
 * `wrangler d1 execute`, so the two session calls find the same data.
 *
 * Run as a child of bench/run.ts in its own process group, given the directory that
 * holds build/ and dist/ (a snapshot of the build). It prints one line
 * `READY {json}` on stdout and serves until SIGTERM/SIGINT or until stdin closes
 * (the parent went away): see bench/server-process.ts.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prepareLocalD1 } from "../test/support/local-d1.ts";
import { withOpenLimits } from "../test/support/open-limits.ts";
import { seedUserSql } from "../test/support/seed-user.ts";
import { writeFloorConfig } from "./floor/config.ts";
import { serveBench, servedRoot } from "./server-process.ts";
import { startWranglerDev, type WranglerDev } from "../test/support/wrangler-dev.ts";

/** What bench/run.ts learns from the READY line. */
export type AppServerInfo = {
  edgeUrl: string;
  originUrl: string;
  anchorUrl: string;
  /** The anchor's second build, with its twin of Paydesk's /help (bench/build-anchors.ts). */
  twinUrl: string;
  floorUrl: string;
  /** Each server's wrangler process, for the CPU its process tree spends under a load. */
  pids: Record<"edge" | "origin" | "anchor" | "twin" | "floor", number | null>;
  edgeSecret: string;
  token: string;
  migrations: string[];
  workers: string[];
};

const root = servedRoot();
const edgeConfig = path.join(root, "build/server/wrangler.json");
const originConfig = path.join(root, "dist/paydesk_origin/wrangler.json");
const anchorConfig = path.join(root, "bench/anchor/build/server/wrangler.json");
const twinConfig = path.join(root, "bench/anchor/build-twin/server/wrangler.json");
const workerName = (config: string) => (JSON.parse(readFileSync(config, "utf8")) as { name: string }).name;

const state = mkdtempSync(path.join(tmpdir(), "paydesk-bench-state-"));
const servers: WranglerDev[] = [];
const parent = serveBench("bench/serve", async () => {
  await Promise.all(servers.map((server) => server.stop()));
  rmSync(state, { recursive: true, force: true });
});

try {
  const token = randomBytes(32).toString("base64url");
  const seed = seedUserSql({ id: "u_bench_0001", handle: "bench_user", displayName: "Bench User", token, available: 123_456 });
  // The origin alone is reached over HTTP, not the binding: both workers share the edge's
  // secret (wrangler dev reads each config's .dev.vars; the snapshot is the bench's own).
  const edgeSecret = randomBytes(32).toString("base64url");
  for (const config of [edgeConfig, originConfig]) {
    writeFileSync(path.join(path.dirname(config), ".dev.vars"), `EDGE_SECRET=${edgeSecret}\n`, { mode: 0o600 });
  }
  // A load from one address: every limit open, its counting still done.
  writeFileSync(originConfig, JSON.stringify(withOpenLimits(JSON.parse(readFileSync(originConfig, "utf8")))));
  const proxied = { persistTo: path.join(state, "proxied"), registryDir: path.join(state, "proxied-registry") };
  const direct = { persistTo: path.join(state, "direct"), registryDir: path.join(state, "direct-registry") };
  const floor = { persistTo: path.join(state, "floor"), registryDir: path.join(state, "floor-registry") };
  const floorConfig = writeFloorConfig(path.join(state, "floor-worker"), {
    config: edgeConfig,
    assetsDirectory: path.join(root, "build/client"),
    secret: edgeSecret,
  });

  const [migrations] = await Promise.all(
    [proxied, direct, floor].map(({ persistTo }) => prepareLocalD1({ config: originConfig, persistTo }, seed)),
  );
  // Started at once, awaited together: each wrangler dev takes seconds to come up.
  const edge = await startWranglerDev({ configs: [edgeConfig, originConfig], ...proxied });
  servers.push(edge);
  const origin = await startWranglerDev({ configs: [originConfig], ...direct });
  servers.push(origin);
  const anchor = await startWranglerDev({
    configs: [anchorConfig],
    persistTo: path.join(state, "anchor"),
    registryDir: path.join(state, "anchor-registry"),
  });
  servers.push(anchor);
  const twin = await startWranglerDev({
    configs: [twinConfig],
    persistTo: path.join(state, "twin"),
    registryDir: path.join(state, "twin-registry"),
  });
  servers.push(twin);
  const floorServer = await startWranglerDev({ configs: [floorConfig, originConfig], ...floor });
  servers.push(floorServer);
  await Promise.all(servers.map((server) => server.ready));

  const info: AppServerInfo = {
    edgeUrl: edge.url,
    originUrl: origin.url,
    anchorUrl: anchor.url,
    twinUrl: twin.url,
    floorUrl: floorServer.url,
    pids: {
      edge: edge.pid ?? null,
      origin: origin.pid ?? null,
      anchor: anchor.pid ?? null,
      twin: twin.pid ?? null,
      floor: floorServer.pid ?? null,
    },
    edgeSecret,
    token,
    migrations: migrations ?? [],
    workers: [workerName(edgeConfig), workerName(originConfig), workerName(anchorConfig), workerName(floorConfig)],
  };
  parent.ready(info);
} catch (error) {
  parent.failed(error);
}
