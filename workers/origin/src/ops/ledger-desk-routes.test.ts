import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { JournalTx } from "#contract/ops-ledger";
import {
  countingRoundTrips,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedOperator,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { journalStatements, walletAccountOf, worldAccount } from "../ledger/journal";
import { entryBoundsSql, entryPageSql, transactionEntriesSql, transactionSql } from "./ledger-desk-routes";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let finance: Person;

const get = (path: string, who: Person = finance, db?: D1Database) => origin.call(path, { method: "GET", headers: who.auth, db });
const start = Date.parse("2026-11-01T00:00:00Z");
const hour = 3_600_000;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin(start);
  finance = await seedOperator("op_finance", "finance", origin.now());
});

async function transactionPage(id: string): Promise<JournalTx> {
  const answer = await get(`/api/ops/ledger/transactions/${encodeURIComponent(id)}`);
  const body = (await answer.json()) as { data: JournalTx };
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

/** The newest journal transaction's id. */
const newestTx = async () =>
  (await env.DB.prepare("SELECT id FROM journal_tx ORDER BY created_at DESC, rowid DESC LIMIT 1").first<{ id: string }>())?.id ?? "";

describe("who may use the ledger desk", () => {
  it("is finance's and admins': 404 to anyone else without a role, 403 to support", async () => {
    const plain = await seedUser("plain", origin.now());
    const support = await seedOperator("op_support", "support", origin.now());
    const admin = await seedOperator("op_admin", "admin", origin.now());
    await fundWallet(origin, plain, 100);
    const tx = await newestTx();
    const paths = [
      "/api/ops/ledger/check",
      `/api/ops/ledger/transactions/${tx}`,
      "/api/ops/ledger/entries.csv?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z",
    ];
    for (const path of paths) {
      expect((await origin.call(path, { method: "GET" })).status, path).toBe(404);
      expect((await get(path, plain)).status, path).toBe(404);
      const refused = await get(path, support);
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toMatchObject({ code: "FORBIDDEN" });
      expect((await get(path, finance)).status, path).toBe(200);
      expect((await get(path, admin)).status, path).toBe(200);
    }
    // The door comes before the query: a bad one tells no one without the right that the desk is there.
    for (const path of ["/api/ops/ledger/entries.csv?from=nope", "/api/ops/ledger/transactions/%E2%80%AE"]) {
      expect((await get(path, plain)).status, path).toBe(404);
      expect((await get(path, support)).status, path).toBe(403);
      expect((await get(path, finance)).status, path).toBe(400);
    }
  });
});

describe("the ledger's check", () => {
  it("finds nothing on a whole ledger, and names what a balance changed behind the ledger's back breaks", async () => {
    const alice = await seedUser("alice", origin.now());
    await fundWallet(origin, alice, 5_000);
    const whole = await get("/api/ops/ledger/check");
    expect(whole.status).toBe(200);
    expect(await whole.json()).toEqual({ code: "SUCCESS", data: { violations: [], checkedAt: "2026-11-01T00:00:00.000Z" } });

    await env.DB.prepare("UPDATE account SET available = available + 1 WHERE id = ?1").bind(walletAccountOf(alice.id)).run();
    try {
      const broken = (await (await get("/api/ops/ledger/check")).json()) as {
        data: { violations: { invariant: string; detail: unknown }[] };
      };
      expect(broken.data.violations.map((violation) => violation.invariant)).toEqual([
        "money is conserved: all accounts sum to zero (the world account holds minus what came in)",
        "each account's buckets equal the sum of its entries",
      ]);
      expect(broken.data.violations[1]?.detail).toMatchObject({
        id: walletAccountOf(alice.id),
        available: 5_001,
        entries_available: 5_000,
      });
    } finally {
      await env.DB.prepare("UPDATE account SET available = available - 1 WHERE id = ?1").bind(walletAccountOf(alice.id)).run();
    }
    await expectLedgerWhole();
  });
});

describe("a journal transaction's page", () => {
  it("shows a code redemption: its entries balance, the wallet's owner is named, the code's batch known", async () => {
    const alice = await seedUser("alice", origin.now());
    await fundWallet(origin, alice, 2_000);
    const id = await newestTx();
    const batch = await env.DB.prepare("SELECT batch FROM prepaid_code").first<{ batch: string }>();
    const tx = await transactionPage(id);
    expect(tx).toEqual({
      id,
      kind: "code_redemption",
      createdAt: "2026-11-01T00:00:00.000Z",
      sealed: true,
      entries: [
        { id: expect.any(Number), accountId: worldAccount, accountKind: "world", owner: null, bucket: "available", amount: -2_000 },
        {
          id: expect.any(Number),
          accountId: walletAccountOf(alice.id),
          accountKind: "user",
          owner: { id: alice.id, handle: "alice", displayName: "Name of alice" },
          bucket: "available",
          amount: 2_000,
        },
      ].sort((a, b) => a.amount - b.amount),
      belongsTo: {
        transferId: null,
        orderId: null,
        paymentId: null,
        refundRequestId: null,
        wechatRefundNo: null,
        claimId: null,
        taskId: null,
        codeBatchId: batch?.batch,
      },
    });
  });

  it("shows a transfer between two people, each named, and the transfer it belongs to", async () => {
    const alice = await seedUser("alice", origin.now());
    const bob = await seedUser("bob", origin.now());
    await fundWallet(origin, alice, 3_000);
    origin.advance(60_000);
    const sent = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 1_250, note: "Lunch" },
      headers: { ...alice.auth, "Idempotency-Key": `tr-${crypto.randomUUID()}` },
    });
    expect(sent.status).toBe(201);
    const transfer = await env.DB.prepare("SELECT id, tx_id FROM transfer").first<{ id: string; tx_id: string }>();
    const tx = await transactionPage(transfer?.tx_id ?? "");
    expect(tx.kind).toBe("transfer");
    expect(tx.createdAt).toBe("2026-11-01T00:01:00.000Z");
    expect(tx.sealed).toBe(true);
    expect(tx.entries.reduce((sum, entry) => sum + entry.amount, 0)).toBe(0);
    expect(tx.entries.map((entry) => [entry.owner?.handle, entry.amount])).toEqual([
      ["alice", -1_250],
      ["bob", 1_250],
    ]);
    expect(tx.entries.find((entry) => entry.amount > 0)?.owner?.id).toBe(bob.id);
    expect(tx.belongsTo).toMatchObject({ transferId: transfer?.id, codeBatchId: null, orderId: null });
  });

  it("is 404 naming id for an unknown transaction, and 400 for what is not an id", async () => {
    const unknown = await get("/api/ops/ledger/transactions/tx_seed_nothing_here");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND", field: "id" });
    const bad = await get(`/api/ops/ledger/transactions/${encodeURIComponent("tx'; DROP")}`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "BAD_REQUEST", field: "id" });
  });
});

/** RFC 4180, strictly enough for these files: no cell here holds a quote, a comma or a line break. */
async function csvRecords(response: Response): Promise<string[][]> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.slice(3));
  expect(text.endsWith("\r\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\r\n")
    .map((line) => line.split(","));
}

const header = ["entry_id", "tx_id", "tx_kind", "created_at", "account_id", "owner_handle", "bucket", "amount_fen"];

/** `count` recharges of `amount` into a wallet, written directly, at `at(n)`. */
async function seedRecharges(userId: string, count: number, at: (n: number) => number, amount = 100): Promise<void> {
  const statements = Array.from({ length: count }, (_, n) =>
    journalStatements(env.DB, {
      id: `tx_seed_${userId}_${n}_${at(n)}`,
      kind: "recharge",
      at: at(n),
      postings: [
        { account: worldAccount, amount: -amount },
        { account: walletAccountOf(userId), amount },
      ],
    }),
  ).flat();
  for (let first = 0; first < statements.length; first += 400) await env.DB.batch(statements.slice(first, first + 400));
}

/** What the file should hold, read from D1 directly. */
async function entriesIn(from: number, to: number): Promise<string[][]> {
  const { results } = await env.DB.prepare(
    `SELECT entry.id, entry.tx_id, journal_tx.kind, journal_tx.created_at, entry.account_id, user.handle, entry.bucket, entry.amount
     FROM entry JOIN journal_tx ON journal_tx.id = entry.tx_id JOIN account ON account.id = entry.account_id
     LEFT JOIN user ON user.id = account.owner_id AND account.kind = 'user'
     WHERE journal_tx.created_at >= ?1 AND journal_tx.created_at < ?2 ORDER BY entry.id`,
  )
    .bind(from, to)
    .all<{
      id: number;
      tx_id: string;
      kind: string;
      created_at: number;
      account_id: string;
      handle: string | null;
      bucket: string;
      amount: number;
    }>();
  return results.map((row) => [
    String(row.id),
    row.tx_id,
    row.kind,
    new Date(row.created_at).toISOString(),
    row.account_id,
    row.handle ?? "",
    row.bucket,
    String(row.amount),
  ]);
}

const csvPath = (from: number | string, to: number | string) =>
  `/api/ops/ledger/entries.csv?${new URLSearchParams({
    from: typeof from === "number" ? new Date(from).toISOString() : from,
    to: typeof to === "number" ? new Date(to).toISOString() : to,
  })}`;

describe("the ledger's entries as CSV", () => {
  it("is audited, each time: who took which range, with the request's id", async () => {
    const admin = await seedOperator("op_admin", "admin", origin.now());
    const path = csvPath(start, start + hour);
    expect((await origin.call(path, { method: "GET", headers: { ...finance.auth, "X-Request-Id": "req-export-1" } })).status).toBe(200);
    expect((await get(path, admin)).status).toBe(200);
    const rows = (
      await env.DB.prepare(
        "SELECT actor_id, actor_role, action, object_type, object_id, after, request_id FROM audit_log ORDER BY id",
      ).all()
    ).results;
    const range = `${new Date(start).toISOString()}/${new Date(start + hour).toISOString()}`;
    expect(rows).toEqual([
      expect.objectContaining({
        actor_id: finance.id,
        actor_role: "finance",
        action: "ledger.export",
        object_type: "ledger",
        object_id: range,
        request_id: "req-export-1",
      }),
      expect.objectContaining({ actor_id: admin.id, actor_role: "admin", action: "ledger.export", object_id: range }),
    ]);
    expect(JSON.parse(String(rows[0]?.after))).toMatchObject({
      from: new Date(start).toISOString(),
      to: new Date(start + hour).toISOString(),
    });
  });

  it("holds every entry of the range's transactions and none outside, in entry order, summing to zero", async () => {
    const alice = await seedUser("alice", origin.now());
    const bob = await seedUser("bob", origin.now());
    // Before the range, in it (two by the API, one seeded at its very start), and at its end (excluded).
    await seedRecharges(alice.id, 1, () => start - 1);
    origin.advance(hour);
    await fundWallet(origin, alice, 4_000);
    origin.advance(hour);
    const sent = await origin.call("/api/transfers", {
      body: { toHandle: "bob", amount: 1_500, note: "=cmd" },
      headers: { ...alice.auth, "Idempotency-Key": `tr-${crypto.randomUUID()}` },
    });
    expect(sent.status).toBe(201);
    await seedRecharges(bob.id, 1, () => start);
    await seedRecharges(bob.id, 1, () => start + 3 * hour);

    const answer = await get(csvPath(start, start + 3 * hour));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toBe('attachment; filename="paydesk-entries-20261101T000000Z-20261101T030000Z.csv"');
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const [head, ...lines] = await csvRecords(answer);
    expect(head).toEqual(header);
    expect(lines).toHaveLength(6);
    expect(lines).toEqual(await entriesIn(start, start + 3 * hour));
    expect(lines.map((line) => line[2])).toEqual(["code_redemption", "code_redemption", "transfer", "transfer", "recharge", "recharge"]);
    expect(lines.reduce((sum, line) => sum + Number(line[7]), 0)).toBe(0);
    expect(lines.filter((line) => line[5] === "alice")).toHaveLength(2);
    expect(lines.find((line) => line[2] === "transfer" && line[5] === "bob")?.[7]).toBe("1500");
    // The range's edges: `from` is in it, `to` is not.
    const txs = new Set(lines.map((line) => line[1]));
    expect(txs.has(`tx_seed_${bob.id}_0_${start}`)).toBe(true);
    expect(txs.has(`tx_seed_${bob.id}_0_${start + 3 * hour}`)).toBe(false);
    expect(txs.has(`tx_seed_${alice.id}_0_${start - 1}`)).toBe(false);

    // A range with nothing in it is a file with its header alone.
    expect(await csvRecords(await get(csvPath(start + 10 * hour, start + 11 * hour)))).toEqual([header]);
    // Times with a zone name the same moments.
    expect(await csvRecords(await get(csvPath("2026-11-01T08:00:00+08:00", "2026-11-01T11:00:00+08:00")))).toEqual([header, ...lines]);
  });

  it("streams a range larger than a page (500 entries a query) as it is read, every entry exactly once", async () => {
    const alice = await seedUser("alice", origin.now());
    await seedRecharges(alice.id, 5, (n) => start - hour + n);
    await seedRecharges(alice.id, 330, (n) => start + n * 1_000);
    await seedRecharges(alice.id, 5, (n) => start + 2 * hour + n);
    const counter = countingRoundTrips();
    const answer = await get(csvPath(start, start + hour), finance, counter.db);
    const beforeReading = counter.trips();
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    // The header, then the first page (read before the answer began).
    for (let n = 0; n < 2; n += 1) chunks.push(((await reader.read()).value as Uint8Array) ?? new Uint8Array());
    expect(counter.trips()).toBe(beforeReading);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    // Then one more page: 500 + 160.
    expect(counter.trips()).toBe(beforeReading + 1);
    const [head, ...lines] = await csvRecords(new Response(new Blob(chunks)));
    expect(head).toEqual(header);
    expect(lines).toHaveLength(660);
    expect(lines).toEqual(await entriesIn(start, start + hour));
    expect(new Set(lines.map((line) => line[0])).size).toBe(660);
    expect(lines.reduce((sum, line) => sum + Number(line[7]), 0)).toBe(0);
    await expectLedgerWhole();
  });

  it.each([
    ["from missing", "/api/ops/ledger/entries.csv?to=2026-11-02T00:00:00Z", "from"],
    ["to missing", "/api/ops/ledger/entries.csv?from=2026-11-01T00:00:00Z", "to"],
    ["from not a moment", csvPath("yesterday", "2026-11-02T00:00:00Z"), "from"],
    ["to without a zone", csvPath("2026-11-01T00:00:00Z", "2026-11-02T00:00:00"), "to"],
    ["to equal to from", csvPath(start, start), "to"],
    ["to before from", csvPath(start, start - 1), "to"],
    ["more than 366 days", csvPath(start, start + 366 * 24 * hour + 1), "to"],
    ["an unknown field", `${csvPath(start, start + hour)}&actor=alice`, "actor"],
  ])("is 400 naming the field for %s", async (_, path, field) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });

  it("takes a range of exactly 366 days", async () => {
    expect((await get(csvPath(start, start + 366 * 24 * hour))).status).toBe(200);
  });
});

describe("the ledger desk's query plans", () => {
  async function planOf(sql: string, ...values: unknown[]): Promise<string[]> {
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...values)
      .all<{ detail: string }>();
    return results.map((step) => step.detail);
  }

  it("finds a range's entries by journal_tx_created_at and entry_tx, then walks entry's primary key without a sort", async () => {
    expect(await planOf(entryBoundsSql, start, start + hour)).toEqual([
      "SEARCH journal_tx USING INDEX journal_tx_created_at (created_at>? AND created_at<?)",
      "SEARCH entry USING COVERING INDEX entry_tx (tx_id=?)",
    ]);
    const page = await planOf(entryPageSql, start, start + hour, 0, 1_000, 500);
    expect(page[0]).toBe("SEARCH entry USING INTEGER PRIMARY KEY (rowid>? AND rowid<?)");
    expect(page.join("\n")).not.toMatch(/TEMP B-TREE|SCAN/);
  });

  it("reads a transaction through indexes only", async () => {
    const plan = [...(await planOf(transactionSql, "tx_1")), ...(await planOf(transactionEntriesSql, "tx_1"))].join("\n");
    expect(plan).not.toMatch(/\bSCAN\b|TEMP B-TREE/);
    expect(plan).toContain("payment USING INDEX payment_tx (tx_id=?)");
  });
});
