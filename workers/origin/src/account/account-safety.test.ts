import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, seedOperator, testOrigin } from "../../test/origin-client";
import { approvedRecoveryLink, recoveryLinkToken } from "../../test/recovery-links";

let origin = testOrigin();
const alice = { handle: "alice_01", password: "correct horse battery", displayName: "Alice Wang" };
const chromeOnAndroid =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const safariOnMac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";

type Answer<T = Record<string, unknown>> = { code: string; field?: string; data: T };
const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as Answer<T>;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function register() {
  const response = await origin.call("/api/user/register", { body: alice, headers: { "Idempotency-Key": `reg-${crypto.randomUUID()}` } });
  expect(response.status).toBe(201);
  return (await json<{ id: string }>(response)).data.id;
}

async function signIn(password = alice.password, headers: Record<string, string> = {}) {
  return origin.call("/api/user/login", { body: { handle: alice.handle, password }, headers });
}

async function signedIn(password = alice.password, headers: Record<string, string> = {}): Promise<string> {
  const response = await signIn(password, headers);
  expect(response.status).toBe(200);
  return (await json<{ token: string }>(response)).data.token;
}

async function isLive(token: string): Promise<boolean> {
  return (await origin.call("/api/user/session", { headers: bearer(token) })).status === 200;
}

async function makeCodes(token: string, password = alice.password) {
  return origin.call("/api/account/recovery-codes", { body: { password }, headers: bearer(token) });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("password change", () => {
  it("ends every other session and not this one, and the new password is the one that signs in", async () => {
    await register();
    const here = await signedIn();
    const phone = await signedIn();
    const laptop = await signedIn();
    const link = await origin.call("/api/user/sign-in-link", { headers: bearer(phone) });
    const linkToken = ((await json<{ path: string }>(link)).data.path.split("token=")[1] ?? "") as string;

    const changed = await origin.call("/api/account/password", {
      body: { currentPassword: alice.password, newPassword: "a much newer passphrase" },
      headers: bearer(here),
    });
    expect(changed.status).toBe(200);
    expect((await json(changed)).data).toEqual({ sessionsEnded: 2, deviceToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });

    expect(await isLive(here)).toBe(true);
    expect(await isLive(phone)).toBe(false);
    expect(await isLive(laptop)).toBe(false);
    // A sign-in link made before the change opens nothing afterwards.
    expect(await isLive(linkToken)).toBe(false);
    expect((await signIn()).status).toBe(401);
    expect((await signIn("a much newer passphrase")).status).toBe(200);
  });

  it("refuses a wrong current password with 422 WRONG_PASSWORD naming the field, and changes nothing", async () => {
    await register();
    const here = await signedIn();
    const other = await signedIn();
    const refused = await origin.call("/api/account/password", {
      body: { currentPassword: "not the password at all", newPassword: "a much newer passphrase" },
      headers: bearer(here),
    });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ code: "WRONG_PASSWORD", field: "currentPassword" });
    expect(await isLive(other)).toBe(true);
    expect((await signIn()).status).toBe(200);
  });

  it("refuses the same password again with 422 PASSWORD_UNCHANGED", async () => {
    await register();
    const here = await signedIn();
    const refused = await origin.call("/api/account/password", {
      body: { currentPassword: alice.password, newPassword: alice.password },
      headers: bearer(here),
    });
    expect(refused.status).toBe(422);
    expect(await json(refused)).toMatchObject({ code: "PASSWORD_UNCHANGED", field: "newPassword" });
  });

  it("lets exactly one of two sessions changing the password at once keep going: the other was ended by it", async () => {
    await register();
    const [first, second] = [await signedIn(), await signedIn()];
    const answers = await Promise.all([
      origin.call("/api/account/password", {
        body: { currentPassword: alice.password, newPassword: "first new passphrase" },
        headers: bearer(first),
      }),
      origin.call("/api/account/password", {
        body: { currentPassword: alice.password, newPassword: "second new passphrase" },
        headers: bearer(second),
      }),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    // Both may pass the password check; only the batch that runs first finds its session live.
    expect(statuses).toEqual([200, 401]);
    expect([await isLive(first), await isLive(second)].filter(Boolean)).toHaveLength(1);
  });
});

describe("sessions", () => {
  it("lists the live sessions with device and place, most recently used first, this one marked", async () => {
    await register();
    const phone = await signedIn(alice.password, {
      "User-Agent": chromeOnAndroid,
      "X-Client-Place": encodeURIComponent("上海, Shanghai, CN"),
    });
    origin.advance(60_000);
    const mac = await signedIn(alice.password, { "User-Agent": safariOnMac });
    const listed = await origin.call("/api/account/sessions", { method: "GET", headers: bearer(mac) });
    expect(listed.status).toBe(200);
    const { sessions } = (await json<{ sessions: Record<string, unknown>[] }>(listed)).data;
    expect(sessions).toEqual([
      expect.objectContaining({ device: "Safari on macOS", place: null, current: true }),
      expect.objectContaining({ device: "Chrome on Android", place: "上海, Shanghai, CN", current: false }),
    ]);
    expect(sessions[0]?.id).toMatch(/^ses_[0-9a-f]{32}$/);
    expect(JSON.stringify(sessions)).not.toContain(phone);
  });

  it("ends one session by its id; another person's session id is 404", async () => {
    await register();
    const here = await signedIn();
    const phone = await signedIn(alice.password, { "User-Agent": chromeOnAndroid });
    const bob = await seedOperator("bob_0001", "support");
    const bobSession = await env.DB.prepare("SELECT id FROM session WHERE user_id = ?1").bind(bob.id).first<string>("id");

    const foreign = await origin.call(`/api/account/sessions/${bobSession}/end`, { headers: bearer(here) });
    expect(foreign.status).toBe(404);
    expect(await isLive(bob.token)).toBe(true);

    // The phone (a thief's, say) makes a sign-in link before it is ended: the link ends with it.
    const made = await origin.call("/api/user/sign-in-link", { headers: bearer(phone) });
    expect(made.status).toBe(201);
    const linkToken = new URL((await json<{ path: string }>(made)).data.path, "https://paydesk.test").searchParams.get("token") ?? "";
    const listed = await json<{ sessions: { id: string; current: boolean }[] }>(
      await origin.call("/api/account/sessions", { method: "GET", headers: bearer(here) }),
    );
    const phoneId = listed.data.sessions.find((session) => !session.current)?.id;
    const ended = await origin.call(`/api/account/sessions/${phoneId}/end`, { headers: bearer(here) });
    expect(ended.status).toBe(200);
    expect(await isLive(phone)).toBe(false);
    expect(await isLive(here)).toBe(true);
    expect(await isLive(linkToken)).toBe(false);
    // Ended already: there is no live session of that id any more.
    expect((await origin.call(`/api/account/sessions/${phoneId}/end`, { headers: bearer(here) })).status).toBe(404);
  });

  it("ends every other session at once, keeping this one", async () => {
    await register();
    const here = await signedIn();
    const others = [await signedIn(), await signedIn(), await signedIn()];
    const ended = await origin.call("/api/account/sessions/end-others", { headers: bearer(here) });
    expect((await json(ended)).data).toEqual({ sessionsEnded: 3 });
    for (const token of others) expect(await isLive(token)).toBe(false);
    expect(await isLive(here)).toBe(true);
  });

  it("believes a place only from the edge: a request from the internet is refused before it counts", async () => {
    await register();
    const direct = await origin.call("/api/user/login", {
      body: { handle: alice.handle, password: alice.password },
      headers: { "CF-Connecting-IP": "203.0.113.9", "X-Client-Place": "Nowhere" },
    });
    expect(direct.status).toBe(403);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM session").first<number>("n")).toBe(0);
  });
});

describe("recovery codes", () => {
  it("makes ten codes shown once, stored only hashed, after the password is given again", async () => {
    await register();
    const token = await signedIn();
    expect((await json(await origin.call("/api/account/recovery-codes", { method: "GET", headers: bearer(token) }))).data).toEqual({
      remaining: 0,
      generatedAt: null,
    });
    const wrong = await makeCodes(token, "not the password at all");
    expect(wrong.status).toBe(422);
    expect(await json(wrong)).toMatchObject({ code: "WRONG_PASSWORD", field: "password" });

    const made = await makeCodes(token);
    expect(made.status).toBe(201);
    const { codes } = (await json<{ codes: string[] }>(made)).data;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    const stored = await env.DB.prepare("SELECT * FROM recovery_code").all();
    expect(stored.results).toHaveLength(10);
    for (const code of codes) expect(JSON.stringify(stored.results)).not.toContain(code.replaceAll("-", ""));
    const status = await json(await origin.call("/api/account/recovery-codes", { method: "GET", headers: bearer(token) }));
    expect(status.data).toMatchObject({ remaining: 10 });
  });

  it("sets a new password with the handle and a code as typed (either case, no dashes), ends every session and signs in", async () => {
    await register();
    const token = await signedIn();
    const { codes } = (await json<{ codes: string[] }>(await makeCodes(token))).data;
    const typed = (codes[3] ?? "").replaceAll("-", "").toLowerCase();

    const recovered = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: typed, newPassword: "recovered passphrase" },
    });
    expect(recovered.status).toBe(200);
    const { token: fresh, user } = (await json<{ token: string; user: { handle: string } }>(recovered)).data;
    expect(user.handle).toBe(alice.handle);
    expect(await isLive(fresh)).toBe(true);
    expect(await isLive(token)).toBe(false);
    expect((await signIn()).status).toBe(401);
    expect((await signIn("recovered passphrase")).status).toBe(200);

    // Spent: the same code never works twice, and the other nine end with the account taken back.
    const again = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: typed, newPassword: "another passphrase" },
    });
    expect(again.status).toBe(401);
    expect(await json(again)).toMatchObject({ code: "INVALID_RECOVERY" });
    const status = await json(await origin.call("/api/account/recovery-codes", { method: "GET", headers: bearer(fresh) }));
    expect(status.data).toMatchObject({ remaining: 0 });
    const another = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: codes[4], newPassword: "another passphrase" },
    });
    expect(await json(another)).toMatchObject({ code: "INVALID_RECOVERY" });
  });

  it("lets exactly one of eight racing attempts with one code through", async () => {
    await register();
    const { codes } = (await json<{ codes: string[] }>(await makeCodes(await signedIn()))).data;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        origin.call("/api/user/recover", { body: { handle: alice.handle, code: codes[0], newPassword: `racing passphrase ${index}` } }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(7);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM session WHERE ended_at IS NULL").first<number>("n")).toBe(1);
  });

  it("a new set replaces the old: the old codes stop working", async () => {
    await register();
    const token = await signedIn();
    const old = (await json<{ codes: string[] }>(await makeCodes(token))).data.codes;
    await makeCodes(token);
    const refused = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: old[0], newPassword: "recovered passphrase" },
    });
    expect(refused.status).toBe(401);
  });

  it("counts wrong codes as failed sign-ins of the handle: the tenth locks it", async () => {
    await register();
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await origin.call("/api/user/recover", {
        body: { handle: alice.handle, code: "AAAA-AAAA-AAAA", newPassword: "recovered passphrase" },
      });
      expect(wrong.status).toBe(401);
    }
    const locked = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: "AAAA-AAAA-AAAA", newPassword: "recovered passphrase" },
    });
    expect(locked.status).toBe(429);
    expect(locked.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await signIn()).status).toBe(429);
  });

  it("does the same work for a wrong code as for an unknown handle: the new password is hashed only for an unspent code", async () => {
    await register();
    // What each attempt asks of the database, in order, with the values left out.
    const asked = async (handle: string) => {
      const statements: string[] = [];
      const watched = new Proxy(env.DB, {
        get(target, property, receiver) {
          if (property === "prepare") {
            return (sql: string) => {
              statements.push(sql.replace(/\s+/g, " "));
              return target.prepare(sql);
            };
          }
          if (property === "batch") {
            return (batch: D1PreparedStatement[]) => {
              statements.push(`batch of ${batch.length}`);
              return target.batch(batch);
            };
          }
          return Reflect.get(target, property, receiver);
        },
      });
      const answer = await origin.call("/api/user/recover", {
        body: { handle, code: "AAAA-AAAA-AAAA", newPassword: "recovered passphrase" },
        db: watched,
      });
      expect(answer.status).toBe(401);
      expect(await json(answer)).toMatchObject({ code: "INVALID_RECOVERY" });
      return statements;
    };
    const known = await asked(alice.handle);
    const unknown = await asked("nobody_here");
    expect(unknown).toEqual(known);
    // Neither reached the batch that would set the password (and hash it first).
    expect(known.filter((statement) => statement.includes("password_hash"))).toEqual([]);
  });

  it("answers a code of the wrong shape with 400 naming the field", async () => {
    const response = await origin.call("/api/user/recover", {
      body: { handle: alice.handle, code: "short", newPassword: "recovered passphrase" },
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ field: "code" });
  });
});

describe("taking an account back ends its recovery codes", () => {
  const recoverWith = (code: string | undefined, newPassword = "the thief's own password") =>
    origin.call("/api/user/recover", { body: { handle: alice.handle, code, newPassword } });
  const unused = async () => env.DB.prepare("SELECT count(*) AS n FROM recovery_code WHERE used_at IS NULL").first<number>("n");

  it("a new password: codes a thief made while they knew the old one no longer set one", async () => {
    await register();
    const thief = await signedIn();
    const theirs = (await json<{ codes: string[] }>(await makeCodes(thief))).data.codes;
    const owner = await signedIn();
    const changed = await origin.call("/api/account/password", {
      body: { currentPassword: alice.password, newPassword: "the owner's new password" },
      headers: bearer(owner),
    });
    expect(changed.status).toBe(200);
    expect(await isLive(thief)).toBe(false);
    expect(await json(await recoverWith(theirs[0]))).toMatchObject({ code: "INVALID_RECOVERY" });
    expect(await unused()).toBe(0);
    expect((await signIn("the owner's new password")).status).toBe(200);
  });

  it("a recovery with an admin's link, and an admin signing the person out everywhere", async () => {
    const aliceId = await register();
    const admin = await seedOperator("ops_admin", "admin", origin.now());
    const approver = await seedOperator("ops_admin_two", "admin", origin.now());
    const first = (await json<{ codes: string[] }>(await makeCodes(await signedIn()))).data.codes;
    const link = await recoveryLinkToken(await approvedRecoveryLink(origin, admin, approver, aliceId));
    const used = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "recovered passphrase" } });
    expect(used.status).toBe(200);
    expect(await json(await recoverWith(first[0]))).toMatchObject({ code: "INVALID_RECOVERY" });

    const second = (await json<{ codes: string[] }>(await makeCodes(await signedIn("recovered passphrase"), "recovered passphrase"))).data
      .codes;
    const signedOut = await origin.call(`/api/ops/people/${aliceId}/sign-out-everywhere`, {
      body: { reason: "Reported stolen by phone" },
      headers: { ...admin.auth, "Idempotency-Key": `out-${crypto.randomUUID()}` },
    });
    expect(signedOut.status).toBe(200);
    expect(await json(await recoverWith(second[0]))).toMatchObject({ code: "INVALID_RECOVERY" });
    expect(await unused()).toBe(0);
  });
});

describe("a recovery link two admins issue", () => {
  it("sets a new password once, within the hour, and is audited with how identity was checked", async () => {
    const aliceId = await register();
    const old = await signedIn();
    const admin = await seedOperator("ops_admin", "admin", origin.now());
    const approver = await seedOperator("ops_admin_two", "admin", origin.now());
    const issued = await approvedRecoveryLink(origin, admin, approver, aliceId);
    expect(issued.status).toBe(201);
    const link = await recoveryLinkToken(issued);

    const audit = await env.DB.prepare("SELECT actor_id, action, reason FROM audit_log ORDER BY id").all();
    expect(audit.results).toEqual([
      { actor_id: admin.id, action: "person.recovery_link_request", reason: "Video call; ID card matched the account's name" },
      { actor_id: approver.id, action: "person.recovery_link_approve", reason: null },
      { actor_id: admin.id, action: "person.recovery_link", reason: "Video call; ID card matched the account's name" },
    ]);
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM idempotency").all())).not.toContain(link);

    const used = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "recovered passphrase" } });
    expect(used.status).toBe(200);
    expect(await isLive(old)).toBe(false);
    expect((await signIn("recovered passphrase")).status).toBe(200);
    const twice = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "another passphrase" } });
    expect(twice.status).toBe(401);
  });

  it("stops working after an hour, and a newer link replaces an older one", async () => {
    const aliceId = await register();
    const admin = await seedOperator("ops_admin", "admin", origin.now());
    const approver = await seedOperator("ops_admin_two", "admin", origin.now());
    const first = await recoveryLinkToken(await approvedRecoveryLink(origin, admin, approver, aliceId));
    const second = await recoveryLinkToken(await approvedRecoveryLink(origin, approver, admin, aliceId));
    expect((await origin.call("/api/user/recover-with-link", { body: { link: first, newPassword: "recovered passphrase" } })).status).toBe(
      401,
    );
    origin.advance(60 * 60 * 1000 + 1);
    expect((await origin.call("/api/user/recover-with-link", { body: { link: second, newPassword: "recovered passphrase" } })).status).toBe(
      401,
    );
  });
});

describe("a locked account", () => {
  it("may still change its password and end sessions, but not its name", async () => {
    const aliceId = await register();
    const token = await signedIn();
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), aliceId).run();
    const changed = await origin.call("/api/account/password", {
      body: { currentPassword: alice.password, newPassword: "a much newer passphrase" },
      headers: bearer(token),
    });
    expect(changed.status).toBe(200);
    expect((await origin.call("/api/account/sessions/end-others", { headers: bearer(token) })).status).toBe(200);
    const renamed = await origin.call("/api/account/profile", { body: { displayName: "Someone Else" }, headers: bearer(token) });
    expect(renamed.status).toBe(403);
    expect(await json(renamed)).toMatchObject({ code: "ACCOUNT_LOCKED" });
  });
});

describe("display name", () => {
  it("changes, normalised and checked like every text people type", async () => {
    await register();
    const token = await signedIn();
    const renamed = await origin.call("/api/account/profile", { body: { displayName: "  Alice W.  " }, headers: bearer(token) });
    expect(renamed.status).toBe(200);
    const session = await json<{ displayName: string }>(await origin.call("/api/user/session", { headers: bearer(token) }));
    expect(session.data.displayName).toBe((await json<{ displayName: string }>(renamed)).data.displayName);
    const invisible = await origin.call("/api/account/profile", { body: { displayName: "Ali\u200bce" }, headers: bearer(token) });
    expect(invisible.status).toBe(400);
    expect(await json(invisible)).toMatchObject({ field: "displayName" });
  });
});
