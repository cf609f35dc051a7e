/**
 * `npm run operator -- grant <handle> <role>` · `revoke <handle>` · `list`
 *   [--remote] [--persist-to DIR]
 * Gives a Paydesk account an operator role (support, finance or admin), takes it away, or
 * lists who holds one — in the local D1 that `npm run dev` uses, or with `--remote` in the
 * deployed one through wrangler. It is how the first admin is made; later grants happen in
 * the back office. Each change is written with its audit row (actor `cli`) in one batch
 * (docs/decisions/012-operators-and-audit.md).
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { operatorRoles } from "#origin/ops/roles";

const handlePattern = /^[a-z0-9_]{3,32}$/;

export type OperatorCommand = { kind: "grant"; handle: string; role: string } | { kind: "revoke"; handle: string } | { kind: "list" };

/** The command line's words as a command, or a message saying what is wrong. */
export function parseCommand(words: string[]): OperatorCommand | string {
  const [kind, handle, role] = words;
  if (kind === "list" && words.length === 1) return { kind };
  if ((kind === "grant" || kind === "revoke") && (!handle || !handlePattern.test(handle))) return "A handle has 3 to 32 of a–z, 0–9 and _.";
  if (kind === "grant" && words.length === 3 && role && (operatorRoles as readonly string[]).includes(role))
    return { kind, handle: handle ?? "", role };
  if (kind === "grant") return `The role is one of ${operatorRoles.join(", ")}.`;
  if (kind === "revoke" && words.length === 2) return { kind, handle: handle ?? "" };
  return "Usage: npm run operator -- grant <handle> <role> | revoke <handle> | list [--remote]";
}

/**
 * The statements for a command; the last one tells whether its account was found. Values are
 * inlined: handles and roles were checked against their patterns above, so none can end a string.
 */
export function commandSql(command: OperatorCommand, now: number): string[] {
  if (command.kind === "list") {
    return [
      `SELECT user.handle, operator_role.role, operator_role.granted_by, operator_role.granted_at FROM operator_role
       JOIN user ON user.id = operator_role.user_id ORDER BY operator_role.role, user.handle`,
    ];
  }
  const user = `(SELECT id FROM user WHERE handle = '${command.handle}')`;
  const before = `json_object('role', (SELECT role FROM operator_role WHERE user_id = ${user}))`;
  const audit = (action: string, after: string, beforeJson: string) =>
    `INSERT INTO audit_log (at, actor_kind, action, object_type, object_id, before, after, reason)
     SELECT ${now}, 'cli', '${action}', 'user', id, ${beforeJson}, ${after}, 'npm run operator' FROM user WHERE handle = '${command.handle}'`;
  if (command.kind === "grant") {
    return [
      audit("operator.grant", `json_object('role', '${command.role}')`, before),
      `INSERT INTO operator_role (user_id, role, granted_by, granted_at) SELECT id, '${command.role}', 'cli', ${now} FROM user WHERE handle = '${command.handle}'
       ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, granted_by = excluded.granted_by, granted_at = excluded.granted_at,
         request_id = NULL`,
      `SELECT count(*) AS found FROM user WHERE handle = '${command.handle}'`,
    ];
  }
  return [
    `INSERT INTO audit_log (at, actor_kind, action, object_type, object_id, before, after, reason)
     SELECT ${now}, 'cli', 'operator.revoke', 'user', user_id, json_object('role', role), json_object('role', NULL), 'npm run operator'
     FROM operator_role WHERE user_id = ${user}`,
    `DELETE FROM operator_role WHERE user_id = ${user}`,
    `SELECT changes() AS found`,
  ];
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { remote: { type: "boolean", default: false }, "persist-to": { type: "string", default: ".wrangler/state" } },
  });
  const command = parseCommand(positionals);
  if (typeof command === "string") fail(command);
  const where = values.remote ? ["--remote"] : ["--local", "--persist-to", values["persist-to"]];
  const result = spawnSync(
    process.platform === "win32" ? "npx.cmd" : "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      ...where,
      "-c",
      "workers/origin/wrangler.toml",
      "--json",
      "--command",
      commandSql(command, Date.now()).join(";\n"),
    ],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    },
  );
  if (result.status !== 0) fail("The database could not be changed (is it migrated? `npm run db:migrate`).");
  const results = JSON.parse(result.stdout) as { results?: Record<string, unknown>[] }[];
  const rows = results.at(-1)?.results ?? [];
  if (command.kind === "list") {
    for (const row of rows)
      console.log(`${row.handle}\t${row.role}\tgranted by ${row.granted_by} at ${new Date(Number(row.granted_at)).toISOString()}`);
    return;
  }
  if (Number(rows[0]?.found) === 0)
    fail(command.kind === "grant" ? `No Paydesk account has the handle ${command.handle}.` : `${command.handle} holds no operator role.`);
  console.log(
    command.kind === "grant" ? `${command.handle} is now ${command.role}.` : `${command.handle} holds no operator role any more.`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) main();
