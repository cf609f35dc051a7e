import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { balanceOf, fundWallet, resetDatabase, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { secondsUntilNextChinaDay } from "./door-limit";
import { type DoorName, doors, type RateLimitBinding } from "./doors";

declare global {
  namespace Cloudflare {
    interface Env {
      /** 3 requests a minute (vitest.config.ts): swapped in for a door's own binding to see it refuse. */
      LIMIT_TEST_TIGHT: RateLimit;
    }
  }
}

let origin: TestOrigin;
const unique = () => crypto.randomUUID().replaceAll("-", "").slice(0, 12);
const randomAddress = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 254) + 1}`;
const keyed = (headers: Record<string, string> = {}) => ({ ...headers, "Idempotency-Key": `key-${crypto.randomUUID()}` });

async function freshUser(): Promise<Awaited<ReturnType<typeof seedUser>>> {
  return seedUser(`u_${unique()}`, origin.now());
}

type Sender = (env: Partial<Env>) => Promise<Response> | Response;

/** One request through each door, as a person would send it (every one a new key). */
async function senderFor(door: DoorName): Promise<Sender> {
  const address = randomAddress();
  const user = await freshUser();
  const ticketId = "tkt_00000000-0000-4000-8000-000000000000";
  const taskId = "tsk_00000000-0000-4000-8000-000000000000";
  switch (door) {
    case "signUp":
      return (overrides) =>
        origin.call("/api/user/register", {
          body: { handle: `s_${unique()}`, password: "correct horse battery", displayName: "New" },
          headers: keyed({ "X-Real-IP": address }),
          env: overrides,
        });
    case "signIn":
      return (overrides) =>
        origin.call("/api/user/login", {
          body: { handle: `n_${unique()}`, password: "not the password" },
          headers: { "X-Real-IP": address },
          env: overrides,
        });
    case "passkeySignIn":
      return (overrides) => origin.call("/api/user/passkey/options", { headers: { "X-Real-IP": address }, env: overrides });
    case "passkeys":
      return (overrides) =>
        origin.call("/api/account/passkeys/options", { body: { password: "not the password" }, headers: user.auth, env: overrides });
    case "signInLink":
      return (overrides) => origin.call("/api/user/sign-in-link", { headers: user.auth, env: overrides });
    case "lookup":
      return (overrides) => origin.call("/api/users/lookup?handle=somebody", { method: "GET", headers: user.auth, env: overrides });
    case "redeem":
      return (overrides) =>
        origin.call("/api/codes/redeem", { body: { code: "AAAA-BBBB-CCCC-DDDD" }, headers: keyed(user.auth), env: overrides });
    case "orders":
      return (overrides) => origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers: keyed(user.auth), env: overrides });
    case "transfers":
      return (overrides) =>
        origin.call("/api/transfers", { body: { toHandle: "somebody", amount: 1 }, headers: keyed(user.auth), env: overrides });
    case "tasks":
      return (overrides) =>
        origin.call("/api/tasks", {
          body: {
            title: "A task",
            description: "Do it.",
            reward: 100,
            slots: 1,
            deadline: new Date(origin.now() + 48 * 3_600_000).toISOString(),
          },
          headers: keyed(user.auth),
          env: overrides,
        });
    case "claims":
      return (overrides) => origin.call(`/api/tasks/${taskId}/claims`, { headers: user.auth, env: overrides });
    case "tickets":
      return (overrides) =>
        origin.call("/api/support/tickets", {
          body: { subject: "Help", message: "A question." },
          headers: keyed(user.auth),
          env: overrides,
        });
    case "messages":
      return (overrides) =>
        origin.call(`/api/support/tickets/${ticketId}/messages`, { body: { message: "More." }, headers: keyed(user.auth), env: overrides });
    case "account":
      return (overrides) => origin.call("/api/account/sessions/end-others", { headers: user.auth, env: overrides });
    case "accountSecurity":
      return (overrides) =>
        origin.call("/api/account/password", {
          body: { currentPassword: "not the password", newPassword: "a newer passphrase" },
          headers: user.auth,
          env: overrides,
        });
    case "recovery":
      return (overrides) =>
        origin.call("/api/user/recover", {
          body: { handle: `n_${unique()}`, code: "AAAA-BBBB-CCCC", newPassword: "a newer passphrase" },
          headers: { "X-Real-IP": address },
          env: overrides,
        });
    case "exports":
      return (overrides) =>
        origin.call("/api/wallet/export?from=2026-10-01&to=2026-10-31", { method: "GET", headers: user.auth, env: overrides });
  }
}

/**
 * The binding counts in windows of the wall clock's minutes: a burst that straddles one
 * would see its count reset, so such a run is repeated (it takes milliseconds).
 */
async function withinOneMinute<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const started = Math.floor(Date.now() / 60_000);
    const result = await run();
    if (Math.floor(Date.now() / 60_000) === started || attempt === 2) return result;
  }
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("a limit on every door", () => {
  it.each(Object.keys(doors) as DoorName[])(
    "%s: bursts past its binding's limit answer 429 RATE_LIMITED with Retry-After",
    async (door) => {
      const binding: RateLimitBinding = doors[door].burst;
      const statuses = await withinOneMinute(async () => {
        const send = await senderFor(door);
        const tight = { [binding]: env.LIMIT_TEST_TIGHT } as Partial<Env>;
        const answers: Response[] = [];
        for (let n = 0; n < 4; n += 1) answers.push(await send(tight));
        return answers;
      });
      expect(statuses.slice(0, 3).map((answer) => answer.status)).not.toContain(429);
      const refused = statuses[3];
      expect(refused?.status).toBe(429);
      expect(refused?.headers.get("Retry-After")).toBe("60");
      expect(await refused?.json()).toMatchObject({ code: "RATE_LIMITED", message: "Too many requests. Try again in 60 seconds." });
    },
  );

  it("counts bursts per user: one user's limit leaves another's alone", async () => {
    const tight = { LIMIT_LOOKUP: env.LIMIT_TEST_TIGHT } as Partial<Env>;
    const [first, second] = await Promise.all([freshUser(), freshUser()]);
    const lookUp = (user: typeof first) =>
      origin.call("/api/users/lookup?handle=somebody", { method: "GET", headers: user?.auth ?? {}, env: tight });
    const statuses = await withinOneMinute(async () => {
      const mine = [];
      for (let n = 0; n < 4; n += 1) mine.push((await lookUp(first)).status);
      return { mine, theirs: (await lookUp(second)).status };
    });
    expect(statuses).toEqual({ mine: [404, 404, 404, 429], theirs: 404 });
  });
});

describe("daily limits", () => {
  const lookUp = (user: { auth: Record<string, string> }, headers: Record<string, string> = {}, overrides: Partial<Env> = {}) =>
    origin.call("/api/users/lookup?handle=somebody", { method: "GET", headers: { ...user.auth, ...headers }, env: overrides });

  it("make walking 10,000 guessed handles take more than a day, for one account and for one address", () => {
    const { user, address } = doors.lookup.perDay;
    expect(10_000 / user).toBeGreaterThan(1);
    expect(10_000 / address).toBeGreaterThan(1);
    // Accounts to walk with come from sign-ups, themselves limited per address per day.
    expect(doors.signUp.perDay.address * user).toBeGreaterThan(address);
  });

  it("lets 200 look-ups a day through for one account, then 429 until midnight in China", async () => {
    const user = await freshUser();
    for (let n = 0; n < doors.lookup.perDay.user; n += 1) expect((await lookUp(user, { "X-Real-IP": randomAddress() })).status).toBe(404);
    const refused = await lookUp(user, { "X-Real-IP": randomAddress() });
    expect(refused.status).toBe(429);
    // The test clock starts at 2026-11-01T00:00Z, 08:00 in China: 16 hours to go.
    expect(refused.headers.get("Retry-After")).toBe(String(16 * 3600));
    expect(await refused.json()).toMatchObject({ code: "RATE_LIMITED", message: "Too many requests. Try again in 16 hours." });
    // The next day in China counts afresh.
    origin.advance(16 * 3_600_000);
    expect((await lookUp(user, { "X-Real-IP": randomAddress() })).status).toBe(404);
  }, 60_000);

  it("counts one address across accounts", async () => {
    const address = randomAddress();
    const overrides = { LIMITS_PER_DAY: JSON.stringify({ lookup: { address: 4 } }) };
    const users = await Promise.all([freshUser(), freshUser()]);
    const statuses = [];
    for (let n = 0; n < 6; n += 1) statuses.push((await lookUp(users[n % 2] ?? users[0], { "X-Real-IP": address }, overrides)).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429]);
    expect((await lookUp(users[0], { "X-Real-IP": randomAddress() }, overrides)).status).toBe(404);
  });

  it("lets exactly the limit through when requests arrive at once", async () => {
    const user = await freshUser();
    const overrides = { LIMITS_PER_DAY: JSON.stringify({ orders: { user: 5 } }) };
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers: keyed(user.auth), env: overrides }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM orders").first("n")).toBe(5);
  });

  it("limit sign-ups per address per day by default, and may be raised by LIMITS_PER_DAY", async () => {
    const address = randomAddress();
    const signUp = (overrides: Partial<Env> = {}) =>
      origin.call("/api/user/register", {
        body: { handle: `s_${unique()}`, password: "correct horse battery", displayName: "New" },
        headers: keyed({ "X-Real-IP": address }),
        env: overrides,
      });
    for (let n = 0; n < doors.signUp.perDay.address; n += 1) expect((await signUp()).status).toBe(201);
    expect((await signUp()).status).toBe(429);
    expect((await signUp({ LIMITS_PER_DAY: JSON.stringify({ signUp: { address: 1_000 } }) })).status).toBe(201);
    // Malformed configuration is ignored: the defaults hold. So is a count the door does not keep.
    expect((await signUp({ LIMITS_PER_DAY: "{not json" })).status).toBe(429);
    expect((await signUp({ LIMITS_PER_DAY: JSON.stringify({ signUp: { user: 1_000 } }) })).status).toBe(429);
  }, 60_000);

  it("does not count a retry that replays its first answer", async () => {
    const user = await freshUser();
    const overrides = { LIMITS_PER_DAY: JSON.stringify({ orders: { user: 1 } }) };
    const headers = keyed(user.auth);
    const first = await origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers, env: overrides });
    const retry = await origin.call("/api/orders/recharge", { body: { amount: 1_000 }, headers, env: overrides });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
  });
});

describe("transfers and the look-up's limits", () => {
  const transfer = (
    user: { auth: Record<string, string> },
    toHandle: string,
    overrides: Partial<Env>,
    key = `key-${crypto.randomUUID()}`,
  ) =>
    origin.call("/api/transfers", {
      body: { toHandle, amount: 100 },
      headers: { ...user.auth, "Idempotency-Key": key },
      env: overrides,
    });

  it("count a refused transfer as a look-up: past its daily limit, a known handle and an unknown one both hear 429", async () => {
    const overrides = { LIMITS_PER_DAY: JSON.stringify({ lookup: { user: 3 } }) };
    const [sender, known] = await Promise.all([freshUser(), freshUser()]);
    const knownHandle = (await env.DB.prepare("SELECT handle FROM user WHERE id = ?1").bind(known.id).first<string>("handle")) ?? "";
    const statuses = [];
    // The sender has no money: a known handle is refused for the funds, an unknown one as nobody's.
    for (const handle of [`n_${unique()}`, knownHandle, `n_${unique()}`, knownHandle, `n_${unique()}`])
      statuses.push((await transfer(sender, handle, overrides)).status);
    expect(statuses).toEqual([404, 422, 404, 429, 429]);
    // The same count as the look-up's own.
    expect(
      (await origin.call(`/api/users/lookup?handle=${knownHandle}`, { method: "GET", headers: sender.auth, env: overrides })).status,
    ).toBe(429);
  });

  it("replay a transfer's answer to its retry past the burst limit, and refuse a new one", async () => {
    const tight = { LIMIT_TRANSFERS: env.LIMIT_TEST_TIGHT } as Partial<Env>;
    const [sender, recipient] = await Promise.all([freshUser(), freshUser()]);
    await fundWallet(origin, sender, 1_000);
    const to = (await env.DB.prepare("SELECT handle FROM user WHERE id = ?1").bind(recipient.id).first<string>("handle")) ?? "";
    const { answers, retry, next } = await withinOneMinute(async () => {
      const keys = [1, 2, 3].map(() => `key-${crypto.randomUUID()}`);
      const sent = [];
      for (const key of keys) sent.push(await transfer(sender, to, tight, key));
      // The third's answer was lost: its retry meets the limit, and replays.
      return { answers: sent, retry: await transfer(sender, to, tight, keys[2]), next: await transfer(sender, to, tight) };
    });
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(await answers[2]?.json());
    expect(next.status).toBe(429);
    expect(await balanceOf(sender.id)).toEqual({ available: 700, held: 0 });
  });
});

describe("the next day in China", () => {
  it.each([
    ["2026-11-01T00:00:00Z", 16 * 3600],
    ["2026-11-01T15:59:59Z", 1],
    ["2026-11-01T16:00:00Z", 24 * 3600],
  ])("is %s + %i seconds away", (at, seconds) => {
    expect(secondsUntilNextChinaDay(Date.parse(at))).toBe(seconds);
  });
});
