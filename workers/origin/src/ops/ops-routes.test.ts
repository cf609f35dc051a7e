import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { beforeBatch, issueCodes, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import type { OperatorRole } from "./roles";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;

const operator = (handle: string, role: OperatorRole): Promise<Person> => seedOperator(handle, role, origin.now());

/** Well-formed ids that name nothing: the door answers before anything is looked up. */
const sampleTicket = "tkt_00000000-0000-4000-8000-000000000000";
const sampleBatch = "batch_00000000-0000-4000-8000-000000000000";
const sampleRoleRequest = "rrq_00000000-0000-4000-8000-000000000000";

const keyed = (auth: Record<string, string>, key = `ops-${crypto.randomUUID()}`) => ({
  ...auth,
  "Idempotency-Key": key,
  "X-Request-Id": "req-test-1",
});
const grant = (by: Person, body: object, key?: string) => origin.call("/api/ops/operators", { body, headers: keyed(by.auth, key) });
const revoke = (by: Person, handle: string, key?: string) =>
  origin.call(`/api/ops/operators/${handle}/revoke`, { body: { reason: "Left the team." }, headers: keyed(by.auth, key) });
const roleOf = (person: Person) =>
  env.DB.prepare("SELECT role FROM operator_role WHERE user_id = ?1").bind(person.id).first<string>("role");
const auditRows = () =>
  env.DB.prepare("SELECT * FROM audit_log ORDER BY id")
    .all()
    .then((result) => result.results);

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
});

describe("the back office's door", () => {
  it("answers 404 to anyone who is not an operator, signed out or in, exactly as an unknown path", async () => {
    const person = await seedUser("plain_person", origin.now());
    const unknown = await origin.call("/api/ops/nothing-here", { method: "GET", headers: person.auth });
    for (const headers of [{}, person.auth, { Authorization: "Bearer not-a-real-token-at-all" }]) {
      for (const [method, path] of [
        ["GET", "/api/ops/me"],
        ["GET", "/api/ops/operators"],
        ["POST", "/api/ops/operators"],
        ["POST", "/api/ops/operators/plain_person/revoke"],
        ["GET", "/api/ops/role-requests"],
        ["POST", `/api/ops/role-requests/${sampleRoleRequest}/approve`],
        ["POST", `/api/ops/role-requests/${sampleRoleRequest}/reject`],
        ["GET", "/api/ops/tickets"],
        ["GET", `/api/ops/tickets/${sampleTicket}`],
        ["POST", `/api/ops/tickets/${sampleTicket}/assign`],
        ["POST", `/api/ops/tickets/${sampleTicket}/messages`],
        ["POST", `/api/ops/tickets/${sampleTicket}/close`],
        ["GET", "/api/ops/code-batches"],
        ["POST", "/api/ops/code-batches"],
        ["POST", `/api/ops/code-batches/${sampleBatch}/void`],
      ] as const) {
        const answer = await origin.call(path, { method, headers: keyed(headers), body: method === "POST" ? {} : undefined });
        expect(answer.status, `${method} ${path}`).toBe(404);
        expect(((await answer.json()) as { code: string }).code).toBe(((await unknown.clone().json()) as { code: string }).code);
      }
    }
  });

  it("lets each role through exactly the doors its rights open (the route × role matrix)", async () => {
    const people = {
      none: await seedUser("no_role", origin.now()),
      support: await operator("op_support", "support"),
      finance: await operator("op_finance", "finance"),
      admin: await operator("op_admin", "admin"),
    };
    const target = await seedUser("target_person", origin.now());
    const expected = {
      "GET /api/ops/me": { none: 404, support: 200, finance: 200, admin: 200 },
      "GET /api/ops/operators": { none: 404, support: 403, finance: 403, admin: 200 },
      // A role for someone without one is asked for: it waits for a second admin (decision 063).
      "POST /api/ops/operators": { none: 404, support: 403, finance: 403, admin: 202 },
      "GET /api/ops/role-requests": { none: 404, support: 403, finance: 403, admin: 200 },
      "POST /api/ops/operators/target_person/revoke": { none: 404, support: 403, finance: 403, admin: 200 },
      // The desk's and the code batches' own files test their doors on a ticket and a batch.
      "GET /api/ops/tickets": { none: 404, support: 200, finance: 200, admin: 200 },
      "GET /api/ops/code-batches": { none: 404, support: 403, finance: 200, admin: 200 },
      "POST /api/ops/code-batches": { none: 404, support: 403, finance: 201, admin: 201 },
    };
    for (const [door, byRole] of Object.entries(expected)) {
      for (const [who, status] of Object.entries(byRole)) {
        const [method, path] = door.split(" ") as [string, string];
        // The revoke needs a role to take away: granted afresh before each try.
        if (path.endsWith("/revoke")) {
          await env.DB.prepare(
            "INSERT OR REPLACE INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'support', 'cli', 0)",
          )
            .bind(target.id)
            .run();
        }
        const body =
          path === "/api/ops/operators" && method === "POST"
            ? { handle: "target_person", role: "support", reason: "Joins support." }
            : path === "/api/ops/code-batches"
              ? { value: 100, count: 1, expiresAt: new Date(origin.now() + 86_400_000).toISOString(), note: "Matrix." }
              : { reason: "Left." };
        const answer = await origin.call(path, {
          method,
          headers: keyed(people[who as keyof typeof people].auth),
          body: method === "POST" ? body : undefined,
        });
        expect(answer.status, `${door} as ${who}`).toBe(status);
      }
    }
  });

  it("tells an operator who they are and what their role allows", async () => {
    const finance = await operator("op_finance", "finance");
    const answer = await origin.call("/api/ops/me", { method: "GET", headers: finance.auth });
    expect(await answer.json()).toEqual({
      code: "SUCCESS",
      data: {
        handle: "op_finance",
        displayName: "Name of op_finance",
        role: "finance",
        rights: ["readPeople", "workTickets", "askWechatPay", "refund", "codes", "ledger", "readAudit"],
        awaitingYou: { refunds: 0, refundSettlements: 0, codeBatches: 0, recoveryLinks: 0, roles: 0 },
      },
    });
  });
});

describe("granting and revoking roles", () => {
  it("asks for a role that raises rights, granting nothing yet: 202 and an audit row in the same batch", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await seedUser("new_support", origin.now());
    const answer = await grant(admin, { handle: "new_support", role: "support", reason: "Joins the support team." });
    expect(answer.status).toBe(202);
    const { data } = (await answer.json()) as { data: { id: string } };
    expect(data).toEqual({
      id: expect.stringMatching(/^rrq_/),
      person: { handle: "new_support", displayName: "Name of new_support" },
      role: "support",
      roleBefore: null,
      reason: "Joins the support team.",
      status: "awaiting_approval",
      requestedBy: { handle: "op_admin", displayName: "Name of op_admin" },
      requestedAt: new Date(origin.now()).toISOString(),
      openUntil: new Date(origin.now() + 86_400_000).toISOString(),
      decidedBy: null,
      decidedAt: null,
      decisionNote: null,
      closed: null,
      yoursToDecide: false,
    });
    expect(await roleOf(person)).toBeNull();
    expect(await auditRows()).toEqual([
      expect.objectContaining({
        actor_kind: "operator",
        actor_id: admin.id,
        actor_role: "admin",
        action: "operator.grant_request",
        object_type: "user",
        object_id: person.id,
        before: '{"role":null}',
        after: JSON.stringify({ role: "support", request: data.id }),
        reason: "Joins the support team.",
        request_id: "req-test-1",
        at: origin.now(),
      }),
    ]);
  });

  it("lowers a role at once, with its audit row in the same batch, and refuses the role someone holds already", async () => {
    const admin = await operator("op_admin", "admin");
    const person = await operator("op_finance", "finance");
    const lowered = await grant(admin, { handle: "op_finance", role: "support", reason: "Moves to support." });
    expect(lowered.status).toBe(200);
    expect(await lowered.json()).toMatchObject({
      data: { handle: "op_finance", role: "support", grantedBy: "op_admin", approvedBy: null },
    });
    expect(await roleOf(person)).toBe("support");
    const again = await grant(admin, { handle: "op_finance", role: "support", reason: "Again." });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "ROLE_UNCHANGED", field: "role" });
    expect((await auditRows()).map((row) => [row.action, row.before, row.after, row.reason])).toEqual([
      ["operator.grant", '{"role":"finance"}', '{"role":"support"}', "Moves to support."],
    ]);
  });

  it("replays a retried grant without a second change or audit row", async () => {
    const admin = await operator("op_admin", "admin");
    await seedUser("new_support", origin.now());
    const body = { handle: "new_support", role: "finance", reason: "Moves to finance." };
    const first = await grant(admin, body, "grant-key-0001");
    const retry = await grant(admin, body, "grant-key-0001");
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
    expect(await auditRows()).toHaveLength(1);
  });

  it("refuses an unknown handle (404, field handle) and a missing reason (400)", async () => {
    const admin = await operator("op_admin", "admin");
    const unknown = await grant(admin, { handle: "nobody_here", role: "support", reason: "Why not." });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: "NOT_FOUND", field: "handle" });
    const noReason = await grant(admin, { handle: "op_admin", role: "support" });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toMatchObject({ field: "reason" });
    expect(await auditRows()).toEqual([]);
  });

  it("never leaves Paydesk without an admin, even when two admins demote each other at once", async () => {
    const alone = await operator("op_alone", "admin");
    const selfRevoke = await revoke(alone, "op_alone");
    expect(selfRevoke.status).toBe(409);
    expect(await selfRevoke.json()).toMatchObject({ code: "LAST_ADMIN" });
    const selfDemote = await grant(alone, { handle: "op_alone", role: "finance", reason: "Stepping back." });
    expect(selfDemote.status).toBe(409);
    expect(await roleOf(alone)).toBe("admin");
    expect(await auditRows()).toEqual([]);

    const other = await operator("op_other", "admin");
    const answers = await Promise.all([revoke(alone, "op_other"), revoke(other, "op_alone")]);
    // The second to commit is no admin by then: refused as an operator who lost the role (migration 0036).
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
    const admins = await env.DB.prepare("SELECT count(*) AS n FROM operator_role WHERE role = 'admin'").first<number>("n");
    expect(admins).toBe(1);
    expect(await auditRows()).toHaveLength(1);
  });

  it("of two admins changing one person's role at once, the second acts on what the first left: one audit row per effect", async () => {
    const first = await operator("op_first", "admin");
    const second = await operator("op_second", "admin");
    const bob = await operator("op_bob", "admin");
    // A lowering raced by another writes the role the other left as its "before".
    const lowered = await origin.call("/api/ops/operators", {
      body: { handle: "op_bob", role: "support", reason: "Moves to support." },
      headers: keyed(second.auth),
      db: beforeBatch(1, () => grant(first, { handle: "op_bob", role: "finance", reason: "Steps down to finance." })),
    });
    expect(lowered.status).toBe(200);
    expect(await roleOf(bob)).toBe("support");
    // The first admin's revoke commits after the second's read and before its batch.
    const revoked = await origin.call("/api/ops/operators/op_bob/revoke", {
      body: { reason: "Left the team." },
      headers: keyed(second.auth),
      db: beforeBatch(1, () => revoke(first, "op_bob")),
    });
    expect(revoked.status).toBe(404);
    expect(await roleOf(bob)).toBeNull();
    const rows = (await auditRows()).map((row) => [row.actor_id, row.action, row.before, row.after]);
    expect(rows).toEqual([
      [first.id, "operator.grant", '{"role":"admin"}', '{"role":"finance"}'],
      [second.id, "operator.grant", '{"role":"finance"}', '{"role":"support"}'],
      [first.id, "operator.revoke", '{"role":"support"}', '{"role":null}'],
    ]);
  });

  it("gives up with 409 ROLE_CHANGED, asking nothing, when the role keeps changing under an ask", async () => {
    const second = await operator("op_second", "admin");
    const bob = await operator("op_bob", "support");
    const roles = ["finance", "support", "finance"] as const;
    // Changed from the command line, which is outside the second-admin rule.
    const change = (index: number) => () =>
      env.DB.prepare("UPDATE operator_role SET role = ?1, granted_by = 'cli' WHERE user_id = ?2").bind(roles[index], bob.id).run();
    // Each of the second admin's attempts reads, then commits: a change lands before each commit.
    const busy = beforeBatch(1, change(0), beforeBatch(2, change(1), beforeBatch(3, change(2))));
    const asked = await origin.call("/api/ops/operators", {
      body: { handle: "op_bob", role: "admin", reason: "Leads the desk." },
      headers: keyed(second.auth),
      db: busy,
    });
    expect(asked.status).toBe(409);
    expect(await asked.json()).toMatchObject({ code: "ROLE_CHANGED" });
    expect(await roleOf(bob)).toBe("finance");
    expect(await auditRows()).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM role_request").first<number>("n")).toBe(0);
  });

  it("counts only admins who can act: a locked admin does not let the last unlocked one step down", async () => {
    const acting = await operator("op_acting", "admin");
    const locked = await operator("op_locked", "admin");
    await env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), locked.id).run();
    for (const answer of [
      await revoke(acting, "op_acting"),
      await grant(acting, { handle: "op_acting", role: "finance", reason: "Stepping back." }),
    ]) {
      expect(answer.status).toBe(409);
      expect(await answer.json()).toMatchObject({ code: "LAST_ADMIN" });
    }
    expect(await roleOf(acting)).toBe("admin");
    expect(await auditRows()).toEqual([]);
  });
});

describe("the audit trail", () => {
  it("cannot be edited or deleted", async () => {
    const admin = await operator("op_admin", "admin");
    await seedUser("new_support", origin.now());
    await grant(admin, { handle: "new_support", role: "support", reason: "Joins." });
    await expect(env.DB.prepare("UPDATE audit_log SET reason = 'changed'").run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM audit_log").run()).rejects.toThrow(/append-only/);
    expect(await auditRows()).toHaveLength(1);
  });

  it("records what ADMIN_TOKEN does as automation, in the batch of its effect", async () => {
    await issueCodes(origin, 500, 3);
    const [row] = (await auditRows()) as {
      actor_kind: string;
      actor_id: string | null;
      action: string;
      object_type: string;
      after: string;
    }[];
    expect(row).toMatchObject({ actor_kind: "automation", actor_id: null, action: "codes.issue", object_type: "code_batch" });
    expect(JSON.parse(row?.after ?? "{}")).toMatchObject({ value: 500, count: 3 });
  });
});
