import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { beforeBatch, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";

/** docs/decisions/056-operator-acts-as-read.md: an operator's action commits only under the role the door read. */
let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let admin: Person;
let otherAdmin: Person;
let person: Person;

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  admin = await seedOperator("op_acting", "admin", origin.now());
  otherAdmin = await seedOperator("op_other", "admin", origin.now());
  person = await seedUser("a_person", origin.now());
});

const keyed = (auth: Record<string, string>) => ({ ...auth, "Idempotency-Key": `ops-${crypto.randomUUID()}` });
const reason = { reason: "Reported stolen phone." };

/** `by` locks `whom`, with `meanwhile` landing after the door let them in and before the action's batch. */
const lock = (by: Person, whom: Person, meanwhile?: () => unknown) =>
  origin.call(`/api/ops/people/${whom.id}/lock`, {
    body: reason,
    headers: keyed(by.auth),
    ...(meanwhile ? { db: beforeBatch(1, meanwhile) } : {}),
  });

const lockedAt = (whom: Person) =>
  env.DB.prepare("SELECT locked_at FROM user WHERE id = ?1").bind(whom.id).first<number | null>("locked_at");
const roleOf = (whom: Person) => env.DB.prepare("SELECT role FROM operator_role WHERE user_id = ?1").bind(whom.id).first<string>("role");
const auditRows = async () => (await env.DB.prepare("SELECT action, actor_id, actor_role FROM audit_log ORDER BY id").all()).results;

describe("an operator's action under a role that changed meanwhile", () => {
  it("is refused whole when another admin demotes the operator between the door and the batch", async () => {
    const answer = await lock(admin, person, () =>
      env.DB.prepare("UPDATE operator_role SET role = 'finance' WHERE user_id = ?1").bind(admin.id).run(),
    );
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("nothing was done") });
    expect(await lockedAt(person)).toBeNull();
    expect(await auditRows()).toEqual([]);
  });

  it("is refused whole when the operator's role is revoked, or their account locked, meanwhile", async () => {
    const revoked = await lock(admin, person, () => env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(admin.id).run());
    expect(revoked.status).toBe(403);
    const locked = await lock(otherAdmin, person, () =>
      env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), otherAdmin.id).run(),
    );
    expect(locked.status).toBe(403);
    expect(await lockedAt(person)).toBeNull();
    expect(await auditRows()).toEqual([]);
  });

  it("commits under the role it was asked under", async () => {
    expect((await lock(admin, person)).status).toBe(200);
    expect(await lockedAt(person)).not.toBeNull();
    expect(await auditRows()).toEqual([{ action: "person.lock", actor_id: admin.id, actor_role: "admin" }]);
  });

  it("refuses an audit row written under a role the operator does not hold, whatever writes it", async () => {
    await expect(
      env.DB.prepare(
        "INSERT INTO audit_log (at, actor_kind, actor_id, actor_role, action, object_type, object_id) VALUES (1, 'operator', ?1, 'support', 'x', 'user', 'x')",
      )
        .bind(admin.id)
        .run(),
    ).rejects.toThrow(/operator_no_longer_acts/);
  });

  it("keeps the row of an ask to WeChat Pay, written after WeChat Pay's answer was settled as the cron would", async () => {
    await env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(admin.id).run();
    const row = (action: string) =>
      env.DB.prepare(
        "INSERT INTO audit_log (at, actor_kind, actor_id, actor_role, action, object_type, object_id) VALUES (1, 'operator', ?1, 'admin', ?2, 'order', 'ord_x')",
      )
        .bind(admin.id, action)
        .run();
    await expect(row("order.ask_wechat_pay")).resolves.toBeTruthy();
    await expect(row("order.refund")).rejects.toThrow(/operator_no_longer_acts/);
  });
});

describe("an admin's action on their own role or account, another admin remaining", () => {
  // The row is written first in the batch, while the role it was done under still stands.
  it("demotes them", async () => {
    const demoted = await origin.call("/api/ops/operators", {
      body: { handle: "op_acting", role: "finance", reason: "Stepping back to finance." },
      headers: keyed(admin.auth),
    });
    expect(demoted.status).toBe(200);
    expect(await roleOf(admin)).toBe("finance");
    expect(await auditRows()).toEqual([{ action: "operator.grant", actor_id: admin.id, actor_role: "admin" }]);
  });

  it("revokes their role", async () => {
    const revoked = await origin.call("/api/ops/operators/op_acting/revoke", { body: { reason: "Leaving." }, headers: keyed(admin.auth) });
    expect(revoked.status).toBe(200);
    expect(await roleOf(admin)).toBeNull();
    expect(await auditRows()).toEqual([{ action: "operator.revoke", actor_id: admin.id, actor_role: "admin" }]);
  });

  it("locks their account", async () => {
    expect((await lock(admin, admin)).status).toBe(200);
    expect(await lockedAt(admin)).not.toBeNull();
    expect(await auditRows()).toEqual([{ action: "person.lock", actor_id: admin.id, actor_role: "admin" }]);
  });
});
