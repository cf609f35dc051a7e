/**
 * The D1 figures of the origin bench that the API does not expose (transfer rows, journal
 * kinds, money per group of wallets), read by `wrangler d1 execute --json` from the local
 * D1 that `wrangler dev` serves: SQLite lets a second process read it while it serves, and
 * the bench reads only between loads.
 */
import { queryLocalD1, type LocalD1 } from "../test/support/local-d1.ts";

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

/** The money in the wallets of the bench users whose handles match `glob`. */
const walletsOf = (glob: string) =>
  `SELECT coalesce(sum(account.available + account.held), 0) AS total FROM account JOIN user ON user.id = account.owner_id WHERE account.kind = 'user' AND user.handle GLOB '${glob}'`;

const statements = [
  "SELECT count(*) AS n, coalesce(sum(amount), 0) AS total FROM transfer",
  "SELECT coalesce(sum(total), 0) AS total FROM transfer_daily",
  "SELECT kind, count(*) AS n FROM journal_tx GROUP BY kind",
  "SELECT count(*) AS n FROM code_redemption",
  "SELECT count(*) AS n FROM idempotency",
  `SELECT count(*) AS n, coalesce(sum(available + held), 0) AS total,
     coalesce(sum(CASE WHEN available < 0 OR held < 0 THEN 1 ELSE 0 END), 0) AS negative
   FROM account WHERE kind = 'user'`,
  walletsOf("bench_s*"),
  walletsOf("bench_r*"),
  "SELECT available + held AS total FROM account WHERE id = 'acc_world'",
];

export async function readOriginStats(db: LocalD1): Promise<OriginStats> {
  const [transfers, daily, journal, redemptions, idempotency, wallets, senders, recipients, world] = await queryLocalD1(db, statements);
  // A missing row or column reads as NaN, which no integrity check takes for a match.
  const first = (rows: Record<string, unknown>[] | undefined, column: string) => Number(rows?.[0]?.[column] ?? Number.NaN);
  return {
    transfers: { count: first(transfers, "n"), amount: first(transfers, "total") },
    transferDailyTotal: first(daily, "total"),
    journal: Object.fromEntries((journal ?? []).map((row) => [String(row.kind), Number(row.n)])),
    codeRedemptions: first(redemptions, "n"),
    idempotencyRows: first(idempotency, "n"),
    wallets: { count: first(wallets, "n"), total: first(wallets, "total"), negative: first(wallets, "negative") },
    senders: first(senders, "total"),
    recipients: first(recipients, "total"),
    world: first(world, "total"),
  };
}
