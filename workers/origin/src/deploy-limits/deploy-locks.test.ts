import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { defaultLocks, deployLocks } from "#contract/lock-limits";
import { fixturePassword, givePassword, issueCodes, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { pruneExpired } from "../retention/retention";
import { runTimeBasedRules } from "../scheduled";

/** A deploy that locks sign-in after 3 failures for an hour, and counts wrong codes for an hour. */
const tight = JSON.stringify({
  signIn: { failures: 3, lockMinutes: 60 },
  redeem: { failures: 3, windowMinutes: 60 },
});
const unreadable = '{"signIn":{"failures":20}}';

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  await givePassword(alice.id);
});

const under = (setting: string) => ({ ...env, LOCKS: setting });

function signIn(password: string, setting = tight) {
  return origin.call("/api/user/login", { body: { handle: "alice", password }, env: under(setting) });
}

function redeem(code: string, setting = tight) {
  return origin.call("/api/codes/redeem", {
    body: { code },
    headers: { ...alice.auth, "Idempotency-Key": `redeem-${crypto.randomUUID()}` },
    env: under(setting),
  });
}

const rows = async (table: string) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n")) ?? 0;

describe("GET /api/locks", () => {
  it("answers the product's locks where the deploy sets none, to anyone", async () => {
    const answer = await origin.call("/api/locks", { method: "GET" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: "SUCCESS", data: defaultLocks });
  });

  it("answers the deploy's own", async () => {
    const answer = await origin.call("/api/locks", { method: "GET", env: under(tight) });
    expect(await answer.json()).toEqual({
      code: "SUCCESS",
      data: {
        signIn: { failures: 3, windowMinutes: 15, lockMinutes: 60 },
        redeem: { failures: 3, windowMinutes: 60, lockMinutes: 10 },
      },
    });
  });
});

describe("a deploy's tighter sign-in lock", () => {
  it("locks the handle at the deploy's count, for the deploy's length", async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn("wrong password!")).status).toBe(401);
    const locked = await signIn(fixturePassword);
    expect(locked.status).toBe(429);
    expect(locked.headers.get("Retry-After")).toBe("3600");
    expect(await locked.json()).toMatchObject({ code: "SIGN_IN_LOCKED", message: "Too many failed sign-ins. Try again in 60 minutes." });
    origin.advance(59 * 60_000);
    expect((await signIn(fixturePassword)).status).toBe(429);
    origin.advance(60_000);
    expect((await signIn(fixturePassword)).status).toBe(200);
  });

  it("says a lock of a day in hours", async () => {
    const aDay = '{"signIn":{"failures":3,"lockMinutes":1440}}';
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn("wrong password!", aDay)).status).toBe(401);
    const locked = await signIn(fixturePassword, aDay);
    expect(locked.headers.get("Retry-After")).toBe("86400");
    expect(await locked.json()).toMatchObject({ message: "Too many failed sign-ins. Try again in 24 hours." });
  });

  it("starts counting again when a lock ends, though its window outlasts the lock", async () => {
    const longWindow = '{"signIn":{"failures":3,"windowMinutes":60}}';
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn("wrong password!", longWindow)).status).toBe(401);
    expect((await signIn(fixturePassword, longWindow)).status).toBe(429);
    origin.advance(15 * 60_000);
    // The three failures are still inside the hour, but their lock is over.
    expect((await signIn("wrong password!", longWindow)).status).toBe(401);
    expect((await signIn(fixturePassword, longWindow)).status).toBe(200);
  });

  it("counts wrong recovery codes with the passwords", async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const recovery = await origin.call("/api/user/recover", {
        body: { handle: "alice", code: "ABCD-EFGH-JKMN", newPassword: "another long password" },
        env: under(tight),
      });
      expect(recovery.status).toBe(401);
    }
    expect((await signIn(fixturePassword)).status).toBe(429);
  });

  it("is the product's at the defaults: three failures do not lock", async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await signIn("wrong password!", "")).status).toBe(401);
    expect((await signIn(fixturePassword, "")).status).toBe(200);
  });
});

describe("a deploy's tighter redeem lock", () => {
  it("counts wrong codes over the deploy's window, and locks at its count", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // 20 minutes apart: the product's 10-minute window would never hold three.
      if (attempt > 0) origin.advance(20 * 60_000);
      expect((await redeem(`ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`)).status).toBe(422);
    }
    const locked = await redeem(code);
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: "REDEEM_LOCKED", message: "Too many wrong codes. Try again in 10 minutes." });
    origin.advance(10 * 60_000);
    expect((await redeem(code)).status).toBe(201);
  });

  it("is the product's at the defaults", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (attempt > 0) origin.advance(20 * 60_000);
      expect((await redeem(`ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`, "")).status).toBe(422);
    }
    expect((await redeem(code, "")).status).toBe(201);
  });
});

describe("a LOCKS setting the origin cannot read", () => {
  it("answers 500 at sign-in and redeeming, and counts nothing", async () => {
    expect((await signIn(fixturePassword, unreadable)).status).toBe(500);
    expect((await redeem("ZZZZ-ZZZZ-ZZZZ-ZZZZ", unreadable)).status).toBe(500);
    expect((await origin.call("/api/locks", { method: "GET", env: under(unreadable) })).status).toBe(500);
    expect(await rows("sign_in_failure")).toBe(0);
    expect(await rows("code_failure")).toBe(0);
  });
});

describe("pruning a lock's failures", () => {
  async function failuresMinutesAgo(...minutes: number[]) {
    for (const ago of minutes) {
      const at = origin.now() - ago * 60_000;
      await env.DB.batch([
        env.DB.prepare("INSERT INTO sign_in_failure (handle, at) VALUES ('alice', ?1)").bind(at),
        env.DB.prepare("INSERT INTO code_failure (user_id, at) VALUES (?1, ?2)").bind(alice.id, at),
      ]);
    }
  }

  it("keeps them for as long as the deploy's locks count them", async () => {
    await failuresMinutesAgo(30, 90);
    const locks = deployLocks('{"signIn":{"windowMinutes":60},"redeem":{"windowMinutes":60,"lockMinutes":60}}');
    const pruned = await pruneExpired(env.DB, origin.now(), locks);
    // Sign-in: 30 minutes ago is inside the hour, 90 is not. Redeeming: both are inside the two hours.
    expect(pruned).toMatchObject({ sign_in_failure: 1, code_failure: 0 });
    expect(await pruneExpired(env.DB, origin.now(), defaultLocks)).toMatchObject({ sign_in_failure: 1, code_failure: 2 });
  });

  it("is the cron's, which reads the deploy's setting, and keeps them when the setting cannot be read", async () => {
    await failuresMinutesAgo(30);
    expect(
      (await runTimeBasedRules(env.DB, origin.now(), { settings: { LOCKS: '{"signIn":{"windowMinutes":60}}' } })).pruned,
    ).toMatchObject({
      sign_in_failure: 0,
    });
    // Unreadable: the locks' failures are kept, and the other tables pruned as ever.
    const unread = (await runTimeBasedRules(env.DB, origin.now(), { settings: { LOCKS: unreadable } })).pruned;
    expect(unread).toMatchObject({ idempotency: 0, session: 0 });
    expect(unread).not.toHaveProperty("sign_in_failure");
    expect(await rows("sign_in_failure")).toBe(1);
    expect((await runTimeBasedRules(env.DB, origin.now())).pruned).toMatchObject({ sign_in_failure: 1 });
  });
});
