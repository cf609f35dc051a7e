/**
 * Serves the BUILT origin worker alone for `npm run bench:origin`: dist/paydesk_origin (as
 * its wrangler.json describes it) in workerd through Miniflare, on a direct socket of its
 * own (no Miniflare entry worker in the path), with a fresh in-memory D1 that gets every
 * migration of workers/origin/migrations, an ADMIN_TOKEN binding generated here, and the
 * bench users (user + wallet account + live session; their money comes later, through
 * the ledger, from prepaid codes redeemed over the API).
 *
 * Run as a child of bench/origin.ts in its own process group, given the directory that
 * holds a snapshot of dist/paydesk_origin and workers/origin/migrations. It prints one
 * line `READY {json}` on stdout. Then it answers the command "stats" (see
 * bench/server-process.ts): D1 figures the API does not expose, read through Miniflare's
 * D1 binding. It serves until SIGTERM/SIGINT or until stdin closes (the parent went away).
 */
import { createHash, randomBytes } from "node:crypto";
import { serveBench } from "./server-process.ts";
import { benchMiniflare, builtWorker, migrateD1, servedRoot, withDirectSocket, type D1 } from "./workers.ts";

export type OriginBenchUser = { id: string; handle: string; token: string };
export type OriginServerInfo = {
  url: string;
  adminToken: string;
  migrations: string[];
  worker: string;
  senders: OriginBenchUser[];
  recipients: OriginBenchUser[];
};
export type OriginStats = {
  transfers: { count: number; amount: number };
  transferDailyTotal: number;
  journal: Record<string, number>;
  codeRedemptions: number;
  idempotencyRows: number;
  wallets: { count: number; total: number; negative: number };
  senders: number;
  recipients: number;
  world: number;
};

const SENDERS = 20;
const RECIPIENTS = 20;

const origin = withDirectSocket(builtWorker(servedRoot(), "dist/paydesk_origin/wrangler.json"));
const adminToken = randomBytes(32).toString("base64url");
origin.options.bindings = { ...origin.options.bindings, ADMIN_TOKEN: adminToken };

const mf = benchMiniflare([origin]);
const parent = serveBench("bench/origin-serve", () => mf.dispose());

async function stats(db: D1): Promise<OriginStats> {
  const [transfers, daily, journal, redemptions, idempotency, wallets, senders, recipients, world] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT count(*) AS n, coalesce(sum(amount), 0) AS total FROM transfer"),
    db.prepare("SELECT coalesce(sum(total), 0) AS total FROM transfer_daily"),
    db.prepare("SELECT kind, count(*) AS n FROM journal_tx GROUP BY kind"),
    db.prepare("SELECT count(*) AS n FROM code_redemption"),
    db.prepare("SELECT count(*) AS n FROM idempotency"),
    db.prepare(
      `SELECT count(*) AS n, coalesce(sum(available + held), 0) AS total,
              coalesce(sum(CASE WHEN available < 0 OR held < 0 THEN 1 ELSE 0 END), 0) AS negative
       FROM account WHERE kind = 'user'`,
    ),
    db.prepare(
      `SELECT coalesce(sum(account.available + account.held), 0) AS total
       FROM account JOIN user ON user.id = account.owner_id WHERE account.kind = 'user' AND user.handle GLOB 'bench_s*'`,
    ),
    db.prepare(
      `SELECT coalesce(sum(account.available + account.held), 0) AS total
       FROM account JOIN user ON user.id = account.owner_id WHERE account.kind = 'user' AND user.handle GLOB 'bench_r*'`,
    ),
    db.prepare("SELECT available + held AS total FROM account WHERE id = 'acc_world'"),
  ]);
  const first = (result: { results?: Record<string, unknown>[] } | undefined, column: string) => Number(result?.results?.[0]?.[column] ?? Number.NaN);
  return {
    transfers: { count: first(transfers, "n"), amount: first(transfers, "total") },
    transferDailyTotal: first(daily, "total"),
    journal: Object.fromEntries(((journal?.results ?? []) as Record<string, unknown>[]).map((row) => [String(row.kind), Number(row.n)])),
    codeRedemptions: first(redemptions, "n"),
    idempotencyRows: first(idempotency, "n"),
    wallets: { count: first(wallets, "n"), total: first(wallets, "total"), negative: first(wallets, "negative") },
    senders: first(senders, "total"),
    recipients: first(recipients, "total"),
    world: first(world, "total"),
  };
}

try {
  await mf.ready;
  const url = await mf.unsafeGetDirectURL(origin.config.name);
  const { db, migrations } = await migrateD1(mf, origin);

  // Users with an empty wallet and a live session (token stored as its SHA-256 hex).
  const now = Date.now();
  const makeUser = (kind: "s" | "r", n: number): OriginBenchUser => {
    const handle = `bench_${kind}${String(n).padStart(2, "0")}`;
    return { id: `usr_${handle}`, handle, token: randomBytes(32).toString("base64url") };
  };
  const senders = Array.from({ length: SENDERS }, (_, i) => makeUser("s", i + 1));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => makeUser("r", i + 1));
  await db.batch(
    [...senders, ...recipients].flatMap((user) => [
      db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES (?1, ?2, ?3, ?4)").bind(user.id, user.handle, `Bench ${user.handle}`, now),
      db.prepare("INSERT INTO account (id, owner_id, kind) VALUES (?1, ?2, 'user')").bind(`acc_${user.id}`, user.id),
      db
        .prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at, ended_at) VALUES (?1, ?2, ?3, ?3, NULL)")
        .bind(createHash("sha256").update(user.token).digest("hex"), user.id, now),
    ]),
  );

  const info: OriginServerInfo = { url: url.origin, adminToken, migrations, worker: origin.config.name, senders, recipients };
  parent.ready(info, async (cmd) => {
    if (cmd !== "stats") throw new Error(`unknown command ${cmd}`);
    return stats(db);
  });
} catch (error) {
  parent.failed(error);
}
