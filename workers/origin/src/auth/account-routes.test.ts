import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, testOrigin } from "../../test/origin-client";
import { hashToken } from "./bearer-token";
import { passwordIterations } from "./passwords";
import { longestSessionIdleMs } from "./sessions";

let origin = testOrigin();
const alice = { handle: "alice_01", password: "correct horse battery", displayName: "Alice Wang" };

function register(body: unknown, key = `reg-${crypto.randomUUID()}`) {
  return origin.call("/api/user/register", { body, headers: { "Idempotency-Key": key } });
}

async function signIn(handle = alice.handle, password = alice.password) {
  return origin.call("/api/user/login", { body: { handle, password } });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("register", () => {
  it("creates an account with an empty wallet", async () => {
    const response = await register(alice);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      code: "SUCCESS",
      data: { handle: "alice_01", displayName: "Alice Wang", balances: { available: 0, held: 0 }, currency: "CNY" },
    });
    const wallet = await env.DB.prepare("SELECT available, held FROM account WHERE kind = 'user'").first();
    expect(wallet).toEqual({ available: 0, held: 0 });
  });

  it("stores the password only as PBKDF2-SHA256 with a per-user salt and 100,000 iterations", async () => {
    await register(alice);
    await register({ ...alice, handle: "bob_0001" });
    const rows = await env.DB.prepare("SELECT password_hash, password_salt, password_iterations FROM user").all<{
      password_hash: string;
      password_salt: string;
      password_iterations: number;
    }>();
    expect(passwordIterations).toBe(100_000);
    expect(rows.results.map((row) => row.password_iterations)).toEqual([100_000, 100_000]);
    expect(rows.results[0]?.password_salt).not.toBe(rows.results[1]?.password_salt);
    expect(rows.results[0]?.password_hash).not.toBe(rows.results[1]?.password_hash);
    expect(JSON.stringify(rows.results)).not.toContain(alice.password);
  });

  it("refuses a taken handle with 409 HANDLE_TAKEN naming the field", async () => {
    await register(alice);
    const again = await register({ ...alice, displayName: "Other" });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "HANDLE_TAKEN", field: "handle" });
  });

  it("requires an Idempotency-Key", async () => {
    const response = await origin.call("/api/user/register", { body: alice });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field: "Idempotency-Key" });
  });

  it("answers a retry with the same key and body with the first answer, without a second effect", async () => {
    const first = await register(alice, "same-key-0001");
    const retry = await register(alice, "same-key-0001");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
    expect(await env.DB.prepare("SELECT count(*) AS n FROM user").first("n")).toBe(1);
  });

  it("replays a refusal too", async () => {
    await register(alice);
    const refused = await register({ ...alice, displayName: "Other" }, "refused-key-01");
    expect(refused.status).toBe(409);
    // With the handle free again, only a replay can still answer 409.
    await env.DB.batch([env.DB.prepare("DELETE FROM account"), env.DB.prepare("DELETE FROM user")]);
    const retry = await register({ ...alice, displayName: "Other" }, "refused-key-01");
    expect(retry.status).toBe(409);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  });

  it("refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED", async () => {
    await register(alice, "reused-key-001");
    const other = await register({ ...alice, handle: "carol_01" }, "reused-key-001");
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM user").first("n")).toBe(1);
  });

  it("keeps no hash of the password with the key: the stored request hash is the same whatever the password", async () => {
    await register(alice, "hash-key-0001");
    await register({ ...alice, handle: "bob_0001", password: "an entirely other passphrase" }, "hash-key-0002");
    const hashes = await env.DB.prepare("SELECT key, request_hash FROM idempotency ORDER BY key").all<{ request_hash: string }>();
    const withoutPassword = async (body: object) => {
      const text = JSON.stringify({ ...body, password: "" });
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`POST /api/user/register\n${text}`));
      return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    };
    expect(hashes.results.map((row) => row.request_hash)).toEqual([
      await withoutPassword(alice),
      await withoutPassword({ ...alice, handle: "bob_0001" }),
    ]);
  });

  it("has one effect when one key is raced 20 times", async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => register(alice, "raced-key-0001")));
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM user").first("n")).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM account").first("n")).toBe(1);
  });
});

describe("sign in, session, sign out", () => {
  beforeEach(async () => {
    await register(alice);
  });

  it("signs in with a new 256-bit token that the session call accepts", async () => {
    const response = await signIn();
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { token: string; user: { handle: string } } };
    expect(data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(data.user.handle).toBe(alice.handle);
    const stored = await env.DB.prepare("SELECT token_hash FROM session").first<{ token_hash: string }>();
    expect(stored?.token_hash).toBe(await hashToken(data.token));

    const session = await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${data.token}` } });
    expect(await session.json()).toMatchObject({ code: "SUCCESS", data: { handle: alice.handle } });
  });

  it("counts a password's characters as code points, as the published lengths do", async () => {
    // Five emoji are ten UTF-16 units but five characters: too short for a password (zod 4 counts code points).
    const emoji = { ...alice, handle: "emoji_01" };
    const short = await register({ ...emoji, password: "😀".repeat(5) });
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ code: "BAD_REQUEST", field: "password" });
    // 200 emoji are 400 UTF-16 units but 200 characters: within the 256 allowed.
    expect((await register({ ...emoji, password: "😀".repeat(200) })).status).toBe(201);
    expect((await signIn(emoji.handle, "😀".repeat(200))).status).toBe(200);
    expect((await register({ ...emoji, handle: "emoji_02", password: "😀".repeat(257) })).status).toBe(400);
  });

  it("answers a wrong password and an unknown handle alike", async () => {
    const wrong = await signIn(alice.handle, "not the password");
    const unknown = await signIn("nobody_here", "not the password");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("locks a handle for 15 minutes after 10 failures within 15 minutes", async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await signIn(alice.handle, "wrong password!")).status).toBe(401);
      origin.advance(60_000);
    }
    const locked = await signIn();
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: "SIGN_IN_LOCKED", message: "Too many failed sign-ins. Try again in 14 minutes." });
    expect(locked.headers.get("Retry-After")).toBe(String(14 * 60));
    origin.advance(15 * 60_000 - 60_000 - 1);
    expect((await signIn()).status).toBe(429);
    origin.advance(60_000 + 1);
    expect((await signIn()).status).toBe(200);
  });

  it("does not lock for 10 failures spread over more than 15 minutes", async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await signIn(alice.handle, "wrong password!");
      origin.advance(2 * 60_000);
    }
    expect((await signIn()).status).toBe(200);
  });

  it("ends the session at sign-out", async () => {
    const { data } = (await (await signIn()).json()) as { data: { token: string } };
    const auth = { Authorization: `Bearer ${data.token}` };
    expect((await origin.call("/api/user/logout", { headers: auth })).status).toBe(200);
    expect((await origin.call("/api/user/session", { headers: auth })).status).toBe(401);
    expect((await origin.call("/api/user/logout", { headers: auth })).status).toBe(401);
  });

  it("expires a token unused for 30 days, and renews one in use", async () => {
    const { data } = (await (await signIn()).json()) as { data: { token: string } };
    const auth = { Authorization: `Bearer ${data.token}` };
    origin.advance(longestSessionIdleMs - 1);
    expect((await origin.call("/api/user/session", { headers: auth })).status).toBe(200);
    origin.advance(longestSessionIdleMs - 1);
    expect((await origin.call("/api/user/session", { headers: auth })).status).toBe(200);
    origin.advance(longestSessionIdleMs);
    expect((await origin.call("/api/user/session", { headers: auth })).status).toBe(401);
  });

  it.each([
    ["no Authorization header", {}],
    ["an unknown token", { Authorization: "Bearer tok_unknown_unknown_unknown_1234" }],
    ["a malformed header", { Authorization: "Basic abcdefghijklmnopqrstuvwxyz" }],
    ["a token with forbidden characters", { Authorization: "Bearer <script>alert(1)</script>" }],
  ])("answers the session call 401 UNAUTHENTICATED for %s", async (_, headers) => {
    const response = await origin.call("/api/user/session", { headers });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});

describe("sign-in links", () => {
  async function signedInToken() {
    await register(alice);
    return ((await (await signIn()).json()) as { data: { token: string } }).data.token;
  }

  async function makeLink(token: string) {
    const response = await origin.call("/api/user/sign-in-link", { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(201);
    const { path } = ((await response.json()) as { data: { path: string } }).data;
    return new URL(path, "https://paydesk.test").searchParams.get("token") ?? "";
  }

  it("signs in once, exchanging the link for a new session token", async () => {
    const link = await makeLink(await signedInToken());
    expect(link).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const first = await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${link}` } });
    const { data } = (await first.json()) as { data: { handle: string; replacementToken: string } };
    expect(data.handle).toBe(alice.handle);
    expect(data.replacementToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${data.replacementToken}` } })).status).toBe(200);
    // Used once: the link itself no longer works, for anyone.
    expect((await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${link}` } })).status).toBe(401);
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM sign_in_link").all()).results);
    expect(stored).not.toContain(link);
  });

  it("expires after 15 minutes", async () => {
    const link = await makeLink(await signedInToken());
    origin.advance(15 * 60 * 1000);
    expect((await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${link}` } })).status).toBe(401);
  });

  it("needs a session to make one", async () => {
    expect((await origin.call("/api/user/sign-in-link")).status).toBe(401);
  });
});

describe("the sign-in lockout under parallel guesses", () => {
  it("lets at most 10 guesses be checked, however many arrive at once", async () => {
    await register(alice);
    const answers = await Promise.all(Array.from({ length: 25 }, () => signIn(alice.handle, "a wrong password")));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect((await signIn()).status).toBe(429);
  });
});

describe("sign-in links, spent once", () => {
  async function tokenAndLink() {
    await register(alice);
    const token = ((await (await signIn()).json()) as { data: { token: string } }).data.token;
    const made = await origin.call("/api/user/sign-in-link", { headers: { Authorization: `Bearer ${token}` } });
    const { path } = ((await made.json()) as { data: { path: string } }).data;
    return { token, link: new URL(path, "https://paydesk.test").searchParams.get("token") ?? "" };
  }

  it("makes one session when used many times at once", async () => {
    const { link } = await tokenAndLink();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => origin.call("/api/user/session", { headers: { Authorization: `Bearer ${link}` } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401, 401]);
  });

  it("stops working when the session that made it signs out", async () => {
    const { token, link } = await tokenAndLink();
    expect((await origin.call("/api/user/logout", { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await origin.call("/api/user/session", { headers: { Authorization: `Bearer ${link}` } })).status).toBe(401);
  });
});
