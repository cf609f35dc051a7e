import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCommand } from "./operator.ts";

describe("npm run operator", () => {
  it.each([
    [["grant", "li_wei", "admin"], { kind: "grant", handle: "li_wei", role: "admin" }],
    [["revoke", "li_wei"], { kind: "revoke", handle: "li_wei" }],
    [["list"], { kind: "list" }],
  ])("reads %j", (words, command) => {
    expect(parseCommand(words)).toEqual(command);
  });

  it.each([
    [["grant", "li_wei", "root"], /role is one of support, finance, admin/],
    [["grant", "Li'Wei", "admin"], /handle has 3 to 32/],
    [["grant", "li_wei"], /role is one of/],
    [["revoke"], /handle has 3 to 32/],
    [["revoke", "li_wei", "extra"], /Usage/],
    [[], /Usage/],
  ])("refuses %j", (words, message) => {
    expect(parseCommand(words)).toMatch(message);
  });

  const state = mkdtempSync(join(tmpdir(), "paydesk-operator-"));
  afterAll(() => rmSync(state, { recursive: true, force: true }));
  const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };
  const wrangler = (...args: string[]) =>
    spawnSync("npx", ["wrangler", ...args, "--local", "-c", "workers/origin/wrangler.toml", "--persist-to", state], {
      env,
      encoding: "utf8",
    });
  const query = (sql: string) => JSON.parse(wrangler("d1", "execute", "DB", "--json", "--command", sql).stdout)[0].results;
  const operator = (...words: string[]) =>
    spawnSync(process.execPath, ["scripts/operator.ts", ...words, "--persist-to", state], { env, encoding: "utf8" });

  it("grants the first admin in the local database, with its audit row, and takes the role away again", () => {
    expect(wrangler("d1", "migrations", "apply", "DB").status).toBe(0);
    expect(
      wrangler(
        "d1",
        "execute",
        "DB",
        "--command",
        "INSERT INTO user (id, handle, display_name, created_at) VALUES ('usr_1', 'first_admin', 'First', 0)",
      ).status,
    ).toBe(0);

    const granted = operator("grant", "first_admin", "admin");
    expect(granted.status).toBe(0);
    expect(granted.stdout).toContain("first_admin is now admin.");
    expect(query("SELECT user_id, role, granted_by FROM operator_role")).toEqual([{ user_id: "usr_1", role: "admin", granted_by: "cli" }]);
    expect(operator("list").stdout).toMatch(/^first_admin\tadmin\tgranted by cli/m);

    const revoked = operator("revoke", "first_admin");
    expect(revoked.status).toBe(0);
    expect(query("SELECT count(*) AS n FROM operator_role")).toEqual([{ n: 0 }]);
    expect(query("SELECT actor_kind, action, object_id, before, after FROM audit_log ORDER BY id")).toEqual([
      { actor_kind: "cli", action: "operator.grant", object_id: "usr_1", before: '{"role":null}', after: '{"role":"admin"}' },
      { actor_kind: "cli", action: "operator.revoke", object_id: "usr_1", before: '{"role":"admin"}', after: '{"role":null}' },
    ]);

    const unknown = operator("grant", "nobody_here", "support");
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("No Paydesk account has the handle nobody_here.");
    expect(operator("revoke", "first_admin").status).toBe(2);
    expect(query("SELECT count(*) AS n FROM audit_log")).toEqual([{ n: 2 }]);
  }, 120_000);
});
