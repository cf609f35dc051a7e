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
