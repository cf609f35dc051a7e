/**
 * Serves the BUILT app for the benchmark: one workerd (through Miniflare) running the
 * edge worker (build/server) with its static assets (build/client) and the origin
 * worker (dist/paydesk_origin) behind the ORIGIN service binding, exactly as the two
 * wrangler.json files the build wrote describe them. The edge is on Miniflare's main
 * socket (assets first, as deployed); each worker also gets a direct socket, for the
 * session call through the edge and directly against the origin.
 *
 * The origin's D1 (in memory, fresh each run) gets the migrations of
 * workers/origin/migrations and one seeded user + session.
 *
 * Run as a child of bench/run.ts in its own process group, given the directory that
 * holds build/ and dist/ (a snapshot of the build). It prints one line
 * `READY {json}` on stdout and serves until SIGTERM/SIGINT or until stdin closes
 * (the parent went away): see bench/server-process.ts.
 */
import { createHash, randomBytes } from "node:crypto";
import { serveBench } from "./server-process.ts";
import { benchMiniflare, builtWorker, migrateD1, servedRoot, withDirectSocket } from "./workers.ts";

/** What bench/run.ts learns from the READY line. */
export type AppServerInfo = { edgeUrl: string; edgeWorkerUrl: string; originUrl: string; token: string; migrations: string[]; workers: string[] };

const root = servedRoot();
// The edge worker gets a direct socket too: the session call compares edge and origin
// through the same plumbing, neither passing Miniflare's own entry worker (production
// has none), and /api/* reaches the edge worker first anyway (run_worker_first).
const edge = withDirectSocket(builtWorker(root, "build/server/wrangler.json"));
const origin = withDirectSocket(builtWorker(root, "dist/paydesk_origin/wrangler.json"));

const mf = benchMiniflare([edge, origin]);
const parent = serveBench("bench/serve", () => mf.dispose());

try {
  const edgeUrl = await mf.ready;
  const originUrl = await mf.unsafeGetDirectURL(origin.config.name);
  const edgeWorkerUrl = await mf.unsafeGetDirectURL(edge.config.name);
  const { db, migrations } = await migrateD1(mf, origin);

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

  const info: AppServerInfo = {
    edgeUrl: edgeUrl.origin,
    edgeWorkerUrl: edgeWorkerUrl.origin,
    originUrl: originUrl.origin,
    token,
    migrations,
    workers: [edge.config.name, origin.config.name],
  };
  parent.ready(info);
} catch (error) {
  parent.failed(error);
}
