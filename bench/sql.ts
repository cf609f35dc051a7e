/**
 * Splits a migration file into single statements for D1's batch(): D1's exec() takes one
 * statement per line, and a naive split on ";" breaks on comments such as
 * "-- integer minor units; STRICT rejects anything else".
 */
export function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = "";
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "-" && next === "-") {
      // Line comment: dropped.
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end + 1;
      current += "\n";
      continue;
    }
    if (ch === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end === -1 ? sql.length : end + 2;
      current += " ";
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      // Quoted literal or identifier; a doubled quote is an escaped quote.
      const close = ch === "[" ? "]" : ch;
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === close) {
          if (close !== "]" && sql[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ";") {
      // A trigger body holds its own statements: it ends at "END;".
      if (/^\s*CREATE\s+(TEMP\w*\s+)?TRIGGER\b/i.test(current) && !/\bEND\s*$/i.test(current)) {
        current += ch;
        i++;
        continue;
      }
      if (current.trim()) statements.push(current.trim());
      current = "";
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) statements.push(current.trim());
  return statements;
}
