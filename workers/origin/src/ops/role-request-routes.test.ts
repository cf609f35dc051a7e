import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { beforeBatch, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import type { RoleRequest } from "#contract/ops-role-requests";
import { auditStatement } from "./audit";
import { askedRoleRequestId, decideOnRole, grantRole, roleGrantedByTwoAdmins } from "../../test/role-requests";

let origin: TestOrigin;
type Seeded = Awaited<ReturnType<typeof seedUser>>;
let asker: Seeded;
let approver: Seeded;

const json = async (answer: Response) => (await answer.json()) as Record<string, unknown> & { data: Record<string, unknown> };
const roleOf = (person: Seeded) =>
  env.DB.prepare("SELECT role FROM operator_role WHERE user_id = ?1").bind(person.id).first<string>("role");
const auditActions = async () =>
  (await env.DB.prepare("SELECT action, actor_id, before, after, reason FROM audit_log ORDER BY id").all()).results;
const operators = async (by: Seeded) =>
  (await json(await origin.call("/api/ops/operators", { method: "GET", headers: by.auth }))).data as unknown as {
    handle: string;
    role: string;
    grantedBy: string;
    approvedBy: string | null;
  }[];

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  asker = await seedOperator("op_asker", "admin", origin.now());
  approver = await seedOperator("op_approver", "admin", origin.now());
  origin.advance(1_000);
});

describe("a role that raises rights needs a second admin", () => {
  it("is granted by another admin's approval, in the asker's name, with both steps in the trail", async () => {
    const person = await seedUser("new_agent", origin.now());
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "finance", "Joins finance"));
    expect(await roleOf(person)).toBeNull();
    origin.advance(5_000);
    const approved = await decideOnRole(origin, approver, id, "approve", { note: "Checked with their manager" });
    expect(approved.status).toBe(200);
    expect((await json(approved)).data).toMatchObject({
      id,
      status: "approved",
      decidedBy: { handle: "op_approver" },
      decidedAt: new Date(origin.now()).toISOString(),
      decisionNote: "Checked with their manager",
    });
    expect(await roleOf(person)).toBe("finance");
    expect((await operators(asker)).find((row) => row.handle === "new_agent")).toEqual(
      expect.objectContaining({ role: "finance", grantedBy: "op_asker", approvedBy: "op_approver" }),
    );
    expect(await auditActions()).toEqual([
      {
        action: "operator.grant_request",
        actor_id: asker.id,
        before: '{"role":null}',
        after: JSON.stringify({ role: "finance", request: id }),
        reason: "Joins finance",
      },
      {
        action: "operator.grant_approve",
        actor_id: approver.id,
        before: JSON.stringify({ role: null, request: id }),
        after: JSON.stringify({ role: "finance", request: id }),
        reason: "Checked with their manager",
      },
    ]);
    // Decided once: a second decision hears so.
    const again = await decideOnRole(origin, approver, id, "reject", { reason: "Changed my mind" });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ code: "ROLE_REQUEST_DECIDED" });
  });

  it("raises a role someone holds over the role they held when asked", async () => {
    const agent = await seedOperator("op_agent", "support", origin.now());
    await roleGrantedByTwoAdmins(origin, asker, approver, "op_agent", "admin");
    expect(await roleOf(agent)).toBe("admin");
    expect((await auditActions()).map((row) => [row.action, row.before, row.after])).toEqual([
      ["operator.grant_request", '{"role":"support"}', expect.stringContaining('"role":"admin"')],
      ["operator.grant_approve", expect.stringContaining('"role":"support"'), expect.stringContaining('"role":"admin"')],
    ]);
  });

  it("is not decided by the asker, by an admin the asker made one, nor by one made since the request", async () => {
    const alt = await seedUser("asker_alt", origin.now());
    const late = await seedUser("late_admin", origin.now());
    const wanted = await seedUser("wanted", origin.now());
    // The asker's second account, made an admin at the asker's asking (another admin approved).
    await roleGrantedByTwoAdmins(origin, asker, approver, "asker_alt", "admin");
    origin.advance(1_000);
    const id = await askedRoleRequestId(await grantRole(origin, asker, "wanted", "admin"));
    origin.advance(1_000);
    await roleGrantedByTwoAdmins(origin, approver, asker, "late_admin", "admin");
    for (const [who, decider] of [
      ["the asker", asker],
      ["the asker's own admin", alt],
      ["an admin made since", late],
    ] as const) {
      for (const decision of ["approve", "reject"] as const) {
        const answer = await decideOnRole(origin, decider, id, decision, decision === "reject" ? { reason: "No" } : {});
        expect(answer.status, `${who} ${decision}`).toBe(403);
        expect(await json(answer)).toMatchObject({ code: "SECOND_OPERATOR_REQUIRED" });
      }
    }
    expect(await roleOf(wanted)).toBeNull();
    // The list tells each admin whether it is theirs to decide.
    const listedFor = async (reader: Seeded) =>
      (
        (await json(await origin.call("/api/ops/role-requests", { method: "GET", headers: reader.auth }))).data as unknown as RoleRequest[]
      ).find((row) => row.id === id);
    expect((await listedFor(alt))?.yoursToDecide).toBe(false);
    expect((await listedFor(asker))?.yoursToDecide).toBe(false);
    expect((await listedFor(approver))?.yoursToDecide).toBe(true);
    // The database says the same, whatever the route, for approving and rejecting.
    for (const set of ["status = 'approved'", "status = 'rejected', decision_note = 'no'"]) {
      await expect(
        env.DB.prepare(`UPDATE role_request SET ${set}, decided_by = ?1, decided_at = ?2 WHERE id = ?3`)
          .bind(alt.id, origin.now(), id)
          .run(),
      ).rejects.toThrow(/decided by a second admin/);
    }
    expect((await decideOnRole(origin, approver, id, "approve")).status).toBe(200);
  });

  it("is not decided by the admin who made the asker one, nor by anyone up that chain", async () => {
    const helper = await seedOperator("op_third", "admin", origin.now());
    const made = await seedUser("made_admin", origin.now());
    const madeByMade = await seedUser("made_by_made", origin.now());
    await seedUser("wanted", origin.now());
    // The asker asks for made_admin, which asks for made_by_made: a chain, each link approved by the helper.
    await roleGrantedByTwoAdmins(origin, asker, helper, "made_admin", "admin");
    await roleGrantedByTwoAdmins(origin, made, helper, "made_by_made", "admin");
    origin.advance(1_000);
    for (const [who, from] of [
      ["the account the asker made", made],
      ["the account that account made", madeByMade],
    ] as const) {
      // Whoever down the chain asks, the asker up it is no second admin, nor the other way.
      const id = await askedRoleRequestId(await grantRole(origin, from, "wanted", "support"));
      const answer = await decideOnRole(origin, asker, id, "approve");
      expect(answer.status, who).toBe(403);
      expect(await json(answer)).toMatchObject({ code: "SECOND_OPERATOR_REQUIRED" });
      // The database says the same, whatever the route.
      await expect(
        env.DB.prepare("UPDATE role_request SET status = 'approved', decided_by = ?1, decided_at = ?2 WHERE id = ?3")
          .bind(asker.id, origin.now(), id)
          .run(),
      ).rejects.toThrow(/decided by a second admin/);
      expect((await decideOnRole(origin, helper, id, "reject", { reason: "Next" })).status).toBe(200);
    }
    const asked = await askedRoleRequestId(await grantRole(origin, asker, "wanted", "support"));
    expect((await decideOnRole(origin, madeByMade, asked, "approve")).status).toBe(403);
    // Someone outside the chain decides.
    expect((await decideOnRole(origin, approver, asked, "approve")).status).toBe(200);
  });

  it("is rejected with a reason, and then nothing is granted", async () => {
    const person = await seedUser("new_agent", origin.now());
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "support"));
    const noReason = await decideOnRole(origin, approver, id, "reject", {});
    expect(noReason.status).toBe(400);
    expect(await json(noReason)).toMatchObject({ field: "reason" });
    const rejected = await decideOnRole(origin, approver, id, "reject", { reason: "Not on the team" });
    expect(rejected.status).toBe(200);
    expect((await json(rejected)).data).toMatchObject({ status: "rejected", decisionNote: "Not on the team" });
    expect(await roleOf(person)).toBeNull();
    const late = await decideOnRole(origin, approver, id, "approve");
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ code: "ROLE_REQUEST_DECIDED" });
    expect(await roleOf(person)).toBeNull();
  });

  it("closes after a day, when the asker is no longer an unlocked admin, or when the person's role changed", async () => {
    const person = await seedUser("new_agent", origin.now());
    const closedSeen: (string | null | undefined)[] = [];
    const closedWith = async (change: () => Promise<unknown>, restore: () => Promise<unknown>) => {
      const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "finance"));
      await change();
      const answer = await decideOnRole(origin, approver, id, "approve");
      expect(answer.status).toBe(409);
      const body = await json(answer);
      expect(body).toMatchObject({ code: "ROLE_REQUEST_CLOSED" });
      const listed = (await json(await origin.call("/api/ops/role-requests", { method: "GET", headers: approver.auth })))
        .data as unknown as RoleRequest[];
      expect(listed.find((row) => row.id === id)).toMatchObject({ status: "awaiting_approval", yoursToDecide: true });
      closedSeen.push(listed.find((row) => row.id === id)?.closed);
      await restore();
      // Rejected, so the next may be asked.
      expect((await decideOnRole(origin, approver, id, "reject", { reason: "Closed" })).status).toBe(200);
      return body.message;
    };
    const nothing = async () => {};
    expect(await closedWith(async () => origin.advance(86_400_000), nothing)).toMatch(/a day/);
    expect(
      await closedWith(
        () => env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), asker.id).run(),
        () => env.DB.prepare("UPDATE user SET locked_at = NULL WHERE id = ?1").bind(asker.id).run(),
      ),
    ).toMatch(/no longer an admin/);
    expect(
      await closedWith(
        () => env.DB.prepare("UPDATE operator_role SET role = 'finance', granted_by = 'cli' WHERE user_id = ?1").bind(asker.id).run(),
        () => env.DB.prepare("UPDATE operator_role SET role = 'admin', granted_by = 'cli' WHERE user_id = ?1").bind(asker.id).run(),
      ),
    ).toMatch(/no longer an admin/);
    expect(
      await closedWith(
        () =>
          env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'support', 'cli', 0)")
            .bind(person.id)
            .run(),
        () => env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(person.id).run(),
      ),
    ).toMatch(/role has changed/);
    expect(closedSeen).toEqual(["day_passed", "asker_not_admin", "asker_not_admin", "role_changed"]);
    expect(await roleOf(person)).toBeNull();
  });

  it("is one open request a person: a second ask, or two at once, hears ROLE_REQUEST_OPEN", async () => {
    await seedUser("new_agent", origin.now());
    const third = await seedOperator("op_third", "admin", origin.now());
    const asked = await origin.call("/api/ops/operators", {
      body: { handle: "new_agent", role: "admin", reason: "Leads" },
      headers: { ...asker.auth, "Idempotency-Key": "ask-at-once" },
      db: beforeBatch(1, () => grantRole(origin, third, "new_agent", "support")),
    });
    expect(asked.status).toBe(409);
    expect(await json(asked)).toMatchObject({ code: "ROLE_REQUEST_OPEN", field: "handle" });
    const second = await grantRole(origin, approver, "new_agent", "finance");
    expect(second.status).toBe(409);
    expect(await json(second)).toMatchObject({ code: "ROLE_REQUEST_OPEN" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM role_request").first<number>("n")).toBe(1);
    // Once that one is decided, another may be asked for.
    const [open] = (await json(await origin.call("/api/ops/role-requests", { method: "GET", headers: asker.auth }))).data as unknown as {
      id: string;
    }[];
    expect((await decideOnRole(origin, asker, open?.id ?? "", "reject", { reason: "Not yet" })).status).toBe(200);
    expect((await grantRole(origin, approver, "new_agent", "finance")).status).toBe(202);
  });

  it("of two admins deciding at once, the one whose batch lands second hears ROLE_REQUEST_DECIDED", async () => {
    const third = await seedOperator("op_third", "admin", origin.now());
    const person = await seedUser("new_agent", origin.now());
    origin.advance(1_000);
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "admin"));
    const late = await origin.call(`/api/ops/role-requests/${id}/approve`, {
      body: {},
      headers: { ...approver.auth, "Idempotency-Key": "late-approve" },
      db: beforeBatch(1, () => decideOnRole(origin, third, id, "reject", { reason: "Not convinced" })),
    });
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ code: "ROLE_REQUEST_DECIDED" });
    expect(await roleOf(person)).toBeNull();
  });

  it("of two admins approving at once, one grants the role and the other hears ROLE_REQUEST_DECIDED", async () => {
    const third = await seedOperator("op_third", "admin", origin.now());
    const person = await seedUser("new_agent", origin.now());
    origin.advance(1_000);
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "finance"));
    const late = await origin.call(`/api/ops/role-requests/${id}/approve`, {
      body: {},
      headers: { ...approver.auth, "Idempotency-Key": "late-approve" },
      db: beforeBatch(1, () => decideOnRole(origin, third, id, "approve")),
    });
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ code: "ROLE_REQUEST_DECIDED" });
    expect(await roleOf(person)).toBe("finance");
    expect((await auditActions()).filter((row) => row.action === "operator.grant_approve")).toHaveLength(1);
  });

  it("hears 403, not a 500, when a grant links the deciding admin to the asker between the route's check and the batch", async () => {
    const person = await seedUser("new_agent", origin.now());
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "finance"));
    const linked = beforeBatch(1, () =>
      env.DB.prepare("INSERT INTO operator_grant (user_id, granter_id, role, at) VALUES (?1, ?2, 'admin', ?3)")
        .bind(approver.id, asker.id, origin.now())
        .run(),
    );
    const answer = await origin.call(`/api/ops/role-requests/${id}/approve`, {
      body: {},
      headers: { ...approver.auth, "Idempotency-Key": "approve-linked" },
      db: linked,
    });
    expect(answer.status).toBe(403);
    expect(await json(answer)).toMatchObject({ code: "SECOND_OPERATOR_REQUIRED" });
    expect(await roleOf(person)).toBeNull();
  });

  it("lists the requests for admins, and answers an unknown or malformed id", async () => {
    await seedUser("new_agent", origin.now());
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "support"));
    const listed = await json(await origin.call("/api/ops/role-requests", { method: "GET", headers: approver.auth }));
    expect((listed.data as unknown as { id: string }[]).map((row) => row.id)).toEqual([id]);
    const unknown = await decideOnRole(origin, approver, "rrq_00000000-0000-4000-8000-000000000000", "approve");
    expect(unknown.status).toBe(404);
    const malformed = await decideOnRole(origin, approver, "not-a-request", "approve");
    expect(malformed.status).toBe(400);
    expect(await json(malformed)).toMatchObject({ field: "id" });
  });
});

describe("the database holds the rule", () => {
  it("refuses a role that raises rights without an approved request, and a role granted again", async () => {
    const person = await seedUser("new_agent", origin.now());
    await expect(
      env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'support', 'op_asker', ?2)")
        .bind(person.id, origin.now())
        .run(),
    ).rejects.toThrow(/granted by a second admin's approval/);
    const agent = await seedOperator("op_agent", "support", origin.now());
    await expect(
      env.DB.prepare("UPDATE operator_role SET role = 'admin', granted_by = 'op_asker' WHERE user_id = ?1").bind(agent.id).run(),
    ).rejects.toThrow(/granted by a second admin's approval/);
    // Rewriting who granted a role kept would wash it for the second-admin rules.
    await expect(
      env.DB.prepare("UPDATE operator_role SET granted_by = 'op_approver' WHERE user_id = ?1").bind(agent.id).run(),
    ).rejects.toThrow(/a role kept is not granted again/);
    // An approval grants at its own moment only: it grants nothing later.
    const id = await askedRoleRequestId(await grantRole(origin, asker, "new_agent", "support"));
    expect((await decideOnRole(origin, approver, id, "approve")).status).toBe(200);
    await env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(person.id).run();
    await expect(
      env.DB.prepare(
        "INSERT INTO operator_role (user_id, role, granted_by, granted_at, request_id) VALUES (?1, 'support', 'op_asker', ?2, ?3)",
      )
        .bind(person.id, origin.now() + 1, id)
        .run(),
    ).rejects.toThrow(/granted by a second admin's approval/);
    // Nor at its own moment again: the history holds each approval once.
    const decidedAt = await env.DB.prepare("SELECT decided_at FROM role_request WHERE id = ?1").bind(id).first<number>("decided_at");
    await expect(
      env.DB.prepare(
        "INSERT INTO operator_role (user_id, role, granted_by, granted_at, request_id) VALUES (?1, 'support', 'op_asker', ?2, ?3)",
      )
        .bind(person.id, decidedAt, id)
        .run(),
    ).rejects.toThrow(/append-only/);
    // A row of the history is not replaced, and the command line names no request.
    await expect(
      env.DB.prepare(
        "INSERT OR REPLACE INTO operator_grant (id, user_id, granter_id, role, at) SELECT id, user_id, ?1, role, at FROM operator_grant",
      )
        .bind(approver.id)
        .run(),
    ).rejects.toThrow(/append-only/);
    await expect(
      env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at, request_id) VALUES (?1, 'support', 'cli', 0, ?2)")
        .bind(person.id, id)
        .run(),
    ).rejects.toThrow(/the command line grants without a request/);
    // A role is not moved to another account, and the command line names no approver.
    await expect(
      env.DB.prepare("UPDATE operator_role SET user_id = ?1 WHERE user_id = ?2").bind(person.id, agent.id).run(),
    ).rejects.toThrow(/not moved to another account/);
    await roleGrantedByTwoAdmins(origin, asker, approver, "new_agent", "support");
    await expect(
      env.DB.prepare("UPDATE operator_role SET granted_by = 'cli', role = 'finance' WHERE user_id = ?1").bind(person.id).run(),
    ).rejects.toThrow(/the command line grants without a request/);
    // The history of grants holds the approved ones, and is never changed or deleted.
    const history = await env.DB.prepare("SELECT user_id, granter_id, role FROM operator_grant ORDER BY id").all();
    expect(history.results).toEqual([
      { user_id: person.id, granter_id: asker.id, role: "support" },
      { user_id: person.id, granter_id: asker.id, role: "support" },
    ]);
    await expect(env.DB.prepare("UPDATE operator_grant SET granter_id = ?1").bind(approver.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM operator_grant").run()).rejects.toThrow(/append-only/);
    // Lowering is one admin's act; the command line is the break-glass tool.
    await env.DB.prepare("UPDATE operator_role SET role = 'support', granted_by = 'op_asker' WHERE user_id = ?1").bind(asker.id).run();
    await env.DB.prepare("UPDATE operator_role SET role = 'admin', granted_by = 'cli' WHERE user_id = ?1").bind(asker.id).run();
  });

  it("fills the history, when migrated, with every raise the audit trail holds and no other change of role", async () => {
    const [a, c] = [asker, approver];
    const b = await seedUser("made_admin", origin.now());
    const d = await seedUser("lowered", origin.now());
    const row = (actor: Seeded, object: Seeded, before: string | null, after: string) =>
      auditStatement(env.DB, {
        actor: { kind: "operator", userId: actor.id, role: "admin" },
        action: "operator.grant",
        object: { type: "user", id: object.id },
        before: { role: before },
        after: { role: after },
        reason: "Before decision 063",
        at: origin.now(),
      });
    await env.DB.batch([
      row(a, b, null, "admin"),
      row(a, b, "admin", "admin"),
      row(c, d, "admin", "support"),
      row(c, d, "support", "finance"),
    ]);
    const migration = env.TEST_MIGRATIONS.find((each) => each.name.startsWith("0041_"));
    const seed = migration?.queries.find((query) => query.includes("INSERT INTO operator_grant") && query.includes("FROM audit_log"));
    expect(seed).toBeDefined();
    await env.DB.prepare(seed ?? "").run();
    const history = await env.DB.prepare("SELECT user_id, granter_id, role FROM operator_grant ORDER BY user_id, role").all();
    expect(history.results).toEqual(
      [
        { user_id: b.id, granter_id: a.id, role: "admin" },
        { user_id: d.id, granter_id: c.id, role: "finance" },
      ].sort((x, y) => x.user_id.localeCompare(y.user_id)),
    );
  });

  it("keeps the handle cli, which the command line's grants name, from every account", async () => {
    const registered = await origin.call("/api/user/register", {
      body: { handle: "cli", displayName: "Command Line", password: "a long enough password" },
      headers: { "Idempotency-Key": "register-cli" },
    });
    expect(registered.status).toBe(409);
    expect(await json(registered)).toMatchObject({ code: "HANDLE_TAKEN", field: "handle" });
    await expect(env.DB.prepare("UPDATE user SET handle = 'cli' WHERE id = ?1").bind(asker.id).run()).rejects.toThrow(
      /kept for the command line/,
    );
  });

  it("refuses a request that is not a raise, stale, or asked by a non-admin, a decision by its asker or moved backwards, and a deletion", async () => {
    const agent = await seedOperator("op_agent", "finance", origin.now());
    const insert = (id: string, userId: string, role: string, roleBefore: string | null, by = asker.id) =>
      env.DB.prepare(
        `INSERT INTO role_request (id, user_id, role, role_before, reason, status, requested_by, requested_at, open_until)
         VALUES (?1, ?2, ?3, ?4, 'r', 'awaiting_approval', ?5, ?6, ?7)`,
      )
        .bind(id, userId, role, roleBefore, by, origin.now(), origin.now() + 1_000)
        .run();
    const person = await seedUser("new_agent", origin.now());
    await expect(insert("rrq_lower", agent.id, "support", "finance")).rejects.toThrow(/CHECK/);
    await expect(insert("rrq_stale", agent.id, "admin", "support")).rejects.toThrow(/over the role held/);
    await expect(insert("rrq_by_finance", person.id, "support", null, agent.id)).rejects.toThrow(/asked by an admin/);
    await insert("rrq_fine", agent.id, "admin", "finance");
    await expect(
      env.DB.prepare("UPDATE role_request SET status = 'approved', decided_by = ?1, decided_at = ?2 WHERE id = 'rrq_fine'")
        .bind(asker.id, origin.now())
        .run(),
    ).rejects.toThrow(/CHECK/);
    await env.DB.prepare(
      "UPDATE role_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = 'no' WHERE id = 'rrq_fine'",
    )
      .bind(approver.id, origin.now())
      .run();
    await expect(
      env.DB.prepare(
        "UPDATE role_request SET status = 'awaiting_approval', decided_by = NULL, decided_at = NULL, decision_note = NULL WHERE id = 'rrq_fine'",
      ).run(),
    ).rejects.toThrow(/does not change/);
    await expect(env.DB.prepare("DELETE FROM role_request").run()).rejects.toThrow(/kept/);
  });
});
