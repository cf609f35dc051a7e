import type { OpsOrder } from "#contract/ops-orders";
import type { Order } from "#contract/orders";
import { ApiError } from "../http/answer";
import { orderFromRow, type OrderRow } from "../orders/order-rows";
import { ordersColumns, personRefOf } from "./ops-rows";
import { prepared, SqlConditions, type SqlQuery } from "./sql-conditions";

const orderSearchPageSize = 50;

export type OrderSearch = {
  /** An order id, an out_trade_no or a WeChat Pay transaction_id, matched exactly. */
  q?: string | undefined;
  status?: Order["status"] | undefined;
  kind?: Order["kind"] | undefined;
  /** A handle. */
  person?: string | undefined;
  /** Created at or after, before (ms). */
  from?: number | undefined;
  to?: number | undefined;
  /** The last order of the previous page. */
  after?: { createdAt: number; id: string } | null;
};

type FoundRow = OrderRow & { person_id: string; person_handle: string; person_display_name: string };

/**
 * The orders the filters find, newest first, one more than a page. Which index serves it:
 * - q: the order's primary key, payment.out_trade_no (UNIQUE) and payment.transaction_id
 *   (payment_transaction_id, migration 0020): a handful of rows, then sorted;
 * - person: user.handle (UNIQUE), then orders_user_newest (user_id, created_at DESC, id DESC);
 * - otherwise orders_newest (created_at DESC, id DESC, migration 0020), which the cursor and
 *   the date range seek in; status and kind are checked on the rows it reads (pending orders
 *   are the newest, and both kinds are common, so a page fills quickly).
 */
export function orderSearchQuery(search: OrderSearch): SqlQuery {
  const conditions = new SqlConditions();
  if (search.q !== undefined) {
    conditions.add(
      `orders.id IN (SELECT ? UNION ALL SELECT order_id FROM payment WHERE out_trade_no = ?
                     UNION ALL SELECT order_id FROM payment WHERE transaction_id = ?)`,
      search.q,
      search.q,
      search.q,
    );
  }
  if (search.person !== undefined) conditions.add("orders.user_id = (SELECT id FROM user WHERE handle = ?)", search.person);
  if (search.status !== undefined) conditions.add("orders.status = ?", search.status);
  if (search.kind !== undefined) conditions.add("orders.kind = ?", search.kind);
  if (search.from !== undefined) conditions.add("orders.created_at >= ?", search.from);
  if (search.to !== undefined) conditions.add("orders.created_at < ?", search.to);
  if (search.after) conditions.add("(orders.created_at, orders.id) < (?, ?)", search.after.createdAt, search.after.id);
  return {
    sql: `SELECT ${ordersColumns}, user.id AS person_id, user.handle AS person_handle, user.display_name AS person_display_name
       FROM orders JOIN user ON user.id = orders.user_id
       ${conditions.where}
       ORDER BY orders.created_at DESC, orders.id DESC LIMIT ?`,
    values: [...conditions.values, orderSearchPageSize + 1],
  };
}

/** A page of the orders found, and where the next page starts (null at the end); an unknown `person` is 404. */
export async function searchOrders(
  db: D1Database,
  search: OrderSearch,
): Promise<{ orders: OpsOrder[]; next: { createdAt: number; id: string } | null }> {
  const statement = prepared(db, orderSearchQuery(search));
  // The person's handle is checked in the same round trip as the search.
  const [found, person] = await db.batch(
    search.person === undefined ? [statement] : [statement, db.prepare("SELECT id FROM user WHERE handle = ?1").bind(search.person)],
  );
  if (person && person.results.length === 0) throw new ApiError("NOT_FOUND", "No Paydesk account has that handle.", "person");
  const rows = (found?.results ?? []) as FoundRow[];
  const page = rows.slice(0, orderSearchPageSize);
  const last = page.at(-1);
  return {
    orders: page.map((row) => ({ ...orderFromRow(row), person: personRefOf(row.person_id, row.person_handle, row.person_display_name) })),
    next: rows.length > orderSearchPageSize && last ? { createdAt: last.created_at, id: last.id } : null,
  };
}
