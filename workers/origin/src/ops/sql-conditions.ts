/** A statement's SQL and the values bound to it, kept apart so tests can ask SQLite for its plan. */
export type SqlQuery = { sql: string; values: unknown[] };

export const prepared = (db: D1Database, query: SqlQuery): D1PreparedStatement => db.prepare(query.sql).bind(...query.values);

/**
 * A WHERE clause made of the filters a request gave, and only those. A condition written for
 * an absent filter (`?1 IS NULL OR status = ?1`) would keep SQLite from choosing the index
 * that serves the filters present, since a statement's plan is made before its values are
 * known. Values are always bound (`?`, in order), never written into the SQL.
 */
export class SqlConditions {
  readonly #clauses: string[] = [];
  readonly #values: unknown[] = [];

  /** `clause` with one `?` per value, in order. */
  add(clause: string, ...values: unknown[]): this {
    this.#clauses.push(clause);
    this.#values.push(...values);
    return this;
  }

  get where(): string {
    return this.#clauses.length === 0 ? "" : `WHERE ${this.#clauses.map((clause) => `(${clause})`).join(" AND ")}`;
  }

  get values(): unknown[] {
    return [...this.#values];
  }
}

/** `text` as a LIKE pattern that matches it literally: `%`, `_` and the escape itself escaped (with `ESCAPE '\'`). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
