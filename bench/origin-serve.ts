/**
 * Serves the BUILT origin worker alone for `npm run bench:origin` the way `wrangler dev`
 * serves it (as test/e2e/serve.ts does): `wrangler dev -c dist/paydesk_origin/wrangler.json`
 * with a local D1 in a temporary directory (removed at the end) that `wrangler d1
 * migrations apply` gave every migration, an ADMIN_TOKEN generated here, and the bench
 * users seeded by `wrangler d1 execute` (user + wallet account + live session; their money
 * comes later, through the ledger, from prepaid codes redeemed over the API).
 *
 * Run as a child of bench/origin.ts in its own process group, given the directory that
 * holds a snapshot of dist/paydesk_origin and workers/origin/migrations. It prints one
 * line `READY {json}` on stdout. Then it answers the command "stats" (see
 * bench/server-process.ts): D1 figures the API does not expose, read with `wrangler d1
 * execute` (bench/origin-stats.ts). It serves until SIGTERM/SIGINT or until stdin closes
 * (the parent went away).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prepareLocalD1, type LocalD1 } from "../test/support/local-d1.ts";
import { withOpenLimits } from "../test/support/open-limits.ts";
import { seedUserSql } from "../test/support/seed-user.ts";
import { readOriginStats } from "./origin-stats.ts";
import { serveBench, servedRoot } from "./server-process.ts";
import { startWranglerDev, type WranglerDev } from "../test/support/wrangler-dev.ts";

export type OriginBenchUser = { id: string; handle: string; token: string };
export type OriginServerInfo = {
  url: string;
  adminToken: string;
  edgeSecret: string;
  migrations: string[];
  worker: string;
  senders: OriginBenchUser[];
  recipients: OriginBenchUser[];
};

const SENDERS = 20;
const RECIPIENTS = 20;

const config = path.join(servedRoot(), "dist/paydesk_origin/wrangler.json");
const state = mkdtempSync(path.join(tmpdir(), "paydesk-bench-origin-state-"));
const db: LocalD1 = { config, persistTo: path.join(state, "persist") };
let server: WranglerDev | null = null;
const parent = serveBench("bench/origin-serve", async () => {
  await server?.stop();
  rmSync(state, { recursive: true, force: true });
});

try {
  // wrangler dev reads a config's secrets from the .dev.vars beside it. The config is the
  // bench's private copy of the build, removed with it: the token lives for one run only.
  const adminToken = randomBytes(32).toString("base64url");
  // Served alone, the origin is reached over HTTP, not the binding: the bench presents the edge's secret.
  const edgeSecret = randomBytes(32).toString("base64url");
  writeFileSync(path.join(path.dirname(config), ".dev.vars"), `ADMIN_TOKEN=${adminToken}\nEDGE_SECRET=${edgeSecret}\n`, { mode: 0o600 });
  // A load from 20 accounts on one address: every limit open, its counting still done.
  writeFileSync(config, JSON.stringify(withOpenLimits(JSON.parse(readFileSync(config, "utf8")))));

  const makeUser = (kind: "s" | "r", n: number): OriginBenchUser => {
    const handle = `bench_${kind}${String(n).padStart(2, "0")}`;
    return { id: `usr_${handle}`, handle, token: randomBytes(32).toString("base64url") };
  };
  const senders = Array.from({ length: SENDERS }, (_, i) => makeUser("s", i + 1));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => makeUser("r", i + 1));
  // Empty wallets: the bench funds them through the API.
  const seed = [...senders, ...recipients].flatMap((user) => seedUserSql({ ...user, displayName: `Bench ${user.handle}` }));
  const migrations = await prepareLocalD1(db, seed);

  server = await startWranglerDev({ configs: [config], persistTo: db.persistTo, registryDir: path.join(state, "registry") });
  await server.ready;

  const worker = (JSON.parse(readFileSync(config, "utf8")) as { name: string }).name;
  const info: OriginServerInfo = { url: server.url, adminToken, edgeSecret, migrations, worker, senders, recipients };
  parent.ready(info, async (cmd) => {
    if (cmd !== "stats") throw new Error(`unknown command ${cmd}`);
    return readOriginStats(db);
  });
} catch (error) {
  parent.failed(error);
}
