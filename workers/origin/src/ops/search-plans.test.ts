import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { auditPageQuery } from "./audit-trail";
import { orderSearchQuery } from "./order-search";
import { peopleSearchQuery } from "./people-search";
import type { SqlQuery } from "./sql-conditions";

/**
 * Each search of the back office is served by the index its comment names (migration 0020
 * adds those no earlier query needed): SQLite's own plan for each shape of filters, with
 * every migration applied. `sqlite_autoindex_user_2` is user.handle's UNIQUE index,
 * `sqlite_autoindex_payment_2` payment.out_trade_no's.
 */
async function planOf(query: SqlQuery): Promise<string> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
    .bind(...query.values)
    .all<{ detail: string }>();
  return results.map((step) => step.detail).join("\n");
}

const at = Date.parse("2026-11-01T00:00:00Z");
const after = { createdAt: at, id: "ord_00000000-0000-4000-8000-000000000000" };

describe("the back office's search plans", () => {
  it.each([
    ["people by q, in handle order", peopleSearchQuery({ q: "li", after: null }), ["SCAN user USING INDEX sqlite_autoindex_user_2"]],
    [
      "people after a cursor",
      peopleSearchQuery({ q: "", after: "li_wei" }),
      ["SEARCH user USING INDEX sqlite_autoindex_user_2 (handle>?)"],
    ],
    ["orders, newest first", orderSearchQuery({}), ["SCAN orders USING INDEX orders_newest"]],
    ["orders after a cursor", orderSearchQuery({ after }), ["SEARCH orders USING INDEX orders_newest ((created_at,id)<(?,?))"]],
    [
      "orders in a date range",
      orderSearchQuery({ from: at, to: at + 86_400_000, kind: "recharge", status: "paid" }),
      ["SEARCH orders USING INDEX orders_newest (created_at>? AND created_at<?)"],
    ],
    [
      "orders of a person",
      orderSearchQuery({ person: "li_wei", after }),
      [
        "SEARCH user USING INDEX sqlite_autoindex_user_2 (handle=?)",
        "SEARCH orders USING INDEX orders_user_newest (user_id=? AND (created_at,id)<(?,?))",
      ],
    ],
    [
      "orders by id, out_trade_no or transaction_id",
      orderSearchQuery({ q: "PD0123456789" }),
      [
        "SEARCH orders USING INDEX sqlite_autoindex_orders_1 (id=?)",
        "SEARCH payment USING INDEX sqlite_autoindex_payment_2 (out_trade_no=?)",
        "SEARCH payment USING INDEX payment_transaction_id (transaction_id=?)",
      ],
    ],
    [
      "the audit trail after a cursor",
      auditPageQuery({}, { before: 100, limit: 51 }),
      ["SEARCH audit_log USING INTEGER PRIMARY KEY (rowid<?)"],
    ],
    [
      "an operator's audit rows",
      auditPageQuery({ actor: "op_admin" }, { before: 100, limit: 51 }),
      [
        "SEARCH user USING INDEX sqlite_autoindex_user_2 (handle=?)",
        "SEARCH audit_log USING INDEX audit_log_actor_newest (actor_id=? AND id<?)",
      ],
    ],
    [
      "one action's audit rows",
      auditPageQuery({ action: "operator.grant" }, { before: null, limit: 51 }),
      ["SEARCH audit_log USING INDEX audit_log_action (action=?)"],
    ],
    [
      "one object's audit rows",
      auditPageQuery({ objectType: "user", objectId: "usr_li_wei" }, { before: 100, limit: 51 }),
      ["SEARCH audit_log USING INDEX audit_log_object (object_type=? AND object_id=? AND rowid<?)"],
    ],
  ] as const)("%s", async (_, query, steps) => {
    const plan = await planOf(query);
    for (const step of steps) expect(plan).toContain(step);
    // Never a whole table read without an index, nor (where an index gives the order) a sort.
    expect(plan).not.toMatch(/SCAN (orders|payment|audit_log)(?! USING INDEX)/);
    if (!query.sql.includes("SELECT ? UNION ALL")) expect(plan).not.toContain("TEMP B-TREE");
  });
});
