import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fenFromYuan } from "./issue-codes.ts";

describe("npm run codes", () => {
  it.each([
    ["100.00", 10_000],
    ["100", 10_000],
    ["0.5", 50],
    ["12.34", 1_234],
    ["1.234", null],
    ["-1", null],
    ["1e3", null],
    ["abc", null],
  ])("reads %s yuan as %s fen", (text, fen) => {
    expect(fenFromYuan(text)).toBe(fen);
  });

  const state = mkdtempSync(join(tmpdir(), "paydesk-codes-"));
  afterAll(() => rmSync(state, { recursive: true, force: true }));
  const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
  const wrangler = (...args: string[]) =>
    spawnSync("npx", ["wrangler", ...args, "--local", "-c", "workers/origin/wrangler.toml", "--persist-to", state], {
      env,
      encoding: "utf8",
    });

  it("issues codes into the local database and prints them once", () => {
    expect(wrangler("d1", "migrations", "apply", "DB").status).toBe(0);
    const run = spawnSync(process.execPath, ["scripts/issue-codes.ts", "--value", "1.50", "--count", "3", "--persist-to", state], {
      env,
      encoding: "utf8",
    });
    expect(run.status).toBe(0);
    const codes = run.stdout.split("\n").filter((line) => /^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/.test(line));
    expect(codes).toHaveLength(3);
    const stored = wrangler("d1", "execute", "DB", "--json", "--command", "SELECT value, count(*) AS n FROM prepaid_code GROUP BY value");
    expect(JSON.parse(stored.stdout)[0].results).toEqual([{ value: 150, n: 3 }]);
    // The batch's row, which the back office lists, and the command line's audit row.
    const batch = wrangler(
      "d1",
      "execute",
      "DB",
      "--json",
      "--command",
      "SELECT code_batch.value, code_batch.count, code_batch.issued_by, audit_log.actor_kind, audit_log.action FROM code_batch JOIN audit_log ON audit_log.object_id = code_batch.id",
    );
    expect(JSON.parse(batch.stdout)[0].results).toEqual([
      { value: 150, count: 3, issued_by: null, actor_kind: "cli", action: "codes.issue" },
    ]);
  }, 60_000);
});
