/**
 * Migrations that fill in rows written before them, run against rows as the code before them
 * wrote them: each migration up to the one tested, then the rows, then the rest.
 */
import { readD1Migrations } from "@cloudflare/vitest-plugin";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const migrations = await readD1Migrations("./workers/origin/migrations");
let mf: Miniflare;
let db: Awaited<ReturnType<Miniflare["getD1Database"]>>;

beforeEach(async () => {
  mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "export default { fetch: () => new Response(null, { status: 204 }) };",
      compatibilityDate: "2026-10-30",
      d1Databases: ["DB"],
    }),
  );
  db = await mf.getD1Database("DB");
});

afterEach(async () => {
  await mf.dispose();
});

/** Applies every migration whose name sorts before `before` (all of them without it). */
async function migrate({ before }: { before?: string } = {}) {
  for (const migration of migrations) {
    if (before !== undefined && migration.name >= before) continue;
    for (const query of migration.queries) await db.prepare(query).run();
  }
}

/** Applies the migrations from `from` on (by name), the way a deploy applies what is new. */
async function migrateFrom(from: string) {
  for (const migration of migrations) {
    if (migration.name < from) continue;
    for (const query of migration.queries) await db.prepare(query).run();
  }
}

const hashOf = (n: number) => n.toString(16).padStart(64, "0");

// docs/decisions/069-known-devices-listed.md
describe("migration 0044: remembered devices get a public id", () => {
  // Forty-odd migrations run first: seconds, more on a busy machine.
  it("gives every device known before it a random id of its own, with no user agent, and one written later too", {
    timeout: 60_000,
  }, async () => {
    await migrate({ before: "0044" });
    await db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES ('usr_a', 'alice', 'Alice', 1)").run();
    for (const n of [1, 2, 3]) {
      await db
        .prepare("INSERT INTO known_device (token_hash, user_id, created_at, last_used_at) VALUES (?1, 'usr_a', ?2, ?2)")
        .bind(hashOf(n), n)
        .run();
    }
    await migrateFrom("0044");

    type Row = { token_hash: string; id: string | null; user_agent: string | null };
    const rows: Row[] = (await db.prepare("SELECT token_hash, id, user_agent FROM known_device ORDER BY created_at").all<Row>()).results;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.id).toMatch(/^dev_[0-9a-f]{32}$/);
      // Nothing of the token's hash: the id is random.
      expect(row.token_hash).not.toContain((row.id ?? "").slice(4));
      expect(row.user_agent).toBeNull();
    }
    expect(new Set(rows.map((row: Row) => row.id)).size).toBe(3);

    // A row the code before this migration writes (between the migration and the deploy) gets one too.
    await db
      .prepare("INSERT INTO known_device (token_hash, user_id, created_at, last_used_at) VALUES (?1, 'usr_a', 4, 4)")
      .bind(hashOf(4))
      .run();
    expect(await db.prepare("SELECT id FROM known_device WHERE token_hash = ?1").bind(hashOf(4)).first("id")).toMatch(/^dev_[0-9a-f]{32}$/);
    // Two devices never share one.
    const [first] = rows;
    await expect(db.prepare("UPDATE known_device SET id = ?1 WHERE token_hash = ?2").bind(first?.id, hashOf(4)).run()).rejects.toThrow(
      /UNIQUE/,
    );
  });
});

// docs/decisions/071-returned-refunds-asked-again.md
describe("migration 0047: refunds returned to a wallet are asked about again", () => {
  it("gives every return made before it its first ask an hour after the return, unless already paid out; and one written later too", {
    timeout: 60_000,
  }, async () => {
    await migrate({ before: "0047" });
    const hour = 3_600_000;
    await db.batch([
      db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES ('usr_a', 'alice', 'Alice', 1)"),
      db.prepare("INSERT INTO user (id, handle, display_name, created_at) VALUES ('usr_f', 'finance', 'Finance', 1)"),
      // Three orders paid too late, each refunded automatically, WeChat Pay failed each refund.
      ...[1, 2, 3].flatMap((n) => [
        db
          .prepare(
            "INSERT INTO orders (id, user_id, kind, amount, description, created_at, expires_at) VALUES (?1, 'usr_a', 'recharge', 300, 'Recharge', 1, 2)",
          )
          .bind(`ord_${n}`),
        db
          .prepare(
            "INSERT INTO payment (id, order_id, method, status, amount, created_at, updated_at) VALUES (?1, ?2, 'wechat', 'refunded', 300, 1, 1)",
          )
          .bind(`pay_${n}`, `ord_${n}`),
      ]),
      ...["tx_in_1", "tx_in_2", "tx_in_3", "tx_ret_1", "tx_ret_2", "tx_ret_3"].map((id) =>
        db.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES (?1, 'refund', 1)").bind(id),
      ),
      ...[1, 2, 3].map((n) =>
        db
          .prepare(
            `INSERT INTO wechat_refund (out_refund_no, payment_id, order_id, amount, reason, status, in_tx_id, attempts, created_at, updated_at)
             VALUES (?1, ?2, ?3, 300, 'order_closed', 'abnormal', ?4, 1, 1, 1)`,
          )
          .bind(`RF${n}`, `pay_${n}`, `ord_${n}`, `tx_in_${n}`),
      ),
    ]);
    const returned = (n: number, at: number, lateSuccessAt: number | null = null) =>
      db
        .prepare(
          `INSERT INTO wechat_refund_return (out_refund_no, tx_id, user_id, returned_by, returned_at, reason, late_success_at)
           VALUES (?1, ?2, 'usr_a', 'usr_f', ?3, 'Her card was cancelled.', ?4)`,
        )
        .bind(`RF${n}`, `tx_ret_${n}`, at, lateSuccessAt)
        .run();
    await returned(1, 10 * hour);
    await returned(2, 20 * hour, 21 * hour);
    await migrateFrom("0047");

    const nextAsk = (n: number) =>
      db.prepare("SELECT next_ask_at FROM wechat_refund_return WHERE out_refund_no = ?1").bind(`RF${n}`).first("next_ask_at");
    expect(await nextAsk(1)).toBe(11 * hour);
    // Paid out already: nothing to ask.
    expect(await nextAsk(2)).toBeNull();
    // A return the code before this migration writes (between the migration and the deploy) gets one too.
    await returned(3, 30 * hour);
    expect(await nextAsk(3)).toBe(31 * hour);
  });
});
