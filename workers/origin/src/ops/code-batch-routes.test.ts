import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CodeBatch } from "#contract/ops-codes";
import {
  balanceOf,
  beforeBatch,
  expectLedgerWhole,
  issueCodes,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { ledgerViolations } from "../ledger/invariants";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let alice: Person;
let finance: Person;

type Issued = { batch: CodeBatch; codes: string[]; csv: string };

const keyed = (auth: Record<string, string>, key = `codes-${crypto.randomUUID()}`) => ({
  ...auth,
  "Idempotency-Key": key,
  "X-Request-Id": "req-codes-1",
});
const inADay = () => new Date(origin.now() + 86_400_000).toISOString();
const batchBody = (more: object = {}) => ({ value: 5_000, count: 3, expiresAt: inADay(), note: "Autumn fair giveaway", ...more });

const issue = (by: Person, body: object = batchBody(), key?: string) =>
  origin.call("/api/ops/code-batches", { body, headers: keyed(by.auth, key) });
const list = (by: Person, query = "") => origin.call(`/api/ops/code-batches${query}`, { method: "GET", headers: by.auth });
const voidBatch = (by: Person, id: string, reason = "Printed with a typo.", key?: string, db?: D1Database) =>
  origin.call(`/api/ops/code-batches/${id}/void`, { body: { reason }, headers: keyed(by.auth, key), ...(db ? { db } : {}) });
const redeem = (code: string, user: Person = alice) =>
  origin.call("/api/codes/redeem", { body: { code }, headers: { ...user.auth, "Idempotency-Key": `redeem-${crypto.randomUUID()}` } });

const dataOf = async <T>(response: Response) => ((await response.json()) as { data: T }).data;
async function issued(body: object = batchBody(), by: Person = finance): Promise<Issued> {
  const response = await issue(by, body);
  expect(response.status).toBe(201);
  return dataOf<Issued>(response);
}
const auditRows = async () =>
  (await env.DB.prepare("SELECT * FROM audit_log ORDER BY id").all<Record<string, unknown>>()).results as Record<string, unknown>[];
const batches = async () => (await dataOf<{ batches: CodeBatch[] }>(await list(finance))).batches;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  finance = await seedOperator("op_finance", "finance", origin.now());
});

describe("the code batches' door", () => {
  it("answers each role as its rights say: no role 404, support 403, finance and admin handle codes; refusals leave no audit row", async () => {
    const people = {
      none: alice,
      support: await seedOperator("op_support", "support", origin.now()),
      finance,
      admin: await seedOperator("op_admin", "admin", origin.now()),
    };
    const expected = {
      none: { issue: 404, list: 404, void: 404 },
      support: { issue: 403, list: 403, void: 403 },
      finance: { issue: 201, list: 200, void: 200 },
      admin: { issue: 201, list: 200, void: 200 },
    };
    for (const [who, person] of Object.entries(people) as [keyof typeof people, Person][]) {
      const target = await issued();
      const answers = { issue: await issue(person), list: await list(person), void: await voidBatch(person, target.batch.id) };
      expect(Object.fromEntries(Object.entries(answers).map(([door, answer]) => [door, answer.status])), who).toEqual(expected[who]);
      if (who === "support") expect(await answers.issue.json()).toMatchObject({ code: "FORBIDDEN" });
    }
    // 4 batches issued by finance as targets, one each by finance and admin, and their two voids.
    const actions = (await auditRows()).map((row) => `${row.actor_role} ${row.action}`);
    expect(actions.filter((action) => action.endsWith("codes.issue"))).toHaveLength(6);
    expect(actions.filter((action) => action.endsWith("codes.void"))).toEqual(["finance codes.void", "admin codes.void"]);
    expect(actions.some((action) => action.startsWith("support"))).toBe(false);
  });
});

describe("issuing a batch", () => {
  it("answers the codes in clear once, with a CSV, and keeps only their hashes; the audit row has value, count, expiry and note", async () => {
    const answer = await issue(finance, batchBody({ value: 2_500, count: 4 }), "issue-key-0001");
    expect(answer.status).toBe(201);
    const { batch, codes, csv } = await dataOf<Issued>(answer);
    expect(codes).toHaveLength(4);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
    expect(csv).toBe(`code,value,expires_at\r\n${codes.map((code) => `${code},2500,${batch.expiresAt}\r\n`).join("")}`);
    expect(batch).toMatchObject({
      value: 2_500,
      count: 4,
      redeemed: 0,
      unredeemed: 4,
      voided: 0,
      expired: 0,
      note: "Autumn fair giveaway",
      issuedBy: { handle: "op_finance", displayName: "Name of op_finance" },
      issuedAt: new Date(origin.now()).toISOString(),
      voidedAt: null,
      voidedBy: null,
    });
    expect(batch.id).toMatch(/^batch_[0-9a-f-]{36}$/);

    // Nowhere in the database: not the codes table, not the recorded answer, not the audit trail.
    const everything = JSON.stringify(
      await Promise.all(
        ["prepaid_code", "code_batch", "idempotency", "audit_log"].map(
          async (table) => (await env.DB.prepare(`SELECT * FROM ${table}`).all()).results,
        ),
      ),
    );
    for (const code of codes) {
      expect(everything).not.toContain(code);
      expect(everything).not.toContain(code.replace(/-/g, ""));
    }
    const [row] = await auditRows();
    expect(row).toMatchObject({
      actor_kind: "operator",
      actor_id: finance.id,
      actor_role: "finance",
      action: "codes.issue",
      object_type: "code_batch",
      object_id: batch.id,
      request_id: "req-codes-1",
    });
    expect(JSON.parse(String(row?.after))).toEqual({ value: 2_500, count: 4, expiresAt: batch.expiresAt, note: "Autumn fair giveaway" });

    // The codes work.
    expect((await redeem(codes[0] ?? "")).status).toBe(201);
    expect(await balanceOf(alice.id)).toEqual({ available: 2_500, held: 0 });
    await expectLedgerWhole();
  });

  it("never shows the codes again: a retry with the key hears 409 CODES_ALREADY_SHOWN naming the batch, and nothing is issued twice", async () => {
    const body = batchBody();
    const first = await issue(finance, body, "issue-key-0002");
    const { batch } = await dataOf<Issued>(first);
    const retry = await issue(finance, body, "issue-key-0002");
    expect(retry.status).toBe(409);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const refusal = (await retry.json()) as { code: string; message: string };
    expect(refusal.code).toBe("CODES_ALREADY_SHOWN");
    expect(refusal.message).toContain(batch.id);
    // No code in it (the batch's id is a UUID, whose all-digit groups could look like one).
    expect(JSON.stringify(refusal).replaceAll(batch.id, "")).not.toMatch(/[0-9A-Z]{4}-[0-9A-Z]{4}-/);
    const other = await issue(finance, batchBody({ count: 2 }), "issue-key-0002");
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM prepaid_code").first("n")).toBe(3);
    expect(await auditRows()).toHaveLength(1);
  });

  it("shows the codes to exactly one of two twins sent at once with the same key", async () => {
    const body = batchBody();
    const answers = await Promise.all([issue(finance, body, "issue-key-twin"), issue(finance, body, "issue-key-twin")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM code_batch").first("n")).toBe(1);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM prepaid_code").first("n")).toBe(3);
    expect(await auditRows()).toHaveLength(1);
    await expectLedgerWhole();
  });

  it.each([
    ["a past expiry", { expiresAt: "2026-10-31T23:59:59Z" }, "expiresAt"],
    ["no note", { note: undefined }, "note"],
    ["a blank note", { note: "   " }, "note"],
    ["a note over 200 characters", { note: "n".repeat(201) }, "note"],
    ["a note with a bidi override", { note: "\u202Egift" }, "note"],
    ["more than 1,000 codes", { count: 1_001 }, "count"],
    ["a value over ¥1,000,000.00", { value: 100_000_001 }, "value"],
    ["a value that is not whole fen", { value: 10.5 }, "value"],
    ["an unknown field", { currency: "CNY" }, "currency"],
  ])("refuses %s (400), issuing nothing", async (_, change, field) => {
    const answer = await issue(finance, batchBody(change));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "BAD_REQUEST", field });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM code_batch").first("n")).toBe(0);
    expect(await auditRows()).toEqual([]);
  });
});

describe("the list of batches", () => {
  it("lists newest first with where each batch's codes are: redeemed, unredeemed, voided, expired", async () => {
    const spent = await issued(batchBody({ count: 2, note: "Spent in part" }));
    origin.advance(1_000);
    const soonOver = await issued(batchBody({ count: 2, expiresAt: new Date(origin.now() + 60_000).toISOString(), note: "Short-lived" }));
    origin.advance(1_000);
    const toVoid = await issued(batchBody({ count: 3, note: "To void" }));
    origin.advance(1_000);
    const [automated] = [await issueCodes(origin, 700, 2)];
    expect(automated).toHaveLength(2);

    expect((await redeem(spent.codes[0] ?? "")).status).toBe(201);
    expect((await redeem(soonOver.codes[0] ?? "")).status).toBe(201);
    expect((await redeem(toVoid.codes[0] ?? "")).status).toBe(201);
    expect((await voidBatch(finance, toVoid.batch.id)).status).toBe(200);
    origin.advance(60_000);

    const listed = await batches();
    expect(listed.map((batch) => batch.note)).toEqual([null, "To void", "Short-lived", "Spent in part"]);
    const counts = listed.map(({ count, redeemed, unredeemed, voided, expired }) => ({ count, redeemed, unredeemed, voided, expired }));
    expect(counts).toEqual([
      { count: 2, redeemed: 0, unredeemed: 2, voided: 0, expired: 0 },
      { count: 3, redeemed: 1, unredeemed: 0, voided: 2, expired: 0 },
      { count: 2, redeemed: 1, unredeemed: 0, voided: 0, expired: 1 },
      { count: 2, redeemed: 1, unredeemed: 1, voided: 0, expired: 0 },
    ]);
    // ADMIN_TOKEN's automation issues batches too: no operator, no note.
    expect(listed[0]).toMatchObject({ value: 700, issuedBy: null, note: null, voidedAt: null });
    expect(listed[1]).toMatchObject({ voidedBy: { handle: "op_finance" }, voidedAt: expect.any(String) });
    await expectLedgerWhole();
  });

  it("pages 50 at a time with a cursor, and refuses a cursor it did not give", async () => {
    await env.DB.batch(
      Array.from({ length: 60 }, (_, index) =>
        env.DB.prepare("INSERT INTO code_batch (id, value, count, expires_at, issued_at) VALUES (?1, 100, 1, ?2, ?3)").bind(
          `batch_00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
          origin.now() + 86_400_000,
          origin.now() - Math.floor(index / 4) * 1000,
        ),
      ),
    );
    const first = await dataOf<{ batches: CodeBatch[]; nextCursor: string | null }>(await list(finance));
    expect(first.batches).toHaveLength(50);
    const second = await dataOf<{ batches: CodeBatch[]; nextCursor: string | null }>(
      await list(finance, `?cursor=${encodeURIComponent(first.nextCursor ?? "")}`),
    );
    expect(second.batches).toHaveLength(10);
    expect(second.nextCursor).toBeNull();
    const rows = await env.DB.prepare("SELECT id FROM code_batch ORDER BY issued_at DESC, id DESC").all<{ id: string }>();
    expect([...first.batches, ...second.batches].map((batch) => batch.id)).toEqual(rows.results.map((row) => row.id));
    const bad = await list(finance, "?cursor=AAAA");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "cursor" });
  });
});

describe("voiding a batch", () => {
  it("takes the unredeemed codes out of use, audited with their count and the reason; a retry replays, a second void is 409", async () => {
    const { batch, codes } = await issued(batchBody({ count: 3 }));
    expect((await redeem(codes[0] ?? "")).status).toBe(201);
    origin.advance(1_000);
    const answer = await voidBatch(finance, batch.id, "Printed with a typo.", "void-key-0001");
    expect(answer.status).toBe(200);
    expect(await dataOf<CodeBatch>(answer)).toMatchObject({
      id: batch.id,
      redeemed: 1,
      unredeemed: 0,
      voided: 2,
      voidedAt: new Date(origin.now()).toISOString(),
      voidedBy: { handle: "op_finance" },
    });
    const refused = await redeem(codes[1] ?? "");
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: "CODE_VOIDED", field: "code" });
    expect(await balanceOf(alice.id)).toEqual({ available: 5_000, held: 0 });

    const retry = await voidBatch(finance, batch.id, "Printed with a typo.", "void-key-0001");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const twice = await voidBatch(finance, batch.id, "Again.");
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ code: "CODE_BATCH_VOIDED" });

    const voids = (await auditRows()).filter((row) => row.action === "codes.void");
    expect(voids).toEqual([
      expect.objectContaining({
        actor_id: finance.id,
        actor_role: "finance",
        object_type: "code_batch",
        object_id: batch.id,
        before: '{"unredeemed":2}',
        after: '{"unredeemed":0,"voided":2}',
        reason: "Printed with a typo.",
      }),
    ]);
    await expectLedgerWhole();
  });

  it("refuses a batch with nothing left to void (409 CODE_BATCH_SPENT), a missing one (404), a malformed id and no reason (400)", async () => {
    const { batch, codes } = await issued(batchBody({ count: 1 }));
    expect((await redeem(codes[0] ?? "")).status).toBe(201);
    const spent = await voidBatch(finance, batch.id);
    expect(spent.status).toBe(409);
    expect(await spent.json()).toMatchObject({ code: "CODE_BATCH_SPENT" });
    const missing = await voidBatch(finance, "batch_00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "NOT_FOUND", message: "There is no such code batch." });
    const malformed = await voidBatch(finance, "not-a-batch");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ field: "id" });
    const noReason = await origin.call(`/api/ops/code-batches/${batch.id}/void`, { body: {}, headers: keyed(finance.auth) });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ field: "reason" });
    expect((await auditRows()).filter((row) => row.action === "codes.void")).toEqual([]);
  });

  it("against a redemption at the same moment: exactly one of the two wins, and the ledger stays whole", async () => {
    let voids = 0;
    let redemptions = 0;
    for (let round = 0; round < 8; round += 1) {
      // A redeemer per round: a refused code counts as a wrong try, and five lock redeeming.
      const redeemer = await seedUser(`racer_${round}`, origin.now());
      origin.advance(1_000);
      const { batch, codes } = await issued(batchBody({ count: 1, value: 300 }));
      // Every other round starts the void a timer tick later, so that both orders happen.
      const tick = () => (round % 2 === 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, 0)));
      const [voided, redeemed] = await Promise.all([tick().then(() => voidBatch(finance, batch.id)), redeem(codes[0] ?? "", redeemer)]);
      const codeOf = async (answer: Response) => ((await answer.json()) as { code: string }).code;
      const outcome = `void ${voided.status} ${await codeOf(voided)} / redeem ${redeemed.status} ${await codeOf(redeemed)}`;
      expect(["void 200 SUCCESS / redeem 422 CODE_VOIDED", "void 409 CODE_BATCH_SPENT / redeem 201 SUCCESS"]).toContain(outcome);
      if (voided.status === 200) voids += 1;
      else redemptions += 1;
      expect(await balanceOf(redeemer.id)).toEqual({ available: voided.status === 200 ? 0 : 300, held: 0 });
      const [listed] = await batches();
      expect(listed).toMatchObject({
        id: batch.id,
        count: 1,
        redeemed: voided.status === 200 ? 0 : 1,
        voided: voided.status === 200 ? 1 : 0,
      });
    }
    expect(voids + redemptions).toBe(8);
    expect((await auditRows()).filter((row) => row.action === "codes.void")).toHaveLength(voids);
    await expectLedgerWhole();
  });

  it("refuses a redemption whose code is voided between its read and its batch: the trigger rolls the credit back", async () => {
    const { batch, codes } = await issued(batchBody({ count: 1 }));
    const voidsFirst = () => voidBatch(finance, batch.id);
    const answer = await origin.call("/api/codes/redeem", {
      body: { code: codes[0] },
      headers: { ...alice.auth, "Idempotency-Key": "redeem-raced-0001" },
      db: beforeBatch(1, voidsFirst),
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ code: "CODE_VOIDED", field: "code" });
    expect(await balanceOf(alice.id)).toEqual({ available: 0, held: 0 });
    expect(await batches()).toMatchObject([{ redeemed: 0, voided: 1 }]);
    await expectLedgerWhole();
  });

  it("counts a redemption that lands between its read and its batch: it reads again and voids what is left", async () => {
    const { batch, codes } = await issued(batchBody({ count: 3 }));
    const slipsIn = () => redeem(codes[0] ?? "");
    const answer = await voidBatch(finance, batch.id, "Lost in the post.", undefined, beforeBatch(1, slipsIn));
    expect(answer.status).toBe(200);
    expect(await dataOf<CodeBatch>(answer)).toMatchObject({ redeemed: 1, voided: 2, unredeemed: 0 });
    const [row] = (await auditRows()).filter((audit) => audit.action === "codes.void");
    expect(row).toMatchObject({ before: '{"unredeemed":2}', after: '{"unredeemed":0,"voided":2}' });
    await expectLedgerWhole();
  });

  it("many redemptions and a void at once: every code is redeemed or voided, never both, as the audit row says", async () => {
    const { batch, codes } = await issued(batchBody({ count: 6, value: 100 }));
    const users = await Promise.all(codes.map((_, index) => seedUser(`user_${index}`, origin.now())));
    const [voided, ...redeemed] = await Promise.all([
      voidBatch(finance, batch.id),
      ...codes.map((code, index) => redeem(code, users[index])),
    ]);
    const credited = redeemed.filter((answer) => answer.status === 201).length;
    expect(redeemed.every((answer) => answer.status === 201 || answer.status === 422)).toBe(true);
    const [listed] = await batches();
    expect(listed).toMatchObject({ redeemed: credited, unredeemed: 0, expired: 0 });
    if (voided.status === 200) {
      expect(listed?.voided).toBe(6 - credited);
      const [row] = (await auditRows()).filter((audit) => audit.action === "codes.void");
      expect(JSON.parse(String(row?.after))).toEqual({ unredeemed: 0, voided: 6 - credited });
    } else {
      expect(credited).toBe(6);
    }
    const balances = await Promise.all(users.map((user) => balanceOf(user.id)));
    expect(balances.reduce((sum, balance) => sum + balance.available, 0)).toBe(credited * 100);
    await expectLedgerWhole();
  });
});

describe("the database's own guards on batches", () => {
  it("refuses a code outside an open batch, a redemption of a voided code, and undoing a void — whatever the code above does", async () => {
    const { batch, codes } = await issued(batchBody({ count: 2 }));
    await voidBatch(finance, batch.id);
    const hash = "a".repeat(64);
    await expect(
      env.DB.prepare("INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch) VALUES (?1, 100, ?2, ?2, ?3)")
        .bind(hash, origin.now() + 1, batch.id)
        .run(),
    ).rejects.toThrow(/issued batch that is not voided/);
    await expect(
      env.DB.prepare("INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch) VALUES (?1, 100, ?2, ?2, 'batch_nowhere')")
        .bind(hash, origin.now() + 1)
        .run(),
    ).rejects.toThrow(/issued batch that is not voided/);
    await expect(env.DB.prepare("UPDATE code_batch SET voided_at = NULL, voided_count = NULL").run()).rejects.toThrow(/stays voided/);
    await expect(env.DB.prepare("UPDATE code_batch SET count = 1").run()).rejects.toThrow(/issued once/);
    const { codeHash } = await import("../codes/code-values");
    const voidedHash = await codeHash((codes[0] ?? "").replace(/-/g, ""));
    await env.DB.prepare("INSERT INTO journal_tx (id, kind, created_at) VALUES ('tx_guard', 'code_redemption', 0)").run();
    await expect(
      env.DB.prepare("INSERT INTO code_redemption (code_hash, user_id, tx_id, at) VALUES (?1, ?2, 'tx_guard', ?3)")
        .bind(voidedHash, alice.id, origin.now())
        .run(),
    ).rejects.toThrow(/the code was voided/);
  });

  it("the migration gave every batch issued before it a row, from its codes", async () => {
    const migration = env.TEST_MIGRATIONS.find((entry) => entry.name.startsWith("0018_"));
    const backfill = migration?.queries.find((query) => query.includes("INSERT INTO code_batch"));
    const guard = migration?.queries.find((query) => query.includes("CREATE TRIGGER prepaid_code_in_open_batch"));
    expect(backfill && guard).toBeTruthy();
    // The codes as they were before migration 0018: without a batch row, so without its guard.
    await env.DB.prepare("DROP TRIGGER prepaid_code_in_open_batch").run();
    try {
      await env.DB.batch(
        [
          ["a", "batch_00000000-0000-4000-8000-00000000000a", 1_000, 10],
          ["b", "batch_00000000-0000-4000-8000-00000000000a", 1_000, 10],
          ["c", "batch_00000000-0000-4000-8000-00000000000b", 250, 20],
        ].map(([letter, batch, value, at]) =>
          env.DB.prepare("INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch) VALUES (?1, ?2, ?3, ?4, ?5)").bind(
            String(letter).repeat(64),
            value,
            origin.now() + 86_400_000,
            at,
            batch,
          ),
        ),
      );
      await env.DB.prepare(backfill ?? "").run();
    } finally {
      await env.DB.prepare(guard ?? "").run();
    }
    expect(
      (await batches()).map(({ id, value, count, note, issuedBy, issuedAt }) => ({ id, value, count, note, issuedBy, issuedAt })),
    ).toEqual([
      {
        id: "batch_00000000-0000-4000-8000-00000000000b",
        value: 250,
        count: 1,
        note: null,
        issuedBy: null,
        issuedAt: new Date(20).toISOString(),
      },
      {
        id: "batch_00000000-0000-4000-8000-00000000000a",
        value: 1_000,
        count: 2,
        note: null,
        issuedBy: null,
        issuedAt: new Date(10).toISOString(),
      },
    ]);
    expect(await ledgerViolations(env.DB)).toEqual([]);
  });
});
