import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultLocks } from "#contract/lock-limits";
import {
  balanceOf,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { runTimeBasedRules } from "../scheduled";
import { idempotencyRetentionMs, prunedTables, pruneExpired, retentionBatch } from "./retention";

const minute = 60 * 1000;
const hour = 60 * minute;
const day = 24 * hour;

let origin: TestOrigin;

async function countRows(table: string): Promise<number> {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n")) ?? Number.NaN;
}

async function countsOf(tables: readonly string[]): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await countRows(table)] as const)));
}

const keyed = (auth: Record<string, string>) => ({ ...auth, "Idempotency-Key": `key-${crypto.randomUUID()}` });

async function register(handle: string): Promise<void> {
  const response = await origin.call("/api/user/register", {
    body: { handle, password: "correct horse battery", displayName: handle },
    headers: keyed({}),
  });
  expect(response.status).toBe(201);
}

async function signIn(handle: string, password = "correct horse battery"): Promise<Response> {
  return origin.call("/api/user/login", { body: { handle, password }, headers: { "X-Real-IP": "198.51.100.20" } });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("retention", () => {
  it("keeps every pruned table bounded through 45 simulated days of activity, while the ledger, orders, transfers and tickets stay whole", async () => {
    const days = 45;
    const alice = await seedUser("alice", origin.now());
    const bob = await seedUser("bob", origin.now());
    await register("carol_r");
    await fundWallet(origin, alice, days * 100);

    const sizes: Record<string, number>[] = [];
    for (let today = 0; today < days; today += 1) {
      // A day of activity that leaves a row in every table the cron prunes.
      const signedIn = await signIn("carol_r");
      expect(signedIn.status).toBe(200);
      const { token } = ((await signedIn.json()) as { data: { token: string } }).data;
      const carol = { Authorization: `Bearer ${token}` };
      expect((await origin.call("/api/user/sign-in-link", { headers: carol })).status).toBe(201);
      if (today % 2 === 0) expect((await origin.call("/api/user/logout", { headers: carol })).status).toBe(200);
      expect((await signIn("carol_r", "not the password at all")).status).toBe(401);
      // Passkey sign-in options nobody answered: a challenge row each.
      expect((await origin.call("/api/user/passkey/options", { headers: { "X-Real-IP": "198.51.100.20" } })).status).toBe(200);
      const wrongCode = await origin.call("/api/codes/redeem", { body: { code: "AAAA-BBBB-CCCC-DDDD" }, headers: keyed(bob.auth) });
      expect(wrongCode.status).toBe(422);
      const sent = await origin.call("/api/transfers", {
        body: { toHandle: "bob", amount: 100, note: `day ${today}` },
        headers: keyed(alice.auth),
      });
      expect(sent.status).toBe(201);
      expect((await origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers: keyed(bob.auth) })).status).toBe(201);
      const contact = await origin.call("/api/support/contact", {
        body: { email: `visitor${today}@example.com`, subject: "Hello", message: "A question." },
        headers: { ...keyed({}), "X-Real-IP": "203.0.113.9" },
      });
      expect(contact.status).toBe(201);

      // The cron runs all day long; the test samples it every six hours.
      for (let run = 0; run < 4; run += 1) {
        origin.advance(6 * hour);
        const rules = await runTimeBasedRules(env.DB, origin.now());
        expect(rules.pruned, "the pruning ran without failing").not.toBeNull();
      }
      sizes.push(await countsOf(prunedTables));
    }

    // Bounded: what the retention windows keep (sessions live 30 days unused, the rest at
    // most two days), never what the month produced.
    const bound = {
      // The last day's four keyed requests (redeem refused, transfer, order, contact): exactly 24 hours old, still kept.
      idempotency: 4,
      // alice's and bob's sessions, in use every day, and carol's not signed out (every other day) of the last 30 days.
      session: 17,
      webauthn_challenge: 0,
      wechat_sign_in: 0,
      sign_in_link: 0,
      recovery_link: 0,
      // The cron's ledger checks of the last 30 days (every run here, four a day, was due), and the one exactly 30 days old.
      ledger_check_run: 121,
      sign_in_failure: 0,
      sign_in_lock: 0,
      // carol signs in every day from a browser that keeps no device token: her 10 most recent (docs/decisions/061-known-devices.md).
      known_device: 10,
      code_failure: 0,
      contact_attempt: 0,
      // Yesterday's and today's totals in China Standard Time.
      transfer_daily: 2,
      // Yesterday's and today's daily-limit counts of the two limited doors used (sign-in links, orders).
      limit_counter: 4,
      // Nobody asked WeChat Pay about an order in this activity.
      wechat_ask: 0,
    };
    expect(sizes.at(-1)).toEqual(bound);
    // From the day the first sessions idle out, no table ever holds more than that.
    for (const size of sizes.slice(31))
      for (const table of prunedTables) expect(size[table], table).toBeLessThanOrEqual(bound[table as keyof typeof bound]);

    // Whole: nothing that records money or a conversation went.
    expect(await countsOf(["transfer", "orders", "ticket", "ticket_message"])).toEqual({
      transfer: days,
      orders: days,
      ticket: days,
      ticket_message: days,
    });
    expect(await balanceOf(bob.id)).toEqual({ available: days * 100, held: 0 });
    await expectLedgerWhole();
  }, 120_000);

  it("deletes at most one batch per table per run, expired rows only, oldest first", async () => {
    const now = origin.now();
    const expiredCount = retentionBatch * 2 + 17;
    const statements: D1PreparedStatement[] = [];
    for (let n = 0; n < expiredCount; n += 1) {
      statements.push(
        env.DB.prepare(
          "INSERT INTO idempotency (scope, key, request_hash, status, body, created_at) VALUES ('test', ?1, 'h', 201, '{}', ?2)",
        ).bind(`expired-${n}`, now - idempotencyRetentionMs - 1 - n),
      );
    }
    // Exactly at the boundary: a record is kept for at least 24 hours.
    statements.push(
      env.DB.prepare(
        "INSERT INTO idempotency (scope, key, request_hash, status, body, created_at) VALUES ('test', 'kept', 'h', 201, '{}', ?1)",
      ).bind(now - idempotencyRetentionMs),
    );
    await env.DB.batch(statements);

    expect((await pruneExpired(env.DB, now, defaultLocks)).idempotency).toBe(retentionBatch);
    expect((await pruneExpired(env.DB, now, defaultLocks)).idempotency).toBe(retentionBatch);
    expect((await pruneExpired(env.DB, now, defaultLocks)).idempotency).toBe(17);
    expect((await pruneExpired(env.DB, now, defaultLocks)).idempotency).toBe(0);
    expect(await env.DB.prepare("SELECT key FROM idempotency").all()).toMatchObject({ results: [{ key: "kept" }] });
  });

  it("keeps each row until its rule no longer reads it", async () => {
    const now = origin.now();
    const user = await seedUser("dora", now);
    const admin = await seedUser("admin_eve", now);
    const approver = await seedOperator("admin_fay", "admin", now - day);
    // Each link carries its own request, asked for by one admin and approved by another (decision 062).
    const recoveryLink = (hash: string, expires: number) => [
      env.DB.prepare(
        "INSERT INTO recovery_link_request (id, user_id, reason, status, requested_by, requested_at, open_until) VALUES (?1, ?2, 'Checked', 'awaiting_approval', ?3, ?4, ?5)",
      ).bind(`rlr_${hash}`, user.id, admin.id, expires - hour, expires - hour + day),
      env.DB.prepare("UPDATE recovery_link_request SET status = 'approved', decided_by = ?2, decided_at = ?3 WHERE id = ?1").bind(
        `rlr_${hash}`,
        approver.id,
        expires - hour,
      ),
      env.DB.prepare(
        "INSERT INTO recovery_link (token_hash, user_id, issued_by, created_at, expires_at, request_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      ).bind(hash.padEnd(64, "0"), user.id, admin.id, expires - hour, expires, `rlr_${hash}`),
    ];
    const link = (hash: string, expires: number) =>
      env.DB.prepare("INSERT INTO sign_in_link (token_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)").bind(
        hash.padEnd(64, "0"),
        user.id,
        expires - 15 * minute,
        expires,
      );
    const session = (hash: string, lastUsed: number, ended: number | null) =>
      env.DB.prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at, ended_at) VALUES (?1, ?2, ?3, ?3, ?4)").bind(
        hash.padEnd(64, "0"),
        user.id,
        lastUsed,
        ended,
      );
    await env.DB.batch([
      session("idle-31-days", now - 31 * day, null),
      session("idle-29-days", now - 29 * day, null),
      session("signed-out", now - hour, now - hour),
      link("expired", now - 1),
      link("live", now + minute),
      ...recoveryLink("expired-recovery", now - 1),
      ...recoveryLink("live-recovery", now + minute),
      env.DB.prepare(
        "INSERT INTO webauthn_challenge (challenge, purpose, created_at, expires_at) VALUES ('expired-challenge-0', 'sign_in', ?1, ?2), ('live-challenge-0000', 'sign_in', ?1, ?3)",
      ).bind(now - 5 * minute, now - 1, now + minute),
      env.DB.prepare(
        "INSERT INTO wechat_sign_in (state, user_id, appid, created_at, expires_at) VALUES (?1, ?3, 'wxappid', ?4, ?5), (?2, ?3, 'wxappid', ?4, ?6)",
      ).bind("expired-sign-in".padEnd(64, "0"), "live-sign-in".padEnd(64, "0"), user.id, now - 11 * minute, now - 1, now + minute),
      env.DB.prepare("INSERT INTO sign_in_failure (handle, at) VALUES ('dora', ?1), ('dora', ?2)").bind(
        now - 16 * minute,
        now - 14 * minute,
      ),
      env.DB.prepare("INSERT INTO sign_in_lock (handle, until) VALUES ('old', ?1), ('dora', ?2)").bind(now - 1, now + minute),
      // A device is known for 90 days after it was last used.
      env.DB.prepare(
        "INSERT INTO known_device (token_hash, user_id, created_at, last_used_at) VALUES (?1, ?3, ?4, ?4), (?2, ?3, ?5, ?5)",
      ).bind("device-90-days".padEnd(64, "0"), "device-89-days".padEnd(64, "0"), user.id, now - 90 * day, now - 89 * day),
      // A lock may run 10 minutes from a wrong try that counts the 10 minutes before it.
      env.DB.prepare("INSERT INTO code_failure (user_id, at) VALUES (?1, ?2), (?1, ?3)").bind(
        user.id,
        now - 21 * minute,
        now - 19 * minute,
      ),
      env.DB.prepare("INSERT INTO contact_attempt (address, email, at) VALUES ('a', 'x@example.com', ?1), ('a', 'y@example.com', ?2)").bind(
        now - 61 * minute,
        now - 59 * minute,
      ),
      env.DB.prepare(
        "INSERT INTO transfer_daily (user_id, day, total) VALUES (?1, '2026-10-29', 1), (?1, '2026-10-30', 1), (?1, '2026-10-31', 1)",
      ).bind(user.id),
      env.DB.prepare(
        "INSERT INTO limit_counter (door, key, day, count) VALUES ('lookup', 'user:x', '2026-10-29', 1), ('lookup', 'user:x', '2026-10-30', 1), ('lookup', 'user:x', '2026-10-31', 1)",
      ),
      env.DB.prepare("INSERT INTO wechat_ask (order_id, asked_at) VALUES ('ord_asked_11s_ago', ?1), ('ord_asked_9s_ago', ?2)").bind(
        now - 11_000,
        now - 9_000,
      ),
    ]);

    expect(await pruneExpired(env.DB, now, defaultLocks)).toEqual({
      idempotency: 0,
      session: 2,
      webauthn_challenge: 1,
      wechat_sign_in: 1,
      sign_in_link: 1,
      recovery_link: 1,
      ledger_check_run: 0,
      sign_in_failure: 1,
      sign_in_lock: 1,
      known_device: 1,
      code_failure: 1,
      contact_attempt: 1,
      transfer_daily: 1,
      limit_counter: 1,
      wechat_ask: 1,
    });
    expect((await env.DB.prepare("SELECT order_id FROM wechat_ask").all()).results).toEqual([{ order_id: "ord_asked_9s_ago" }]);
    const left = async (sql: string) => (await env.DB.prepare(sql).all()).results;
    expect(await left("SELECT token_hash FROM session ORDER BY last_used_at")).toEqual([
      { token_hash: "idle-29-days".padEnd(64, "0") },
      // The three seeded, live sessions.
      { token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { token_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
    expect(await left("SELECT handle FROM sign_in_lock")).toEqual([{ handle: "dora" }]);
    expect(await left("SELECT token_hash FROM known_device")).toEqual([{ token_hash: "device-89-days".padEnd(64, "0") }]);
    expect(await left("SELECT token_hash FROM recovery_link")).toEqual([{ token_hash: "live-recovery".padEnd(64, "0") }]);
    // 2026-11-01T00:00Z is 08:00 on 1 November in China: 30 and 31 October are still kept.
    expect(await left("SELECT day FROM transfer_daily ORDER BY day")).toEqual([{ day: "2026-10-30" }, { day: "2026-10-31" }]);
  });
});
