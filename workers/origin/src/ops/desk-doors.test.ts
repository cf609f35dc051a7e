import { beforeEach, describe, expect, it } from "vitest";
import { resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { cursorOf } from "./page-cursor";

/** Who may open the back office's read-only desks, and what they hear when a query is not valid. */
let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let people: Record<"none" | "support" | "finance" | "admin", Person>;
let target: Person;
let orderId: string;

const get = (path: string, who: Person) => origin.call(path, { method: "GET", headers: who.auth });

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  people = {
    none: await seedUser("no_role", origin.now()),
    support: await seedOperator("op_support", "support", origin.now()),
    finance: await seedOperator("op_finance", "finance", origin.now()),
    admin: await seedOperator("op_admin", "admin", origin.now()),
  };
  target = await seedUser("target_person", origin.now());
  const order = await origin.call("/api/orders/recharge", {
    body: { amount: 1_000 },
    headers: { ...target.auth, "Idempotency-Key": `order-${crypto.randomUUID()}` },
  });
  orderId = ((await order.json()) as { data: { id: string } }).data.id;
});

describe("the desks' doors", () => {
  it("let each role through exactly the doors its rights open (readPeople: support and up; readAudit: finance and up)", async () => {
    const everyone = { none: 404, support: 200, finance: 200, admin: 200 };
    const auditors = { none: 404, support: 403, finance: 200, admin: 200 };
    const expected: Record<string, Record<keyof typeof people, number>> = {
      "/api/ops/people?q=target": everyone,
      [`/api/ops/people/${target.id}`]: everyone,
      "/api/ops/orders?person=target_person": everyone,
      [`/api/ops/orders/${orderId}`]: everyone,
      "/api/ops/audit": auditors,
      "/api/ops/audit.csv": auditors,
    };
    for (const [path, byRole] of Object.entries(expected)) {
      for (const [who, status] of Object.entries(byRole)) {
        const answer = await get(path, people[who as keyof typeof people]);
        expect(answer.status, `${path} as ${who}`).toBe(status);
        if (status === 404) expect(await answer.json()).toMatchObject({ code: "NOT_FOUND" });
        if (status === 403) expect(await answer.json()).toMatchObject({ code: "FORBIDDEN" });
      }
    }
  });

  it("answer anyone who is not an operator 404 before looking at the query, so a bad query does not tell them the door is there", async () => {
    for (const path of [
      "/api/ops/people?q=%E2%80%AE",
      "/api/ops/orders?status=nope",
      "/api/ops/audit?cursor=!!",
      "/api/ops/people/not-an-id",
    ]) {
      expect((await get(path, people.none)).status, path).toBe(404);
      expect((await origin.call(path, { method: "GET" })).status, path).toBe(404);
    }
  });
});

describe("a query that is not valid", () => {
  const otherListsCursor = cursorOf("somewhere-else", [1]);
  it.each([
    [`/api/ops/people?q=${"x".repeat(65)}`, "q"],
    ["/api/ops/people?q=%E2%80%AEevil", "q"],
    ["/api/ops/people?q=a%00b", "q"],
    ["/api/ops/people?cursor=bm90IGEgY3Vyc29y", "cursor"],
    [`/api/ops/people?cursor=${encodeURIComponent(otherListsCursor)}`, "cursor"],
    ["/api/ops/people?limit=5", "limit"],
    ["/api/ops/people/not-an-id", "id"],
    ["/api/ops/people/usr_%E2%80%AE", "id"],
    ["/api/ops/orders?q=two%20words", "q"],
    ["/api/ops/orders?status=lost", "status"],
    ["/api/ops/orders?kind=gift", "kind"],
    ["/api/ops/orders?person=Not_A_Handle", "person"],
    ["/api/ops/orders?from=yesterday", "from"],
    ["/api/ops/orders?to=2026-11-01", "to"],
    ["/api/ops/orders?cursor=%00", "cursor"],
    [`/api/ops/orders?cursor=${encodeURIComponent(cursorOf("orders", ["not-a-time", "ord_x"]))}`, "cursor"],
    ["/api/ops/orders/ord_1", "id"],
    ["/api/ops/audit?actor=x", "actor"],
    ["/api/ops/audit?action=Grant%20All", "action"],
    ["/api/ops/audit?objectType=User", "objectType"],
    ["/api/ops/audit?objectId=a%20b", "objectId"],
    ["/api/ops/audit?from=soon", "from"],
    ["/api/ops/audit?to=2026-13-01T00:00:00Z", "to"],
    [`/api/ops/audit?cursor=${encodeURIComponent(cursorOf("audit", [1.5]))}`, "cursor"],
    ["/api/ops/audit.csv?cursor=abc", "cursor"],
    ["/api/ops/audit.csv?action=%3D1%2B2", "action"],
  ])("%s is 400 naming %s, never a 5xx", async (path, field) => {
    const answer = await get(path, people.admin);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });

  it("an unknown handle in a filter is 404 naming it; an unknown id is 404", async () => {
    for (const [path, field] of [
      ["/api/ops/orders?person=nobody_here", "person"],
      ["/api/ops/audit?actor=nobody_here", "actor"],
      ["/api/ops/audit.csv?actor=nobody_here", "actor"],
      ["/api/ops/people/usr_nobody_here", "id"],
      ["/api/ops/orders/ord_00000000-0000-4000-8000-000000000000", "id"],
    ] as const) {
      const answer = await get(path, people.admin);
      expect(answer.status, path).toBe(404);
      expect(await answer.json(), path).toMatchObject({ code: "NOT_FOUND", field });
    }
  });

  it("an empty range of dates is no error, only no rows", async () => {
    const answer = await get("/api/ops/orders?from=2026-12-01T00:00:00Z&to=2026-01-01T00:00:00%2B08:00", people.support);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ code: "SUCCESS", data: { orders: [], nextCursor: null } });
  });

  it("other methods are 405 with Allow, for operators and everyone else alike", async () => {
    for (const path of ["/api/ops/people", `/api/ops/people/${target.id}`, "/api/ops/orders", "/api/ops/audit", "/api/ops/audit.csv"]) {
      const answer = await origin.call(path, { method: "POST", body: {}, headers: people.admin.auth });
      expect(answer.status, path).toBe(405);
      expect(answer.headers.get("Allow")).toBe("GET, HEAD");
    }
  });
});
