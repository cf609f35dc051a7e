import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { hashToken } from "../auth/bearer-token";
import { pruneExpired } from "../retention/retention";
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

/** A deploy whose sessions end after a week unused (docs/decisions/057-deploy-session-idle-days.md). */
const week = JSON.stringify({ session: { idleDays: 7 } });
const unreadable = '{"session":{"idleDays":60}}';
const day = 86_400_000;

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  await seedUser("bob", origin.now());
});

const under = (setting: string) => ({ ...env, TIME_LIMITS: setting });

const sessionCall = (auth: Record<string, string>, setting: string) =>
  origin.call("/api/user/session", { headers: auth, env: under(setting) });

/** A second session of alice's, last used `idleFor` ago, with the token it answers to. */
async function anotherSession(idleFor: number): Promise<Record<string, string>> {
  const token = `tok_alice_other_${crypto.randomUUID()}`;
  const at = origin.now() - idleFor;
  await env.DB.prepare("INSERT INTO session (token_hash, user_id, created_at, last_used_at, id) VALUES (?1, ?2, ?3, ?3, ?4)")
    .bind(await hashToken(token), alice.id, at, `ses_${crypto.randomUUID()}`)
    .run();
  return { Authorization: `Bearer ${token}` };
}

describe("a deploy's shorter session idle limit", () => {
  it("ends a session unused for the deploy's days, and renews one in use", async () => {
    origin.advance(7 * day - 1);
    expect((await sessionCall(alice.auth, week)).status).toBe(200);
    origin.advance(7 * day - 1);
    expect((await sessionCall(alice.auth, week)).status).toBe(200);
    origin.advance(7 * day);
    const ended = await sessionCall(alice.auth, week);
    expect(ended.status).toBe(401);
    // Under the product's 30 days the same session would still be live: the deploy ended it.
    expect((await sessionCall(alice.auth, "")).status).toBe(200);
  });

  it("refuses every signed-in door to a session past it: a page's data, the back office, a transfer", async () => {
    await fundWallet(origin, alice, 5_000);
    const operator = await seedOperator("olga", "support", origin.now());
    origin.advance(7 * day);
    const wallet = await origin.call("/api/wallet", { method: "GET", headers: alice.auth, env: under(week) });
    expect(wallet.status).toBe(401);
    const desk = await origin.call("/api/ops/me", { method: "GET", headers: operator.auth, env: under(week) });
    expect(desk.status).toBe(404);
    const transfer = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 1_000 },
      headers: { ...alice.auth, "Idempotency-Key": "trf-after-a-week" },
      env: under(week),
    });
    expect(transfer.status).toBe(401);
    expect(await balanceOf(alice.id)).toEqual({ available: 5_000, held: 0 });
    await expectLedgerWhole();
  });

  it("lists only the sessions still live under it", async () => {
    await anotherSession(8 * day);
    await anotherSession(6 * day);
    const listed = async (setting: string) => {
      const answer = await origin.call("/api/account/sessions", { method: "GET", headers: alice.auth, env: under(setting) });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: { sessions: unknown[] } }).data.sessions.length;
    };
    expect(await listed(week)).toBe(2);
    expect(await listed("")).toBe(3);
  });

  it("tells a person only of the live sessions it signed out, and ends the idle ones too, so no longer limit revives them", async () => {
    const idle = await anotherSession(8 * day);
    const live = await anotherSession(day);
    const ended = await origin.call("/api/account/sessions/end-others", { headers: alice.auth, env: under(week) });
    expect(await ended.json()).toEqual({ code: "SUCCESS", data: { sessionsEnded: 1 } });
    for (const auth of [idle, live]) expect((await sessionCall(auth, "")).status).toBe(401);
    expect((await sessionCall(alice.auth, week)).status).toBe(200);
  });

  it("shows the back office which sessions still sign a person in, and counts only those when it signs them out", async () => {
    const admin = await seedOperator("ada", "admin", origin.now());
    const idle = await anotherSession(8 * day);
    const page = await origin.call(`/api/ops/people/${alice.id}`, { method: "GET", headers: admin.auth, env: under(week) });
    const sessions = ((await page.json()) as { data: { sessions: { live: boolean; endedAt: string | null }[] } }).data.sessions;
    expect(sessions.map(({ live, endedAt }) => ({ live, endedAt }))).toEqual([
      { live: true, endedAt: null },
      { live: false, endedAt: null },
    ]);
    const signedOut = await origin.call(`/api/ops/people/${alice.id}/sign-out-everywhere`, {
      body: { reason: "Reported a stolen phone." },
      headers: { ...admin.auth, "Idempotency-Key": "sign-out-alice" },
      env: under(week),
    });
    expect(((await signedOut.json()) as { data: { sessionsEnded: number } }).data.sessionsEnded).toBe(1);
    const audit = await env.DB.prepare("SELECT before FROM audit_log WHERE action = 'person.sign_out_everywhere'").first<string>("before");
    expect(JSON.parse(audit ?? "null")).toEqual({ liveSessions: 1 });
    expect((await sessionCall(idle, "")).status).toBe(401);
  });

  it("is published at GET /api/time-limits", async () => {
    const answer = await origin.call("/api/time-limits", { method: "GET", env: under(week) });
    expect(await answer.json()).toMatchObject({ code: "SUCCESS", data: { session: { idleDays: 7 } } });
  });

  it("leaves the cron to delete a session only once no deploy could keep it, after the product's 30 days", async () => {
    await anotherSession(8 * day);
    await anotherSession(30 * day + 1);
    const pruned = await pruneExpired(env.DB, origin.now(), defaultLocks);
    expect(pruned.session).toBe(1);
    const kept = await env.DB.prepare("SELECT COUNT(*) AS count FROM session WHERE user_id = ?1")
      .bind(alice.id)
      .first<{ count: number }>("count");
    expect(kept).toBe(2);
  });
});

describe("a TIME_LIMITS setting the origin cannot read", () => {
  it("keeps sessions used within a day, and ends older ones: never longer than any setting may mean", async () => {
    const yesterday = await anotherSession(day + 1);
    origin.advance(day - 1);
    expect((await sessionCall(alice.auth, unreadable)).status).toBe(200);
    expect((await sessionCall(yesterday, unreadable)).status).toBe(401);
    // Read again, the deploy's setting gives back what the day's fallback refused: nothing was deleted.
    expect((await sessionCall(yesterday, "")).status).toBe(200);
  });
});
