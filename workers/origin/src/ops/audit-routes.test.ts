import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuditRow } from "#contract/ops-audit";
import {
  countingRoundTrips,
  issueCodes,
  resetDatabase,
  seedOperator,
  type seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";
import { auditStatement } from "./audit";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let admin: Person;
let finance: Person;

const get = (path: string, who: Person = finance, db?: D1Database) => origin.call(path, { method: "GET", headers: who.auth, db });

async function trail(query: Record<string, string> = {}): Promise<{ rows: AuditRow[]; nextCursor: string | null }> {
  const answer = await get(`/api/ops/audit?${new URLSearchParams(query)}`);
  const body = (await answer.json()) as { data: { rows: AuditRow[]; nextCursor: string | null } };
  expect(answer.status, JSON.stringify(body)).toBe(200);
  return body.data;
}

const grant = (handle: string, role: string, reason: string) =>
  origin.call("/api/ops/operators", {
    body: { handle, role, reason },
    headers: { ...admin.auth, "Idempotency-Key": `grant-${crypto.randomUUID()}`, "X-Request-Id": "req-audit-1" },
  });

/** `count` audit rows written directly, one batch; reasons from `reasonOf`. */
async function seedTrail(count: number, reasonOf: (n: number) => string | undefined = () => undefined): Promise<void> {
  const statements = Array.from({ length: count }, (_, n) =>
    auditStatement(env.DB, {
      actor: n % 3 === 0 ? { kind: "operator", userId: admin.id, role: "admin" } : { kind: "automation" },
      action: n % 3 === 0 ? "test.operator_action" : "test.automation",
      object: { type: "thing", id: `thing_${n}` },
      before: { n },
      after: { n: n + 1, note: "a, b" },
      reason: reasonOf(n),
      at: origin.now() + n * 1_000,
    }),
  );
  for (let start = 0; start < statements.length; start += 200) await env.DB.batch(statements.slice(start, start + 200));
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  admin = await seedOperator("op_admin", "admin", origin.now());
  finance = await seedOperator("op_finance", "finance", origin.now());
});

describe("reading the audit trail", () => {
  it("shows each row newest first with its actor's handle, and filters by actor, action, object and time", async () => {
    // Lowering a role is one admin's act; a raise waits for a second admin (decision 063).
    const newcomer = await seedOperator("newcomer", "admin", origin.now());
    origin.advance(1_000);
    expect((await grant("newcomer", "finance", "Steps down to finance.")).status).toBe(200);
    origin.advance(1_000);
    await issueCodes(origin, 500, 2);
    origin.advance(1_000);
    expect((await grant("newcomer", "support", "Moves to support.")).status).toBe(200);

    const all = await trail();
    expect(all.rows.map((row) => [row.action, row.actorKind, row.actorHandle])).toEqual([
      ["operator.grant", "operator", "op_admin"],
      ["codes.issue", "automation", null],
      ["operator.grant", "operator", "op_admin"],
    ]);
    expect(all.rows[0]).toEqual({
      id: expect.any(Number),
      at: new Date(origin.now()).toISOString(),
      actorKind: "operator",
      actorHandle: "op_admin",
      actorRole: "admin",
      action: "operator.grant",
      objectType: "user",
      objectId: newcomer.id,
      before: '{"role":"finance"}',
      after: '{"role":"support"}',
      reason: "Moves to support.",
      requestId: "req-audit-1",
    });
    const actions = async (query: Record<string, string>) => (await trail(query)).rows.map((row) => row.reason ?? row.action);
    expect(await actions({ actor: "op_admin" })).toEqual(["Moves to support.", "Steps down to finance."]);
    expect(await actions({ actor: "op_finance" })).toEqual([]);
    expect(await actions({ action: "codes.issue" })).toEqual(["codes.issue"]);
    expect(await actions({ objectType: "user", objectId: newcomer.id })).toEqual(["Moves to support.", "Steps down to finance."]);
    expect(await actions({ objectType: "code_batch" })).toEqual(["codes.issue"]);
    expect(await actions({ objectId: newcomer.id, action: "operator.grant" })).toEqual(["Moves to support.", "Steps down to finance."]);
    const start = Date.parse("2026-11-01T00:00:00Z");
    expect(await actions({ from: new Date(start + 2_000).toISOString() })).toEqual(["Moves to support.", "codes.issue"]);
    expect(await actions({ to: "2026-11-01T08:00:02+08:00" })).toEqual(["Steps down to finance."]);
    expect(await actions({ actor: "op_admin", from: new Date(start + 2_000).toISOString() })).toEqual(["Moves to support."]);
  });

  it("pages 50 at a time and the cursors give every row exactly once, filtered or not", async () => {
    await seedTrail(140);
    const everything = async (query: Record<string, string>) => {
      const ids: number[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { rows: AuditRow[]; nextCursor: string | null } = await trail(cursor ? { ...query, cursor } : query);
        ids.push(...page.rows.map((row) => row.id));
        sizes.push(page.rows.length);
        cursor = page.nextCursor;
      } while (cursor);
      return { ids, sizes };
    };
    const all = await everything({});
    expect(all.sizes).toEqual([50, 50, 40]);
    expect(all.ids).toEqual([...all.ids].sort((a, b) => b - a));
    expect(new Set(all.ids).size).toBe(140);
    const admins = await everything({ actor: "op_admin" });
    expect(admins.sizes).toEqual([47]);
    const automation = await everything({ action: "test.automation" });
    expect(automation.sizes).toEqual([50, 43]);
    expect(new Set([...admins.ids, ...automation.ids]).size).toBe(140);
  });
});

/** RFC 4180, strictly: a CR or LF outside quotes that is not a CRLF record end is an error. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i];
    if (quoted) {
      if (character !== '"') cell += character;
      else if (text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else quoted = false;
    } else if (character === '"' && cell === "") quoted = true;
    else if (character === ",") {
      record.push(cell);
      cell = "";
    } else if (character === "\r" && text[i + 1] === "\n") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      i += 1;
    } else if (character === "\r" || character === "\n" || character === '"') {
      throw new Error(`A bare ${JSON.stringify(character)} at ${i}`);
    } else cell += character;
  }
  if (cell !== "" || record.length > 0 || quoted) throw new Error("The file does not end with a complete record");
  return records;
}

async function csvText(response: Response): Promise<string> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.slice(3));
}

const header = "id,at,actor_kind,actor_handle,actor_role,action,object_type,object_id,before,after,reason,request_id";

describe("the audit trail as CSV", () => {
  const nasty = [
    '=HYPERLINK("http://evil.example","click")',
    "+86 138 0000 0000",
    "-1 refund",
    "@SUM(A1:A9)",
    "\tindented",
    'He said "no", twice',
    "line one\nline two",
    "windows\r\nline",
    "李伟的退款",
  ];

  it("is a file to download, each cell escaped and protected against formulas, one line per row", async () => {
    await seedTrail(nasty.length, (n) => nasty[n]);
    const answer = await get("/api/ops/audit.csv");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toBe('attachment; filename="paydesk-audit-20261101T000000Z.csv"');
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const text = await csvText(answer);
    expect(text.startsWith(`${header}\r\n`)).toBe(true);
    const [head, ...records] = parseCsv(text);
    expect(head?.join(",")).toBe(header);
    expect(records).toHaveLength(nasty.length);
    // Newest first: the last reason written is the first line.
    const reasons = records.map((record) => record[10]);
    const protectedReasons = [...nasty].reverse().map((reason) => (/^[=+\-@\t\r]/.test(reason) ? `'${reason}` : reason));
    expect(reasons).toEqual(protectedReasons);
    expect(records.every((record) => record.length === 12)).toBe(true);
    expect(records.at(-1)).toEqual([
      expect.stringMatching(/^\d+$/),
      "2026-11-01T00:00:00.000Z",
      "operator",
      "op_admin",
      "admin",
      "test.operator_action",
      "thing",
      "thing_0",
      '{"n":0}',
      '{"n":1,"note":"a, b"}',
      '\'=HYPERLINK("http://evil.example","click")',
      "",
    ]);
    expect(records[0]?.slice(2, 5)).toEqual(["automation", "", ""]);
  });

  it("takes the same filters as the page", async () => {
    await seedTrail(30);
    const answer = await get("/api/ops/audit.csv?actor=op_admin&objectType=thing");
    const [, ...records] = parseCsv(await csvText(answer));
    expect(records).toHaveLength(10);
    expect(records.every((record) => record[3] === "op_admin")).toBe(true);
    const none = parseCsv(await csvText(await get("/api/ops/audit.csv?action=nothing.like.this")));
    expect(none).toEqual([header.split(",")]);
  });

  it("streams a long trail page by page (500 rows a query) as it is read, every row exactly once", async () => {
    await seedTrail(1_234, (n) => (n % 100 === 0 ? `=cmd|' /C calc'!A${n}` : `row ${n}`));
    const counter = countingRoundTrips();
    const answer = await get("/api/ops/audit.csv", finance, counter.db);
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
    // Then two more pages: 500 + 500 + 234.
    expect(counter.trips()).toBe(beforeReading + 2);
    const [, ...records] = parseCsv(await csvText(new Response(new Blob(chunks))));
    expect(records).toHaveLength(1_234);
    const ids = records.map((record) => Number(record[0]));
    expect(new Set(ids).size).toBe(1_234);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(records.filter((record) => record[10]?.startsWith("'=cmd")).length).toBe(13);
  });

  it("is 404 naming actor for an unknown handle, before any file starts", async () => {
    const answer = await get("/api/ops/audit.csv?actor=nobody_here");
    expect(answer.status).toBe(404);
    expect(answer.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(await answer.json()).toMatchObject({ code: "NOT_FOUND", field: "actor" });
  });
});
