import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, testOrigin } from "../../test/origin-client";

const origin = testOrigin();
const valid = { handle: "valid_01", password: "long enough password", displayName: "Valid" };

beforeEach(resetDatabase);

// docs/api-contract.md: a malformed body is a 400 with the failing field named, never a 500.
const badBodies: [string, unknown, string | undefined][] = [
  ["an unknown field", { ...valid, admin: true }, "admin"],
  ["a missing field", { handle: valid.handle, password: valid.password }, "displayName"],
  ["a number for a string", { ...valid, handle: 12345 }, "handle"],
  ["null", { ...valid, password: null }, "password"],
  ["an array", { ...valid, displayName: ["a"] }, "displayName"],
  ["a short password", { ...valid, password: "short" }, "password"],
  // Within the 64 KB body limit (a larger body is 413: client-mistakes.test.ts).
  ["a huge password", { ...valid, password: "x".repeat(10_000) }, "password"],
  ["a huge display name", { ...valid, displayName: "名".repeat(5_000) }, "displayName"],
  ["an empty display name", { ...valid, displayName: "   " }, "displayName"],
  ["an upper-case handle", { ...valid, handle: "Alice" }, "handle"],
  ["a unicode handle", { ...valid, handle: "ålice_01" }, "handle"],
  ["an SQL-looking handle", { ...valid, handle: "a'; DROP TABLE user; --" }, "handle"],
  ["a display name starting with U+0000", { ...valid, displayName: "\u0000Mallory" }, "displayName"],
  [
    "a prototype key",
    JSON.parse('{"__proto__":{"x":1},"handle":"valid_01","password":"long enough password","displayName":"V"}'),
    "__proto__",
  ],
  ["not an object", [1, 2, 3], undefined],
  ["a string body", "hello", undefined],
];

describe("request validation", () => {
  it.each(badBodies)("refuses %s with 400 naming the field", async (_, body, field) => {
    const response = await origin.call("/api/user/register", { body, headers: { "Idempotency-Key": crypto.randomUUID() } });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { code: string; field?: string; message: string };
    expect(answer.code).toBe("BAD_REQUEST");
    expect(answer.field).toBe(field);
    expect(answer.message.length).toBeGreaterThan(0);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await origin.call("/api/user/login", { raw: '{"handle": "x",' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refuses a malformed Idempotency-Key", async () => {
    const response = await origin.call("/api/user/register", { body: valid, headers: { "Idempotency-Key": "short" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "Idempotency-Key" });
  });

  it("answers unknown API routes with 404 NOT_FOUND in the envelope", async () => {
    const response = await origin.call("/api/nothing-here", { method: "GET" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
