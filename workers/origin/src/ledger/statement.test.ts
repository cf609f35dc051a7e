import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type WalletEntry, type WalletEntryPage, type WalletMonths, walletExportColumns } from "#contract/wallet";
import {
  balanceOf,
  countingRoundTrips,
  expectLedgerWhole,
  fundWallet,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { journalStatements, walletAccountOf, worldAccount } from "./journal";
import { statementSql } from "./wallet-entries";
import { exportPageLines } from "./wallet-export";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;
const hour = 60 * 60 * 1000;

const get = (path: string, auth: Record<string, string>, db?: D1Database) =>
  origin.call(path, { method: "GET", headers: auth, ...(db ? { db } : {}) });

async function page(auth: Record<string, string>, query = ""): Promise<WalletEntryPage> {
  const response = await get(`/api/wallet/entries${query}`, auth);
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: WalletEntryPage }).data;
}

async function allLines(auth: Record<string, string>, query: string, limit = 2): Promise<WalletEntry[]> {
  const seen: WalletEntry[] = [];
  let cursor: string | null = null;
  do {
    const next: WalletEntryPage = await page(auth, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    seen.push(...next.entries);
    cursor = next.nextCursor;
  } while (cursor);
  return seen;
}

const transfer = async (from: { auth: Record<string, string> }, toHandle: string, amount: number, note = "") => {
  const response = await origin.call("/api/transfers", {
    body: { toHandle, amount, note },
    headers: { ...from.auth, "Idempotency-Key": `t-${crypto.randomUUID()}` },
  });
  expect(response.status).toBe(201);
};

async function errorOf(response: Response): Promise<{ status: number; code: string; field?: string }> {
  const body = (await response.json()) as { code: string; field?: string };
  return { status: response.status, code: body.code, ...(body.field ? { field: body.field } : {}) };
}

/** `count` recharges of 1 fen, 2 fen … straight into the ledger (what a settled recharge writes), `gap` ms apart. */
async function manyRecharges(user: { id: string }, count: number, gap = 1_000): Promise<void> {
  const statements: D1PreparedStatement[] = [];
  for (let i = 1; i <= count; i += 1) {
    origin.advance(gap);
    statements.push(
      ...journalStatements(env.DB, {
        id: `tx_many_${i}_${crypto.randomUUID()}`,
        kind: "recharge",
        at: origin.now(),
        postings: [
          { account: worldAccount, amount: -i },
          { account: walletAccountOf(user.id), amount: i },
        ],
      }),
    );
  }
  for (let start = 0; start < statements.length; start += 300) await env.DB.batch(statements.slice(start, start + 300));
}

/** The lines of some moments straight from the ledger: one per transaction, oldest first, its available change. */
async function ledgerLines(user: { id: string }, from: number, to: number): Promise<{ tx_id: string; amount: number }[]> {
  const { results } = await env.DB.prepare(
    `SELECT entry.tx_id, sum(CASE WHEN entry.bucket = 'available' THEN entry.amount ELSE 0 END) AS amount
     FROM entry JOIN journal_tx ON journal_tx.id = entry.tx_id
     WHERE entry.account_id = ?1 AND journal_tx.created_at >= ?2 AND journal_tx.created_at < ?3
     GROUP BY entry.tx_id ORDER BY min(entry.id)`,
  )
    .bind(walletAccountOf(user.id), from, to)
    .all<{ tx_id: string; amount: number }>();
  return results;
}

/** The available balance after every entry up to a moment, straight from the ledger. */
async function ledgerBalanceBefore(user: { id: string }, moment: number): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT coalesce(sum(entry.amount), 0) AS total FROM entry JOIN journal_tx ON journal_tx.id = entry.tx_id
     WHERE entry.account_id = ?1 AND entry.bucket = 'available' AND journal_tx.created_at < ?2`,
  )
    .bind(walletAccountOf(user.id), moment)
    .first<{ total: number }>();
  return row?.total ?? NaN;
}

/** A CSV body's records (no quoted cells in these tests), its byte order mark checked and removed. */
async function csvOf(response: Response): Promise<string[][]> {
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await response.arrayBuffer());
  expect(text.startsWith("\uFEFF")).toBe(true);
  expect(text.endsWith("\r\n")).toBe(true);
  return text
    .slice(1, -2)
    .split("\r\n")
    .map((line) => line.split(","));
}

beforeEach(async () => {
  await resetDatabase();
  // 2026-11-01 08:00 in China.
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

describe("the statement's running balance", () => {
  it("gives each line the available balance right after it, page after page", async () => {
    await fundWallet(origin, alice, 10_000);
    for (const [amount, to] of [
      [1_200, "bob"],
      [300, "bob"],
      [4_000, "bob"],
    ] as const) {
      origin.advance(1_000);
      await transfer(alice, to, amount);
    }
    origin.advance(1_000);
    await transfer(bob, "alice", 700);

    const lines = await allLines(alice.auth, "");
    expect(lines.map((line) => [line.kind, line.amount, line.balanceAfter])).toEqual([
      ["transfer_in", 700, 5_200],
      ["transfer_out", -4_000, 4_500],
      ["transfer_out", -300, 8_500],
      ["transfer_out", -1_200, 8_800],
      ["code_redeem", 10_000, 10_000],
    ]);
    expect(lines[0]?.balanceAfter).toBe((await balanceOf(alice.id)).available);
    await expectLedgerWhole();
  });

  it("keeps the wallet's balance on a filtered line, not a sum of the filtered lines", async () => {
    await fundWallet(origin, alice, 10_000);
    origin.advance(1_000);
    await transfer(alice, "bob", 1_000);
    origin.advance(1_000);
    await transfer(bob, "alice", 50);
    origin.advance(1_000);
    await transfer(alice, "bob", 2_000);

    const out = await allLines(alice.auth, "&direction=out", 1);
    expect(out.map((line) => [line.amount, line.balanceAfter])).toEqual([
      [-2_000, 7_050],
      [-1_000, 9_000],
    ]);
    const incoming = await allLines(alice.auth, "&direction=in", 1);
    expect(incoming.map((line) => [line.kind, line.amount, line.balanceAfter])).toEqual([
      ["transfer_in", 50, 9_050],
      ["code_redeem", 10_000, 10_000],
    ]);
  });
});

describe("the statement's filters", () => {
  it("lists one kind only, across pages, with a receipt for each transfer", async () => {
    await fundWallet(origin, alice, 10_000);
    for (let i = 1; i <= 5; i += 1) {
      origin.advance(1_000);
      await transfer(alice, "bob", i * 100, `n${i}`);
      origin.advance(1_000);
      await transfer(bob, "alice", i);
    }
    const sent = await allLines(alice.auth, "&kind=transfer_out", 2);
    expect(sent.map((line) => line.note)).toEqual(["n5", "n4", "n3", "n2", "n1"]);
    expect(sent.every((line) => line.kind === "transfer_out" && line.receipt?.kind === "transfer")).toBe(true);
    const transfers = await env.DB.prepare("SELECT id FROM transfer WHERE from_user = ?1 ORDER BY created_at DESC")
      .bind(alice.id)
      .all<{ id: string }>();
    expect(sent.map((line) => line.receipt?.id)).toEqual(transfers.results.map((row) => row.id));
    expect((await allLines(alice.auth, "&kind=code_redeem")).map((line) => [line.amount, line.receipt])).toEqual([[10_000, null]]);
    expect(await allLines(alice.auth, "&kind=refund")).toEqual([]);
  });

  it("takes days in China Standard Time, both ends included", async () => {
    // The test clock starts at 2026-11-01T00:00:00Z, 08:00 on 1 November in China.
    await fundWallet(origin, alice, 10_000);
    origin.advance(16 * hour - 1_000); // 23:59:59 on 1 November in China
    await transfer(alice, "bob", 1);
    origin.advance(1_000); // midnight: 2 November in China
    await transfer(alice, "bob", 2);
    origin.advance(24 * hour); // 3 November
    await transfer(alice, "bob", 3);

    const amounts = async (query: string) => (await allLines(alice.auth, query, 10)).map((line) => line.amount);
    expect(await amounts("&from=2026-11-01&to=2026-11-01")).toEqual([-1, 10_000]);
    expect(await amounts("&from=2026-11-02&to=2026-11-02")).toEqual([-2]);
    expect(await amounts("&from=2026-11-02")).toEqual([-3, -2]);
    expect(await amounts("&to=2026-11-02")).toEqual([-2, -1, 10_000]);
    expect(await amounts("&from=2026-11-02&to=2026-11-03&kind=transfer_out&direction=out")).toEqual([-3, -2]);
    expect(await amounts("&from=2026-11-04")).toEqual([]);
  });

  it.each([
    ["?from=2026-11-31", "from"],
    ["?from=yesterday", "from"],
    ["?to=2026-1-02", "to"],
    ["?from=2026-11-02&to=2026-11-01", "to"],
    ["?kind=gift", "kind"],
    ["?direction=sideways", "direction"],
  ])("refuses %s with 400 naming %s", async (query, field) => {
    expect(await errorOf(await get(`/api/wallet/entries${query}`, alice.auth))).toEqual({ status: 400, code: "BAD_REQUEST", field });
  });

  it.each(["newestFirst", "oldestFirst"] as const)(
    "%s: walks the wallet's entries in index order without sorting, every table by an index",
    async (order) => {
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statementSql[order]}`)
        .bind("acc_x", 100, 0, 1e15, "refund", "in", 21, 1e15, "usr_x")
        .all<{ detail: string }>();
      const steps = plan.results.map((row) => row.detail);
      expect(steps).toContainEqual(
        expect.stringMatching(/^SEARCH lead USING INDEX entry_account \(account_id=\? AND rowid[<>]\?( AND rowid<\?)?\)$/),
      );
      // A line's own entries by its transaction, never by a walk of the wallet (that made a filtered page quadratic).
      expect(steps.filter((step) => / (mine|earlier) /.test(step)).every((step) => step.includes("USING INDEX entry_tx"))).toBe(true);
      expect(steps).toContain("SEARCH entry USING COVERING INDEX entry_account_statement (account_id=? AND bucket=? AND id>?)");
      expect(steps).toContain("SEARCH later USING COVERING INDEX entry_account_statement (account_id=? AND bucket=? AND id>? AND id<?)");
      // The only scans are of the page's own few materialized rows.
      expect(steps.filter((step) => step.startsWith("SCAN ")).every((step) => /^SCAN (page|span|newer)$/.test(step))).toBe(true);
      expect(steps.some((step) => step.includes("TEMP B-TREE"))).toBe(false);
    },
  );
});

describe("the statement's CSV", () => {
  const exportOf = (query: string, auth = alice.auth, db?: D1Database) => get(`/api/wallet/export${query}`, auth, db);

  it("has one line per ledger transaction of the range, adding up to the balance's change over it", async () => {
    await fundWallet(origin, alice, 10_000);
    origin.advance(hour);
    await transfer(alice, "bob", 1_234, 'Dinner, with "friends"');
    origin.advance(hour);
    await transfer(bob, "alice", 5, "=cmd");
    // The next day in China, outside a one-day range.
    origin.advance(20 * hour);
    await transfer(alice, "bob", 99);

    const response = await exportOf("?from=2026-11-01&to=2026-11-01");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="paydesk-statement-2026-11-01-2026-11-01.csv"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text.split("\r\n")).toEqual([
      `\uFEFF${walletExportColumns.join(",")}`,
      expect.stringMatching(/^2026-11-01T08:00:00\+08:00,code_redeem,,,,,100\.00,10000,0,100\.00,10000,tx_[0-9a-f-]+$/),
      expect.stringMatching(
        /^2026-11-01T09:00:00\+08:00,transfer_out,bob,Name of bob,"Dinner, with ""friends""",,-12\.34,-1234,0,87\.66,8766,tx_/,
      ),
      expect.stringMatching(/^2026-11-01T10:00:00\+08:00,transfer_in,bob,Name of bob,'=cmd,,0\.05,5,0,87\.71,8771,tx_/),
      "",
    ]);

    const range = { from: Date.parse("2026-11-01T00:00:00+08:00"), to: Date.parse("2026-11-02T00:00:00+08:00") };
    const ledger = await ledgerLines(alice, range.from, range.to);
    const records = text.slice(1, -2).split("\r\n").slice(1);
    expect(records.map((record) => record.split(",").at(-1))).toEqual(ledger.map((line) => line.tx_id));
    await expectLedgerWhole();
  });

  it("streams a range of more lines than one page, page by page, equal to the ledger's and summing to the change", async () => {
    const count = 2 * exportPageLines + 17;
    await manyRecharges(alice, count, 60_000);
    origin.advance(60_000);
    await transfer(alice, "bob", 1_000);
    // The trips of an export whose first page is its only one: the session, the door's count, the last entry, the page.
    const empty = countingRoundTrips(env.DB);
    await csvOf(await exportOf("?from=2025-01-01&to=2025-01-31", alice.auth, empty.db));
    const counting = countingRoundTrips(env.DB);
    const response = await exportOf("?from=2026-10-01&to=2026-11-30", alice.auth, counting.db);
    expect(response.status).toBe(200);
    const [header, ...rows] = await csvOf(response);
    expect(header).toEqual([...walletExportColumns]);
    expect(rows).toHaveLength(count + 1);
    // One query per page of lines, read as the body was.
    expect(counting.trips() - empty.trips()).toBe(Math.ceil(rows.length / exportPageLines) - 1);

    const column = (name: (typeof walletExportColumns)[number]) => walletExportColumns.indexOf(name);
    const ledger = await ledgerLines(alice, 0, Number.MAX_SAFE_INTEGER);
    expect(rows.map((row) => [row[column("transaction_id")], Number(row[column("amount_fen")])])).toEqual(
      ledger.map((line) => [line.tx_id, line.amount]),
    );
    for (const row of rows) expect(row[column("amount_yuan")]).toBe((Number(row[column("amount_fen")]) / 100).toFixed(2));
    const sum = rows.reduce((total, row) => total + Number(row[column("amount_fen")]), 0);
    const last = rows.at(-1) ?? [];
    expect(sum).toBe(Number(last[column("balance_after_fen")]));
    expect(Number(last[column("balance_after_fen")])).toBe((await balanceOf(alice.id)).available);
    // Each line's balance is the one before it plus its amount.
    rows.slice(1).forEach((row, index) => {
      const before = Number(rows[index]?.[column("balance_after_fen")]);
      expect(Number(row[column("balance_after_fen")])).toBe(before + Number(row[column("amount_fen")]));
    });
  });

  it("starts from the balance the wallet had when the range began", async () => {
    await fundWallet(origin, alice, 10_000);
    origin.advance(24 * hour);
    await transfer(alice, "bob", 2_500);
    origin.advance(hour);
    await transfer(bob, "alice", 100);
    const [, ...rows] = await csvOf(await exportOf("?from=2026-11-02&to=2026-11-02"));
    const day = { from: Date.parse("2026-11-02T00:00:00+08:00"), to: Date.parse("2026-11-03T00:00:00+08:00") };
    const opening = await ledgerBalanceBefore(alice, day.from);
    const closing = await ledgerBalanceBefore(alice, day.to);
    expect(opening).toBe(10_000);
    const amounts = rows.map((row) => Number(row[7]));
    expect(amounts).toEqual((await ledgerLines(alice, day.from, day.to)).map((line) => line.amount));
    expect(amounts.reduce((total, amount) => total + amount, 0)).toBe(closing - opening);
    expect(rows.map((row) => Number(row[10]))).toEqual([7_500, 7_600]);
  });

  it("answers an empty range with the header alone", async () => {
    await fundWallet(origin, alice, 10_000);
    const [header, ...rows] = await csvOf(await exportOf("?from=2025-01-01&to=2025-12-31"));
    expect(header).toEqual([...walletExportColumns]);
    expect(rows).toEqual([]);
  });

  it("holds only the signed-in person's own lines", async () => {
    await fundWallet(origin, alice, 10_000);
    await fundWallet(origin, bob, 300);
    const [, ...rows] = await csvOf(await exportOf("?from=2026-11-01&to=2026-11-01", bob.auth));
    expect(rows.map((row) => row[7])).toEqual(["300"]);
    expect((await get("/api/wallet/export?from=2026-11-01&to=2026-11-01", {})).status).toBe(401);
  });

  it("covers at most 366 days, both ends included", async () => {
    expect((await exportOf("?from=2025-11-01&to=2026-11-01")).status).toBe(200);
    expect(await errorOf(await exportOf("?from=2025-10-31&to=2026-11-01"))).toEqual({ status: 400, code: "BAD_REQUEST", field: "to" });
  });

  it.each([
    ["", "from"],
    ["?from=2026-11-01", "to"],
    ["?to=2026-11-01", "from"],
    ["?from=2026-02-30&to=2026-03-01", "from"],
    ["?from=2026-11-01&to=20261102", "to"],
    ["?from=2026-11-01T00:00:00Z&to=2026-11-02", "from"],
    ["?from=2026-11-02&to=2026-11-01", "to"],
    ["?from=2026-11-01&to=2026-11-02&extra=1", "extra"],
  ])("refuses %j with 400 naming %s", async (query, field) => {
    expect(await errorOf(await exportOf(query))).toEqual({ status: 400, code: "BAD_REQUEST", field });
  });
});

describe("the monthly totals", () => {
  it("sums money in and out of the available balance per China month, twelve months ending with this one", async () => {
    // 2026-10-31T20:00Z is 1 November in China.
    origin = testOrigin(Date.parse("2026-10-31T20:00:00Z"));
    await fundWallet(origin, alice, 10_000);
    origin.advance(hour);
    await transfer(alice, "bob", 2_000);
    await transfer(bob, "alice", 1_000);
    const response = await get("/api/wallet/months", alice.auth);
    expect(response.status).toBe(200);
    const { months } = ((await response.json()) as { data: WalletMonths }).data;
    expect(months.map((month) => month.month)).toEqual([
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    expect(months.at(-1)).toEqual({ month: "2026-11", in: 11_000, out: 2_000 });
    expect(months.slice(0, -1).every((month) => month.in === 0 && month.out === 0)).toBe(true);
  });
});
