import { peoplePageSize } from "#contract/ops-people";
import { personColumns, personJoins } from "./ops-rows";
import { likeLiteral, SqlConditions, type SqlQuery } from "./sql-conditions";

/**
 * People whose handle begins with `q`, whose display name contains it, or whose id is `q`,
 * by handle, after the handle `after`: one more than a page, to know whether another follows.
 *
 * Index: user.handle (its UNIQUE index) orders the scan and seeks past the cursor. A part of
 * a display name cannot be looked up by any index, so people are read in handle order until
 * the page is full; LIKE folds A–Z only, so other scripts match as typed (NFC, as stored).
 */
export function peopleSearchQuery({ q, after }: { q: string; after: string | null }): SqlQuery {
  const conditions = new SqlConditions();
  if (q !== "") {
    const literal = likeLiteral(q);
    conditions.add(
      "user.id = ? OR user.handle LIKE ? ESCAPE '\\' OR user.display_name LIKE ? ESCAPE '\\'",
      q,
      `${literal}%`,
      `%${literal}%`,
    );
  }
  if (after !== null) conditions.add("user.handle > ?", after);
  return {
    sql: `SELECT ${personColumns} FROM user ${personJoins} ${conditions.where} ORDER BY user.handle LIMIT ?`,
    values: [...conditions.values, peoplePageSize + 1],
  };
}
