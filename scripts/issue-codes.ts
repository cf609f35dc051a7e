/**
 * `npm run codes -- --value 100.00 --count 10 [--days 365] [--persist-to DIR]`
 * Issues prepaid codes into the local D1 that `npm run dev` uses, and prints them.
 * Only their hashes are stored; this is the only time the codes are shown.
 * (Deployed origins issue codes in the back office, POST /api/ops/code-batches, or through
 * POST /api/admin/codes with ADMIN_TOKEN.)
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { formatCode } from "#contract/codes";
import { codeHash, newCode } from "#origin/codes/code-values";

/** "100.00" → 10000 fen; money is never a float. */
export function fenFromYuan(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const { values } = parseArgs({
    options: {
      value: { type: "string" },
      count: { type: "string", default: "1" },
      days: { type: "string", default: "365" },
      "persist-to": { type: "string", default: ".wrangler/state" },
    },
  });
  const value = fenFromYuan(values.value ?? "");
  if (value === null || value < 1 || value > 100_000_000) fail("--value is the code's value in yuan, e.g. 100.00 (at most 1000000.00).");
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1 || count > 1000) fail("--count is a whole number from 1 to 1000.");
  const days = Number(values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3650) fail("--days is a whole number from 1 to 3650.");

  const now = Date.now();
  const expiresAt = now + days * 86_400_000;
  const batch = `batch_${crypto.randomUUID()}`;
  const codes = Array.from({ length: count }, newCode);
  const rows = await Promise.all(codes.map(async (code) => `('${await codeHash(code)}', ${value}, ${expiresAt}, ${now}, '${batch}')`));
  // The batch's row first (migration 0018 refuses codes without one), and the audit row of
  // the command line (docs/decisions/012-operators-and-audit.md), in one command.
  const sql = [
    `INSERT INTO code_batch (id, value, count, note, expires_at, issued_by, issued_at) VALUES ('${batch}', ${value}, ${count}, NULL, ${expiresAt}, NULL, ${now})`,
    `INSERT INTO prepaid_code (code_hash, value, expires_at, created_at, batch) VALUES ${rows.join(", ")}`,
    `INSERT INTO audit_log (at, actor_kind, action, object_type, object_id, after, reason)
     VALUES (${now}, 'cli', 'codes.issue', 'code_batch', '${batch}', json_object('value', ${value}, 'count', ${count}, 'expiresAt', '${new Date(expiresAt).toISOString()}'), 'npm run codes')`,
  ].join(";\n");
  const result = spawnSync(
    process.platform === "win32" ? "npx.cmd" : "npx",
    [
      "wrangler",
      "d1",
      "execute",
      "DB",
      "--local",
      "-c",
      "workers/origin/wrangler.toml",
      "--persist-to",
      values["persist-to"],
      "--command",
      sql,
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
    },
  );
  if (result.status !== 0) fail("Writing the codes failed (is the local database migrated? `npm run db:migrate`).");
  console.log(`${count} code(s) of ¥${(value / 100).toFixed(2)}, valid until ${new Date(expiresAt).toISOString()} (${batch}):`);
  for (const code of codes) console.log(formatCode(code));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
