import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import {
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  issueCodes,
  operatorAuth,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;

function redeem(code: string, auth = alice.auth, key = `redeem-${crypto.randomUUID()}`) {
  return origin.call("/api/codes/redeem", { body: { code }, headers: { ...auth, "Idempotency-Key": key } });
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
});

describe("issuing codes (operator)", () => {
  it("issues codes of 16 Crockford characters in groups of 4, keeping only their hashes", async () => {
    const codes = await issueCodes(origin, 10_000, 3);
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM prepaid_code").all()).results);
    for (const code of codes) expect(stored).not.toContain(code.replace(/-/g, ""));
  });

  it("with an Idempotency-Key, a retry issues nothing more and names the batch; the key with another request is refused", async () => {
    const body = { value: 500, count: 2, expiresAt: "2030-01-01T00:00:00Z" };
    const headers = { ...operatorAuth, "Idempotency-Key": `codes-${crypto.randomUUID()}` };
    const first = await origin.call("/api/admin/codes", { body, headers });
    expect(first.status).toBe(201);
    const { batch, codes } = ((await first.json()) as { data: { batch: string; codes: string[] } }).data;
    expect(codes).toHaveLength(2);
    const retry = await origin.call("/api/admin/codes", { body, headers });
    expect(retry.status).toBe(409);
    const refused = (await retry.json()) as { code: string; message: string };
    expect(refused.code).toBe("CODES_ALREADY_SHOWN");
    expect(refused.message).toContain(batch);
    for (const code of codes) expect(JSON.stringify(refused)).not.toContain(code);
    expect((await origin.call("/api/admin/codes", { body: { ...body, count: 3 }, headers })).status).toBe(422);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM prepaid_code").first("n")).toBe(2);
    // Without a key each request issues, as automation always could.
    await issueCodes(origin, 500);
    await issueCodes(origin, 500);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM prepaid_code").first("n")).toBe(4);
  });

  it.each([
    ["no token", {}],
    ["a wrong token", { Authorization: "Bearer wrong-token-wrong-token-wrong-token-00" }],
    ["a user's token", { Authorization: "Bearer tok_alice_xxxxxxxxxxxxxxxxxxxxxxxx" }],
  ])("refuses %s with 403", async (_, headers) => {
    const response = await origin.call("/api/admin/codes", {
      body: { value: 100, count: 1, expiresAt: "2030-01-01T00:00:00Z" },
      headers,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "FORBIDDEN" });
  });
});

describe("redeeming a code", () => {
  it("credits the wallet once, through the ledger", async () => {
    const [code = ""] = await issueCodes(origin, 10_000);
    const response = await redeem(code);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ code: "SUCCESS", data: { value: 10_000 } });
    expect(await balanceOf(alice.id)).toEqual({ available: 10_000, held: 0 });
    const session = await origin.call("/api/user/session", { headers: alice.auth });
    expect(await session.json()).toMatchObject({ data: { balances: { available: 10_000 } } });
    await expectLedgerWhole();
  });

  it("accepts lower case, spaces, no dashes, and I/L/O for 1/1/0", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    const typed = code.toLowerCase().replace(/-/g, " ").replace(/1/g, "l").replace(/0/g, "o");
    expect((await redeem(typed)).status).toBe(201);
  });

  it("refuses a second use, by anyone", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    const bob = await seedUser("bob", origin.now());
    expect((await redeem(code)).status).toBe(201);
    const again = await redeem(code, bob.auth);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "CODE_ALREADY_USED", field: "code" });
    expect(await balanceOf(bob.id)).toEqual({ available: 0, held: 0 });
  });

  it("credits exactly one of two users redeeming the same code at once", async () => {
    const [code = ""] = await issueCodes(origin, 700);
    const users = [alice, ...(await Promise.all(["bob", "carol", "dave"].map((name) => seedUser(name, origin.now()))))];
    const answers = await Promise.all(users.map((user) => redeem(code, user.auth)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
    const balances = await Promise.all(users.map((user) => balanceOf(user.id)));
    expect(balances.reduce((sum, balance) => sum + balance.available, 0)).toBe(700);
    await expectLedgerWhole();
  });

  it("refuses an expired code", async () => {
    const [code = ""] = await issueCodes(origin, 100, 1, 60_000);
    origin.advance(60_000);
    const response = await redeem(code);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: "CODE_EXPIRED" });
  });

  it("refuses a code that does not exist, and a malformed one with 400", async () => {
    expect((await redeem("ABCD-EFGH-JKMN-PQRS")).status).toBe(422);
    const malformed = await redeem("ABCD-EFGH");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "BAD_REQUEST", field: "code" });
  });

  it("locks redeeming for 10 minutes from the fifth wrong try within 10 minutes", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (attempt > 0) origin.advance(2 * 60_000);
      expect((await redeem(`ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`)).status).toBe(422);
    }
    const locked = await redeem(code);
    expect(locked.status).toBe(429);
    expect(await locked.json()).toMatchObject({ code: "REDEEM_LOCKED", message: "Too many wrong codes. Try again in 10 minutes." });
    expect(locked.headers.get("Retry-After")).toBe("600");
    // The first wrong try turning 10 minutes old does not end the lock: the fifth started it.
    origin.advance(3 * 60_000);
    const still = await redeem(code);
    expect(still.status).toBe(429);
    expect(still.headers.get("Retry-After")).toBe("420");
    origin.advance(7 * 60_000 - 1);
    expect((await redeem(code)).status).toBe(429);
    origin.advance(1);
    expect((await redeem(code)).status).toBe(201);
  });

  it("locks again only after five more wrong tries, however old the lock's tries are", async () => {
    const [code = ""] = await issueCodes(origin, 100);
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await redeem(`ZZZZ-ZZZZ-ZZZZ-ZZZ${attempt}`)).status).toBe(422);
    origin.advance(10 * 60_000);
    // The five that locked are 10 minutes old now: a wrong try after the lock is the first of new five.
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await redeem(`ZZZZ-ZZZZ-ZZZY-ZZZ${attempt}`)).status).toBe(422);
    expect((await redeem(code)).status).toBe(201);
  });

  it("counts only a code that is no code as a wrong try: used, expired, or a double click's twin are not", async () => {
    const [used = "", clicked = "", fresh = ""] = await issueCodes(origin, 100, 3);
    const [expired = ""] = await issueCodes(origin, 100, 1, 60_000);
    expect((await redeem(used)).status).toBe(201);
    // A double click: its twin, with the same key, redeems the code between this request's reads and its batch.
    const key = "redeem-twin-0001";
    const raced = await origin.call("/api/codes/redeem", {
      body: { code: clicked },
      headers: { ...alice.auth, "Idempotency-Key": key },
      db: beforeBatch(1, () => redeem(clicked, alice.auth, key)),
    });
    expect(raced.status).toBe(201);
    expect(raced.headers.get("Idempotent-Replayed")).toBe("true");
    origin.advance(60_000);
    for (let n = 0; n < 3; n += 1) {
      expect((await redeem(used)).status).toBe(409);
      expect((await redeem(expired)).status).toBe(422);
    }
    // Four wrong codes still leave a fifth try.
    for (let n = 0; n < 4; n += 1) expect((await redeem(`ZZZZ-ZZZZ-ZZZZ-ZZZ${n}`)).status).toBe(422);
    expect((await redeem(fresh)).status).toBe(201);
    expect(await balanceOf(alice.id)).toEqual({ available: 300, held: 0 });
  });

  it("replays the answer for a retried key without crediting twice", async () => {
    const [code = ""] = await issueCodes(origin, 250);
    const first = await redeem(code, alice.auth, "redeem-key-0001");
    const retry = await redeem(code, alice.auth, "redeem-key-0001");
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(await first.json());
    expect(await balanceOf(alice.id)).toEqual({ available: 250, held: 0 });
  });

  it("requires a session", async () => {
    const response = await origin.call("/api/codes/redeem", {
      body: { code: "ABCD-EFGH-JKMN-PQRS" },
      headers: { "Idempotency-Key": "k-0000000001" },
    });
    expect(response.status).toBe(401);
  });
});

describe("the operator's ledger check", () => {
  it("reports no violation after real activity, and needs the operator token", async () => {
    const [code = ""] = await issueCodes(origin, 500);
    await redeem(code);
    const check = await origin.call("/api/admin/ledger/check", { method: "GET", headers: operatorAuth });
    expect(await check.json()).toEqual({ code: "SUCCESS", data: { violations: [] } });
    expect((await origin.call("/api/admin/ledger/check", { method: "GET", headers: alice.auth })).status).toBe(403);
  });
});

describe("the redeem lockout under parallel guesses", () => {
  it("checks at most 5 wrong codes, however many arrive at once", async () => {
    const guesses = Array.from({ length: 12 }, (_, index) => redeem(`ZZZZ-ZZZZ-ZZZZ-ZZ${String(index).padStart(2, "0")}`));
    const statuses = (await Promise.all(guesses)).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });
});
