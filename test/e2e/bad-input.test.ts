/**
 * The bad-input table: several hundred requests no honest client sends, over raw sockets to
 * the served app (edge → origin → local D1). Each has the answer it must get; together they
 * must get no answer of 500 or more and never hang. The table's figures are written to
 * test-results/bad-input/ (summary.md and summary.json).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { e2eAdminToken, e2ePort, seededUser } from "./e2e-env.ts";
import { head, type RawAnswer, type RawSend, rawRequest } from "./raw-http.ts";

type Operation = {
  security?: Record<string, unknown>[];
  requestBody?: unknown;
  parameters?: { name: string; in: string; required?: boolean }[];
};
const document = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../contract/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
};

type Case = {
  category: string;
  name: string;
  send: RawSend;
  expect: number[];
  code?: string;
  field?: string;
  maxMs?: number;
  /** Answered before any worker runs (the HTTP server), or by a page: not the API's envelope. */
  notApi?: boolean;
};

const signedByWechatPay = new Set(["/api/payments/wechat/notify", "/api/payments/wechat/refund-notify"]);
const sampleIds: Record<string, string> = {
  ord: "ord_00000000-0000-4000-8000-000000000000",
  tsk: "tsk_00000000-0000-4000-8000-000000000000",
  clm: "clm_00000000-0000-4000-8000-000000000000",
  tkt: "tkt_00000000-0000-4000-8000-000000000000",
  batch: "batch_00000000-0000-4000-8000-000000000000",
};
/** A path of the document with its parameters filled by well-formed ids that name nothing. */
const concrete = (route: string) =>
  route.replace(/\{id\}/g, () => {
    const kind = route.includes("/orders/")
      ? "ord"
      : route.includes("/claims/")
        ? "clm"
        : route.includes("/tickets/")
          ? "tkt"
          : route.includes("/code-batches/")
            ? "batch"
            : "tsk";
    return sampleIds[kind] ?? "x";
  });

const operations = Object.entries(document.paths).flatMap(([route, item]) =>
  Object.entries(item).map(([method, operation]) => ({ route, method: method.toUpperCase(), operation })),
);
const jsonBodyOperations = operations.filter(({ operation }) => operation.requestBody);

function authFor(operation: Operation): [string, string][] {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes("operatorAuth")) return [["Authorization", `Bearer ${e2eAdminToken}`]];
  if (schemes.includes("bearerAuth")) return [["Authorization", `Bearer ${seededUser.token}`]];
  return [];
}

const key = () => ["Idempotency-Key", `bad-input-${crypto.randomUUID()}`] as [string, string];

function post(
  route: string,
  operation: Operation,
  body: string | Buffer,
  extra: [string, string][] = [],
  contentType = "application/json",
): RawSend {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const headers: [string, string][] = [...authFor(operation), key(), ["Content-Length", String(bytes.length)], ...extra];
  if (contentType) headers.push(["Content-Type", contentType]);
  return { head: head("POST", concrete(route), headers, e2ePort), body: bytes };
}

/**
 * The statuses a malformed body gets on an operation: 400; 401 where WeChat Pay's signature
 * comes first; 404 in the back office, where the seeded user holds no operator role.
 */
const malformed = (route: string) => (signedByWechatPay.has(route) ? [401] : route.startsWith("/api/ops/") ? [404] : [400]);

const cases: Case[] = [];
const add = (category: string, name: string, send: RawSend, statuses: number[], more: Partial<Case> = {}) =>
  cases.push({ category, name, send, expect: statuses, ...more });

// Not JSON, and JSON of the wrong shape, on every operation that reads a body.
const notJson = ["not json", "{", '{"a":', "[]", "null", "123", '"text"', "{}", "{'single':1}", '{"a":1,}', "\u0000", ""];
for (const { route, method, operation } of jsonBodyOperations) {
  for (const body of notJson)
    add(
      "not JSON / wrong shape",
      `${method} ${route} ${JSON.stringify(body).slice(0, 14)}`,
      post(route, operation, body),
      malformed(route),
    );
  add("BOM", `${method} ${route} BOM before {}`, post(route, operation, "\uFEFF{}"), malformed(route));
}

// Content types, on a public, a signed-in and an operator operation.
const typed = ["/api/user/register", "/api/transfers", "/api/admin/codes", "/api/support/contact", "/api/tasks"];
for (const route of typed) {
  const operation = document.paths[route]?.post ?? {};
  for (const [name, type] of [
    ["none", ""],
    ["text/plain", "text/plain"],
    ["form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["json lookalike", "application/jsonx"],
    ["xml", "application/xml"],
  ] as const) {
    add("content types", `${route} ${name}`, post(route, operation, "{}", [], type), [415], { code: "UNSUPPORTED_MEDIA_TYPE" });
  }
  // The media type is case-insensitive and may carry a charset: refused for the body, not the type.
  add(
    "content types",
    `${route} Application/JSON; charset=utf-8`,
    post(route, operation, "{}", [], "Application/JSON; charset=utf-8"),
    [400],
  );
}

// Huge bodies: refused at 64 KB, whether declared or not.
for (const route of ["/api/user/register", "/api/transfers", "/api/support/tickets", "/api/admin/codes"]) {
  const operation = document.paths[route]?.post ?? {};
  for (const size of [64 * 1024 + 1, 200 * 1024, 2 * 1024 * 1024]) {
    // The answer comes from the declared length alone: the client sends 1 KB of it and waits.
    // (The edge answers at once, tested in workerd; `wrangler dev`'s proxy holds a request
    // whose body is under about 1 MB for up to 2 s first.)
    const declaredOnly = post(route, operation, Buffer.alloc(size, 0x20));
    add("huge bodies", `${route} ${size} bytes declared`, { ...declaredOnly, body: Buffer.alloc(1024, 0x20) }, [413], {
      code: "PAYLOAD_TOO_LARGE",
      maxMs: 3_000,
    });
  }
  const chunk = Buffer.alloc(8 * 1024, 0x20);
  const chunked = Buffer.concat([
    ...Array.from({ length: 10 }, () => Buffer.concat([Buffer.from("2000\r\n"), chunk, Buffer.from("\r\n")])),
    Buffer.from("0\r\n\r\n"),
  ]);
  add(
    "huge bodies",
    `${route} 80 KB chunked, undeclared`,
    {
      head: head(
        "POST",
        route,
        [...authFor(operation), key(), ["Content-Type", "application/json"], ["Transfer-Encoding", "chunked"]],
        e2ePort,
      ),
      body: chunked,
    },
    [413],
    { code: "PAYLOAD_TOO_LARGE" },
  );
  add(
    "huge bodies",
    `${route} Content-Length not a number`,
    {
      head: head("POST", route, [...authFor(operation), key(), ["Content-Type", "application/json"], ["Content-Length", "12abc"]], e2ePort),
      body: "{}",
    },
    [400],
    // Refused by the HTTP server itself, before any worker runs.
    { notApi: true },
  );
}

// Stalled bodies: the edge gives up after 2 s with 408, never the origin's 504. Under
// `wrangler dev` its proxy worker adds about 2 s more (the edge's own timing is tested in
// workerd: test/edge/request-body.test.ts), hence 5 s here. A body cut short by a client that
// half-closes its socket never reaches a worker under `wrangler dev` (its proxy answers 500
// "Network connection lost" itself), so that case is tested in workerd only (same file).
for (const route of ["/api/user/register", "/api/transfers", "/api/codes/redeem", "/api/support/contact", "/api/tasks"]) {
  const operation = document.paths[route]?.post ?? {};
  const declared = (n: number): [string, string][] => [
    ...authFor(operation),
    key(),
    ["Content-Type", "application/json"],
    ["Content-Length", String(n)],
  ];
  add(
    "truncated and stalled",
    `${route} stalls after 10 of 100 bytes`,
    { head: head("POST", route, declared(100), e2ePort), body: '{"handle":', timeoutMs: 8_000 },
    [408],
    { code: "REQUEST_TIMEOUT", maxMs: 5_000 },
  );
  add(
    "truncated and stalled",
    `${route} stalls with no body at all`,
    { head: head("POST", route, declared(50), e2ePort), timeoutMs: 8_000 },
    [408],
    { code: "REQUEST_TIMEOUT", maxMs: 5_000 },
  );
  add(
    "truncated and stalled",
    `${route} stalls 1 s, then finishes`,
    { head: head("POST", route, declared(2), e2ePort), body: "{", later: { stallMs: 1_000, body: "}" } },
    [400],
  );
}

// Deep nesting, duplicate keys, odd numbers.
const transfers = document.paths["/api/transfers"]?.post ?? {};
for (const depth of [100, 1_000, 10_000, 30_000]) {
  add(
    "deep nesting",
    `arrays ${depth} deep`,
    post("/api/transfers", transfers, `{"toHandle":"nobody_here","amount":${"[".repeat(depth)}1${"]".repeat(depth)}}`),
    [400],
  );
}
// Objects as deep as a body may hold: 10,900 levels are 65,401 bytes, under the 64 KB limit, so
// the parser meets them all. (Deeper would be refused for its size, as "huge bodies" are; a
// body that large sent whole met the 413 and a closed connection, and a loaded machine could
// lose the answer to the reset.)
for (const depth of [100, 1_000, 10_000, 10_900]) {
  const objects = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  add("deep nesting", `objects ${depth} deep`, post("/api/transfers", transfers, objects), [400]);
}
add(
  "duplicate keys",
  "toHandle twice (the last counts: nobody has it)",
  post("/api/transfers", transfers, '{"toHandle":"li_wei","toHandle":"nobody_here","amount":1}'),
  [404],
  { code: "RECIPIENT_NOT_FOUND" },
);
add(
  "duplicate keys",
  "amount twice, the last too large",
  post("/api/transfers", transfers, '{"toHandle":"nobody_here","amount":1,"amount":5000001}'),
  [400],
  { field: "amount" },
);
add(
  "duplicate keys",
  "__proto__ as a field",
  post("/api/transfers", transfers, '{"toHandle":"nobody_here","amount":1,"__proto__":{"admin":true}}'),
  [400],
);
add(
  "duplicate keys",
  "constructor as a field",
  post("/api/transfers", transfers, '{"toHandle":"nobody_here","amount":1,"constructor":1}'),
  [400],
);
for (const [name, amount, statuses] of [
  ["1e2 (an integer, 100)", "1e2", [404]],
  ["1.0 (an integer, 1)", "1.0", [404]],
  ["-0", "-0", [400]],
  ["0.5", "0.5", [400]],
  ["1e309 (infinity)", "1e309", [400]],
  ["-1", "-1", [400]],
  ["2^53 + 1", "9007199254740993", [400]],
  ["1e-400", "1e-400", [400]],
  ["hex 0x10", "0x10", [400]],
  ["NaN", "NaN", [400]],
  ["Infinity", "Infinity", [400]],
  ["a numeric string", '"100"', [400]],
  ["true", "true", [400]],
  ["an array", "[1]", [400]],
  ["an object", '{"value":1}', [400]],
  ["leading zeros", "007", [400]],
] as const) {
  add("odd numbers", `amount ${name}`, post("/api/transfers", transfers, `{"toHandle":"nobody_here","amount":${amount}}`), [...statuses]);
}

// Text people type: NUL, lone surrogates, bidi controls, zero-width and other invisible characters.
const textFields: { route: string; field: string; body: (text: string) => object }[] = [
  {
    route: "/api/user/register",
    field: "displayName",
    body: (text) => ({ handle: "bad_input_x", password: "correct horse battery", displayName: text }),
  },
  { route: "/api/transfers", field: "note", body: (text) => ({ toHandle: "nobody_here", amount: 1, note: text }) },
  { route: "/api/support/tickets", field: "subject", body: (text) => ({ category: "other", subject: text, message: "Hello." }) },
  { route: "/api/support/tickets", field: "message", body: (text) => ({ category: "other", subject: "Hello", message: text }) },
  { route: "/api/support/contact", field: "message", body: (text) => ({ email: "a@example.com", subject: "Hello", message: text }) },
  {
    route: "/api/tasks",
    field: "title",
    body: (text) => ({
      title: text,
      description: "Do it.",
      reward: 100,
      slots: 1,
      deadline: new Date(Date.now() + 48 * 3_600_000).toISOString(),
    }),
  },
];
const badTexts: [string, string][] = [
  ["NUL", "a\u0000b"],
  ["a lone high surrogate", "Li \ud800Wei"],
  ["a lone low surrogate", "\udc00"],
  ["right-to-left override", "\u202Eiew iL"],
  ["left-to-right embedding", "a\u202Ab"],
  ["zero-width space", "Li\u200BWei"],
  ["zero-width joiner only", "\u200D"],
  ["BOM inside", "Li\uFEFFWei"],
  ["bell", "a\u0007b"],
  ["escape", "a\u001B[31mred"],
  ["delete", "a\u007Fb"],
  ["only spaces", "     "],
  ["word joiner", "Li\u2060Wei"],
];
for (const { route, field, body } of textFields) {
  const operation = document.paths[route]?.post ?? {};
  for (const [name, text] of badTexts) {
    // A note may be empty, and blank is empty once trimmed: that one goes on to the recipient.
    if (field === "note" && name === "only spaces") {
      add(
        "invisible and control text",
        `${route} note: only spaces (an empty note)`,
        post(route, operation, JSON.stringify(body(text))),
        [404],
        {
          code: "RECIPIENT_NOT_FOUND",
        },
      );
      continue;
    }
    add("invisible and control text", `${route} ${field}: ${name}`, post(route, operation, JSON.stringify(body(text))), [400], {
      code: "BAD_REQUEST",
      field,
    });
  }
  // Raw, unescaped control bytes inside a JSON string are not JSON at all.
  add(
    "invisible and control text",
    `${route} ${field}: a raw control byte`,
    post(route, operation, JSON.stringify(body("ab")).replace("ab", "a\u0001b")),
    [400],
  );
}

// Wrong methods on every API path: 405 with Allow naming the methods its templates take.
const templates = Object.entries(document.paths).map(([route, item]) => ({
  matches: new RegExp(`^${route.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  methods: Object.keys(item).map((method) => method.toUpperCase()),
}));
for (const route of Object.keys(document.paths)) {
  const target = concrete(route);
  const allowed = new Set(templates.filter((template) => template.matches.test(target)).flatMap((template) => template.methods));
  for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !allowed.has(m))) {
    add(
      "methods",
      `${method} ${route}`,
      {
        head: head(
          method,
          target,
          [
            ["Authorization", `Bearer ${seededUser.token}`],
            ["Content-Length", "0"],
          ],
          e2ePort,
        ),
      },
      [405],
      {
        code: "METHOD_NOT_ALLOWED",
      },
    );
  }
}

// Traversal and encoded ids.
for (const target of [
  "/api/orders/..%2F..%2Fadmin%2Fcodes",
  "/api/orders/%2e%2e/%2e%2e/admin/codes",
  "/api/orders/ord_%00",
  "/api/orders/%E2%80%AEord",
  "/api/orders/ord_00000000-0000-4000-8000-00000000000%30",
  `/api/orders/ord_${"a".repeat(5_000)}`,
  "/api/orders/ord_00000000-0000-4000-8000-000000000000%3Fx=1",
  "/api/support/tickets/tkt_..%5C..%5Cetc%5Cpasswd",
  "/api/claims/%252e%252e/approve",
  "/api/tasks/%F0%9F%98%80/cancel",
  "/api/users/lookup?handle=li_wei%00",
  "/api/users/lookup?handle=LI_WEI",
  "/api/users/lookup?handle=li_wei&handle=other",
  "/api/users/lookup?handle=%E2%80%AEli_wei",
  "/api/wallet/entries?limit=1e2",
  "/api/wallet/entries?limit=-1",
  "/api/wallet/entries?cursor=%00",
  "/api/wallet/entries?cursor=bm90IGEgY3Vyc29y",
  "/api/orders?status=paid%00",
  "/api/orders?cursor=////",
]) {
  const method = /\/(approve|cancel)$/.test(target) ? "POST" : "GET";
  // Dot segments are resolved before routing: that one leaves /api/ and meets the not-found page.
  const notApi = target.includes("%2e%2e/%2e%2e");
  add(
    "traversal and encoded ids",
    `${method} ${target.slice(0, 60)}`,
    {
      head: head(
        method,
        target,
        [
          ["Authorization", `Bearer ${seededUser.token}`],
          ["Content-Length", "0"],
        ],
        e2ePort,
      ),
    },
    [400, 404],
    { notApi },
  );
}

// Authorization in every malformed way: 401, never 5xx; the scheme's case does not matter.
const session = "/api/user/session";
for (const [name, value, statuses] of [
  ["no scheme", seededUser.token, [401]],
  ["Bearer alone", "Bearer", [401]],
  ["Bearer and a space", "Bearer ", [401]],
  ["Basic", `Basic ${Buffer.from("li_wei:pw").toString("base64")}`, [401]],
  ["two tokens", `Bearer ${seededUser.token} ${seededUser.token}`, [401]],
  ["a comma list", `Bearer ${seededUser.token}, Bearer x`, [401]],
  ["a token too short", "Bearer abc", [401]],
  ["a 10 KB token", `Bearer ${"a".repeat(10_000)}`, [401]],
  ["non-ASCII", "Bearer tökén-0123456789abcdef", [401]],
  ["a tab", `Bearer\t${seededUser.token}`, [401, 200]],
  ["lower-case scheme", `bearer ${seededUser.token}`, [200]],
  ["upper-case scheme", `BEARER ${seededUser.token}`, [200]],
  ["a token of another kind", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.", [401]],
] as const) {
  add(
    "Authorization",
    name,
    {
      head: head(
        "POST",
        session,
        [
          ["Authorization", value],
          ["Content-Length", "0"],
        ],
        e2ePort,
      ),
    },
    [...statuses],
  );
}
add(
  "Authorization",
  "two Authorization headers",
  {
    head: head(
      "POST",
      session,
      [
        ["Authorization", "Bearer x"],
        ["Authorization", `Bearer ${seededUser.token}`],
        ["Content-Length", "0"],
      ],
      e2ePort,
    ),
  },
  [401, 200],
);
add(
  "Authorization",
  "an operator route with a user's token",
  { head: head("GET", "/api/admin/ledger/check", [["Authorization", `Bearer ${seededUser.token}`]], e2ePort) },
  [403],
);

// Long and many headers.
add("headers", "a 12 KB header", { head: head("GET", "/api/health", [["X-Padding", "a".repeat(12_000)]], e2ePort) }, [200, 431]);
add("headers", "a 100 KB header", { head: head("GET", "/api/health", [["X-Padding", "a".repeat(100_000)]], e2ePort) }, [200, 400, 431]);
add(
  "headers",
  "300 headers",
  {
    head: head(
      "GET",
      "/api/health",
      Array.from({ length: 300 }, (_, n) => [`X-H${n}`, "v"] as [string, string]),
      e2ePort,
    ),
  },
  [200, 431],
);
add("headers", "a forged X-Edge-Secret", { head: head("GET", "/api/health", [["X-Edge-Secret", "guess"]], e2ePort) }, [200]);
add(
  "headers",
  "a forged X-Real-IP and X-Forwarded-For",
  {
    head: head(
      "GET",
      "/api/health",
      [
        ["X-Real-IP", "1.2.3.4"],
        ["X-Forwarded-For", "1.2.3.4"],
      ],
      e2ePort,
    ),
  },
  [200],
);
add(
  "headers",
  "Content-Length and Transfer-Encoding together",
  {
    head: head(
      "POST",
      "/api/user/login",
      [
        ["Content-Type", "application/json"],
        ["Content-Length", "2"],
        ["Transfer-Encoding", "chunked"],
      ],
      e2ePort,
    ),
    body: "2\r\n{}\r\n0\r\n\r\n",
  },
  [400],
);

type Outcome = Case & { answer: RawAnswer; problems: string[] };

function judge(item: Case, answer: RawAnswer): string[] {
  const problems: string[] = [];
  if (answer.hung) return [`no answer within ${item.send.timeoutMs ?? 8_000} ms`];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  if (!item.expect.includes(answer.status))
    problems.push(`expected ${item.expect.join(" or ")}, got ${answer.status}: ${answer.body.slice(0, 160)}`);
  if (item.maxMs !== undefined && answer.ms > item.maxMs) problems.push(`took ${Math.round(answer.ms)} ms`);
  // The app's own answers are the envelope (431 is the HTTP server's, before any worker runs).
  if (!item.notApi && answer.status !== 431 && answer.status !== 0) {
    let body: { code?: unknown; field?: unknown } | null = null;
    try {
      body = JSON.parse(answer.body) as { code?: unknown };
    } catch {
      problems.push(`not JSON: ${answer.body.slice(0, 80)}`);
    }
    if (body && typeof body.code !== "string") problems.push("no code in the answer");
    if (body && item.code && body.code !== item.code) problems.push(`code ${String(body.code)}, expected ${item.code}`);
    if (body && item.field && body.field !== item.field) problems.push(`field ${String(body.field)}, expected ${item.field}`);
  }
  if (answer.status === 405 && !answer.headers.allow) problems.push("405 without Allow");
  return problems;
}

test("no bad input gets an answer of 500 or more, or none at all", async () => {
  test.setTimeout(600_000);
  const outcomes: Outcome[] = [];
  // A few at a time: the stalled ones wait 2 s each.
  for (let start = 0; start < cases.length; start += 8) {
    const batch = cases.slice(start, start + 8);
    const answers = await Promise.all(batch.map((item) => rawRequest(e2ePort, item.send)));
    batch.forEach((item, index) => {
      const answer = answers[index] as RawAnswer;
      outcomes.push({ ...item, answer, problems: judge(item, answer) });
    });
  }

  const categories = [...new Set(outcomes.map((outcome) => outcome.category))];
  const summary = categories.map((category) => {
    const mine = outcomes.filter((outcome) => outcome.category === category);
    const statuses: Record<string, number> = {};
    for (const { answer } of mine)
      statuses[answer.hung ? "hung" : answer.status] = (statuses[answer.hung ? "hung" : answer.status] ?? 0) + 1;
    return { category, cases: mine.length, statuses, failures: mine.filter((outcome) => outcome.problems.length > 0).length };
  });
  const totals = {
    cases: outcomes.length,
    atLeast500: outcomes.filter(({ answer }) => answer.status >= 500).length,
    hung: outcomes.filter(({ answer }) => answer.hung).length,
    failures: outcomes.filter((outcome) => outcome.problems.length > 0).length,
    slowestMs: Math.round(Math.max(...outcomes.map(({ answer }) => answer.ms))),
  };
  const dir = path.resolve("test-results/bad-input");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "summary.json"), JSON.stringify({ totals, summary }, null, 2));
  writeFileSync(
    path.join(dir, "summary.md"),
    [
      "| category | cases | statuses | failures |",
      "| --- | --- | --- | --- |",
      ...summary.map(
        (row) =>
          `| ${row.category} | ${row.cases} | ${Object.entries(row.statuses)
            .map(([status, n]) => `${status}×${n}`)
            .join(", ")} | ${row.failures} |`,
      ),
      `| **all** | **${totals.cases}** | ≥500: ${totals.atLeast500}, hung: ${totals.hung}, slowest ${totals.slowestMs} ms | **${totals.failures}** |`,
    ].join("\n"),
  );

  expect(totals.cases).toBeGreaterThanOrEqual(300);
  expect(
    outcomes
      .filter((outcome) => outcome.problems.length > 0)
      .map((outcome) => `${outcome.category} — ${outcome.name}: ${outcome.problems.join("; ")}`),
  ).toEqual([]);
  expect(totals.atLeast500).toBe(0);
  expect(totals.hung).toBe(0);
});
