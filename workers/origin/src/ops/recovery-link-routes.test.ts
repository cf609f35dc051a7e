import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { beforeBatch, resetDatabase, seedOperator, seedUser, testOrigin } from "../../test/origin-client";
import { askForRecoveryLink, decideOnRecoveryLink, issueRecoveryLink, recoveryLinkToken } from "../../test/recovery-links";
import { roleGrantedByTwoAdmins } from "../../test/role-requests";

// docs/decisions/062-recovery-links-need-a-second-admin.md
let origin = testOrigin();
type Seeded = Awaited<ReturnType<typeof seedUser>>;
let person: Seeded;
let asker: Seeded;
let approver: Seeded;

type Request = {
  id: string;
  status: string;
  decidedBy: { handle: string } | null;
  issuedAt: string | null;
  person: { id: string };
  yoursToDecide: boolean;
};
const json = async <T>(response: Response) => (await response.json()) as { code: string; field?: string; data: T };
/** Whether each listed request of the person is `by`'s to decide. */
const yoursToDecide = async (by: Seeded) =>
  (
    await json<Request[]>(await origin.call(`/api/ops/recovery-link-requests?personId=${person.id}`, { method: "GET", headers: by.auth }))
  ).data.map((request) => request.yoursToDecide);
const links = () => env.DB.prepare("SELECT count(*) AS n FROM recovery_link").first<number>("n");

async function asked(by = asker, personId = person.id): Promise<Request> {
  const response = await askForRecoveryLink(origin, by, personId);
  expect(response.status).toBe(201);
  return (await json<Request>(response)).data;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  person = await seedUser("locked_out", origin.now());
  asker = await seedOperator("ops_admin", "admin", origin.now());
  approver = await seedOperator("ops_admin_two", "admin", origin.now());
});

describe("a recovery link needs a second admin", () => {
  it("is asked for without a link, approved by another admin, and issued once to whoever asked", async () => {
    const request = await asked();
    expect(request).toMatchObject({ status: "awaiting_approval", decidedBy: null, issuedAt: null, person: { id: person.id } });
    expect(await links()).toBe(0);
    // The list says whose it is to decide: the other admin's, not the asker's.
    expect(await yoursToDecide(asker)).toEqual([false]);
    expect(await yoursToDecide(approver)).toEqual([true]);

    // Whoever asked neither decides nor issues before another admin approves.
    const selfApproved = await decideOnRecoveryLink(origin, asker, request.id, "approve");
    expect(selfApproved.status).toBe(403);
    expect(await json(selfApproved)).toMatchObject({ code: "SECOND_OPERATOR_REQUIRED" });
    const early = await issueRecoveryLink(origin, asker, request.id);
    expect(early.status).toBe(409);
    expect(await json(early)).toMatchObject({ code: "RECOVERY_REQUEST_NOT_APPROVED" });

    const approved = await decideOnRecoveryLink(origin, approver, request.id, "approve", { note: "Ticket 42 has the call" });
    expect(approved.status).toBe(200);
    expect((await json<Request>(approved)).data).toMatchObject({
      status: "approved",
      decidedBy: { handle: "ops_admin_two" },
      yoursToDecide: false,
    });
    expect(await yoursToDecide(approver)).toEqual([false]);
    // The approver never holds the link.
    const byApprover = await issueRecoveryLink(origin, approver, request.id);
    expect(byApprover.status).toBe(403);
    expect(await json(byApprover)).toMatchObject({ code: "REQUESTER_REQUIRED" });

    const issued = await issueRecoveryLink(origin, asker, request.id, "issue-once");
    expect(issued.status).toBe(201);
    const link = await recoveryLinkToken(issued);
    expect(link).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Shown once: a retry with the same key, or another issue, hears ALREADY_SHOWN and makes no second link.
    for (const again of [
      await issueRecoveryLink(origin, asker, request.id, "issue-once"),
      await issueRecoveryLink(origin, asker, request.id),
    ]) {
      expect(again.status).toBe(409);
      expect(await json(again)).toMatchObject({ code: "ALREADY_SHOWN" });
    }
    expect(await links()).toBe(1);
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM idempotency").all())).not.toContain(link);

    const used = await origin.call("/api/user/recover-with-link", { body: { link, newPassword: "recovered passphrase" } });
    expect(used.status).toBe(200);
    const listed = await origin.call(`/api/ops/recovery-link-requests?personId=${person.id}`, { method: "GET", headers: approver.auth });
    expect((await json<Request[]>(listed)).data).toMatchObject([{ id: request.id, status: "issued", issuedAt: expect.any(String) }]);
  });

  it("rejected with a reason, is never issued", async () => {
    const request = await asked();
    const noReason = await decideOnRecoveryLink(origin, approver, request.id, "reject", {});
    expect(noReason.status).toBe(400);
    expect(await json(noReason)).toMatchObject({ field: "reason" });
    const rejected = await decideOnRecoveryLink(origin, approver, request.id, "reject", { reason: "No video call on record" });
    expect(rejected.status).toBe(200);
    expect((await json<Request>(rejected)).data.status).toBe("rejected");
    const issued = await issueRecoveryLink(origin, asker, request.id);
    expect(issued.status).toBe(409);
    expect(await json(issued)).toMatchObject({ code: "RECOVERY_REQUEST_NOT_APPROVED" });
    expect(await links()).toBe(0);
  });

  it("is open for a day: past it, it is neither approved nor issued", async () => {
    const waiting = await asked();
    const approvedInTime = await asked();
    expect((await decideOnRecoveryLink(origin, approver, approvedInTime.id, "approve")).status).toBe(200);
    origin.advance(24 * 60 * 60_000);
    const late = await decideOnRecoveryLink(origin, approver, waiting.id, "approve");
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ code: "RECOVERY_REQUEST_CLOSED" });
    const lateIssue = await issueRecoveryLink(origin, asker, approvedInTime.id);
    expect(lateIssue.status).toBe(409);
    expect(await json(lateIssue)).toMatchObject({ code: "RECOVERY_REQUEST_CLOSED" });
    expect(await links()).toBe(0);
  });

  it("is an admin's, and never for one's own account: neither asked for nor decided on by its owner", async () => {
    for (const role of ["finance", "support"] as const) {
      const operator = await seedOperator(`ops_${role}`, role, origin.now());
      expect((await askForRecoveryLink(origin, operator, person.id)).status).toBe(403);
    }
    expect((await askForRecoveryLink(origin, person, asker.id)).status).toBe(404);
    const self = await askForRecoveryLink(origin, asker, asker.id);
    expect(self.status).toBe(403);
    expect(await json(self)).toMatchObject({ code: "NOT_FOR_YOURSELF" });
    // Another operator's account: whoever held the link would hold the role.
    const forOperator = await askForRecoveryLink(origin, asker, approver.id);
    expect(forOperator.status).toBe(409);
    expect(await json(forOperator)).toMatchObject({ code: "OPERATOR_ACCOUNT" });
    for (const role of ["finance", "support"] as const) {
      const operator = await seedOperator(`ops_${role}_two`, role, origin.now());
      const request = await asked();
      expect((await decideOnRecoveryLink(origin, operator, request.id, "approve")).status).toBe(403);
      expect((await origin.call("/api/ops/recovery-link-requests", { method: "GET", headers: operator.auth })).status).toBe(403);
    }
    const unknown = await askForRecoveryLink(origin, asker, "usr_nobody");
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toMatchObject({ field: "personId" });
    // The door that made a link with one admin is gone.
    const oneAdmin = await origin.call("/api/ops/recovery-links", {
      body: { personId: person.id, reason: "Video call" },
      headers: { ...asker.auth, "Idempotency-Key": "one-admin" },
    });
    expect(oneAdmin.status).toBe(404);
    expect(await links()).toBe(0);
  });
});

describe("a second admin is another person", () => {
  it("is not an account the asker made an admin, nor one made admin after the request", async () => {
    // The asker's own second account, made an admin at the asker's asking (another admin
    // approving: docs/decisions/063-role-raises-need-a-second-admin.md), before the request.
    const second = await seedUser("asker_alt", origin.now());
    await roleGrantedByTwoAdmins(origin, asker, approver, "asker_alt", "admin");
    origin.advance(1_000);
    const request = await asked();
    const byAlt = await decideOnRecoveryLink(origin, second, request.id, "approve");
    expect(byAlt.status).toBe(403);
    expect(await json(byAlt)).toMatchObject({ code: "SECOND_OPERATOR_REQUIRED" });
    // Made an admin by someone else, but after the request was made.
    origin.advance(1_000);
    const late = await seedUser("late_admin", origin.now());
    await roleGrantedByTwoAdmins(origin, approver, asker, "late_admin", "admin");
    expect((await decideOnRecoveryLink(origin, late, request.id, "approve")).status).toBe(403);
    expect(await yoursToDecide(second)).toEqual([false]);
    expect(await yoursToDecide(late)).toEqual([false]);
    expect(await yoursToDecide(approver)).toEqual([true]);
    // The database says the same, whatever the route.
    await expect(
      env.DB.prepare("UPDATE recovery_link_request SET status = 'approved', decided_by = ?1, decided_at = ?2 WHERE id = ?3")
        .bind(second.id, origin.now(), request.id)
        .run(),
    ).rejects.toThrow(/approved by a second admin/);
    expect((await decideOnRecoveryLink(origin, approver, request.id, "approve")).status).toBe(200);
  });

  it("whose approval carries nothing once they are no longer an unlocked admin", async () => {
    for (const undo of [
      () => env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(approver.id).run(),
      () => env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2").bind(origin.now(), approver.id).run(),
    ]) {
      const request = await asked();
      expect((await decideOnRecoveryLink(origin, approver, request.id, "approve")).status).toBe(200);
      await undo();
      const issued = await issueRecoveryLink(origin, asker, request.id);
      expect(issued.status).toBe(409);
      expect(await json(issued)).toMatchObject({ code: "RECOVERY_REQUEST_NOT_APPROVED" });
      await env.DB.prepare("INSERT OR REPLACE INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'admin', 'cli', 0)")
        .bind(approver.id)
        .run();
      await env.DB.prepare("UPDATE user SET locked_at = NULL WHERE id = ?1").bind(approver.id).run();
    }
    expect(await links()).toBe(0);
  });

  it("and the person's account has not become an operator's since", async () => {
    const request = await asked();
    expect((await decideOnRecoveryLink(origin, approver, request.id, "approve")).status).toBe(200);
    await roleGrantedByTwoAdmins(origin, approver, asker, "locked_out", "admin");
    const issued = await issueRecoveryLink(origin, asker, request.id);
    expect(issued.status).toBe(409);
    expect(await json(issued)).toMatchObject({ code: "OPERATOR_ACCOUNT" });
    expect(await links()).toBe(0);
  });
});

describe("two admins at once", () => {
  it("deciding: the one whose batch lands second hears RECOVERY_REQUEST_DECIDED, from the database", async () => {
    const third = await seedOperator("ops_admin_three", "admin", origin.now());
    const request = await asked();
    const refused = await origin.call(`/api/ops/recovery-link-requests/${request.id}/approve`, {
      body: {},
      headers: { ...approver.auth, "Idempotency-Key": "late-approve" },
      db: beforeBatch(1, () => decideOnRecoveryLink(origin, third, request.id, "reject", { reason: "Not convinced" })),
    });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ code: "RECOVERY_REQUEST_DECIDED" });
    const row = await env.DB.prepare("SELECT status FROM recovery_link_request WHERE id = ?1").bind(request.id).first("status");
    expect(row).toBe("rejected");
  });

  it("issuing under two keys: one link, and the other hears ALREADY_SHOWN", async () => {
    const request = await asked();
    expect((await decideOnRecoveryLink(origin, approver, request.id, "approve")).status).toBe(200);
    let first: Response | undefined;
    const second = await origin.call(`/api/ops/recovery-link-requests/${request.id}/issue`, {
      headers: { ...asker.auth, "Idempotency-Key": "issue-key-b" },
      db: beforeBatch(1, async () => {
        first = await issueRecoveryLink(origin, asker, request.id, "issue-key-a");
      }),
    });
    expect(first?.status).toBe(201);
    expect(second.status).toBe(409);
    expect(await json(second)).toMatchObject({ code: "ALREADY_SHOWN" });
    expect(await links()).toBe(1);
  });
});

describe("where the back office shows the requests", () => {
  it("to admins alone: on the person's page, and the open ones on the people desk", async () => {
    const support = await seedOperator("ops_support", "support", origin.now());
    const open = await asked();
    origin.advance(1_000);
    const rejected = await asked(approver);
    expect((await decideOnRecoveryLink(origin, asker, rejected.id, "reject", { reason: "Wrong person" })).status).toBe(200);
    const personPage = async (operator: Seeded) =>
      (
        await json<{ recoveryLinkRequests: Request[] }>(
          await origin.call(`/api/ops/people/${person.id}`, { method: "GET", headers: operator.auth }),
        )
      ).data.recoveryLinkRequests;
    const peopleDesk = async (operator: Seeded) =>
      (await json<{ openRecoveryLinkRequests: Request[] }>(await origin.call("/api/ops/people", { method: "GET", headers: operator.auth })))
        .data.openRecoveryLinkRequests;
    expect((await personPage(approver)).map((request) => [request.id, request.status, request.yoursToDecide])).toEqual([
      [rejected.id, "rejected", false],
      [open.id, "awaiting_approval", true],
    ]);
    expect((await peopleDesk(approver)).map((request) => [request.id, request.yoursToDecide])).toEqual([[open.id, true]]);
    // Each reads them as theirs: whoever asked the open one decides nothing on it.
    expect((await personPage(asker)).map((request) => request.yoursToDecide)).toEqual([false, false]);
    expect((await peopleDesk(asker)).map((request) => request.yoursToDecide)).toEqual([false]);
    expect(await personPage(support)).toEqual([]);
    expect(await peopleDesk(support)).toEqual([]);
  });
});

describe("the database holds the rules", () => {
  const insertLink = (requestId: string | null, issuedBy: string) =>
    env.DB.prepare(
      "INSERT INTO recovery_link (token_hash, user_id, issued_by, created_at, expires_at, request_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
      .bind("f".repeat(64), person.id, issuedBy, origin.now(), origin.now() + 3_600_000, requestId)
      .run();

  it("makes no link without an approved request, issued by whoever asked", async () => {
    await expect(insertLink(null, asker.id)).rejects.toThrow(/only an approved, open request/);
    const request = await asked();
    await expect(insertLink(request.id, asker.id)).rejects.toThrow(/only an approved, open request/);
    expect((await decideOnRecoveryLink(origin, approver, request.id, "approve")).status).toBe(200);
    await expect(insertLink(request.id, approver.id)).rejects.toThrow(/only an approved, open request/);
    expect(await links()).toBe(0);
  });

  it("lets no admin decide on what they asked for, or on their own account, and keeps every request", async () => {
    const request = await asked();
    const decide = (by: string) =>
      env.DB.prepare(
        "UPDATE recovery_link_request SET status = 'rejected', decided_by = ?1, decided_at = ?2, decision_note = 'No' WHERE id = ?3",
      )
        .bind(by, origin.now(), request.id)
        .run();
    await expect(decide(asker.id)).rejects.toThrow(/CHECK constraint failed/);
    await expect(decide(person.id)).rejects.toThrow(/CHECK constraint failed/);
    await expect(env.DB.prepare("DELETE FROM recovery_link_request").run()).rejects.toThrow(/requests are kept/);
  });

  it("moves a request only forward, keeps what was asked, and a link as issued", async () => {
    const request = await asked();
    const update = (set: string) => env.DB.prepare(`UPDATE recovery_link_request SET ${set} WHERE id = ?1`).bind(request.id).run();
    await expect(update("reason = 'Something else'")).rejects.toThrow(/does not change/);
    await expect(update(`user_id = '${approver.id}'`)).rejects.toThrow(/does not change/);
    await expect(update(`status = 'issued', issued_at = ${origin.now()}`)).rejects.toThrow(/does not change|CHECK constraint failed/);
    expect((await decideOnRecoveryLink(origin, approver, request.id, "reject", { reason: "No" })).status).toBe(200);
    await expect(update(`status = 'approved'`)).rejects.toThrow(/does not change/);
    // A request lives a day at most.
    await expect(
      env.DB.prepare(
        "INSERT INTO recovery_link_request (id, user_id, reason, status, requested_by, requested_at, open_until) VALUES ('rlr_long', ?1, 'Checked', 'awaiting_approval', ?2, 0, 86400001)",
      )
        .bind(person.id, asker.id)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
    const approved = await asked();
    expect((await decideOnRecoveryLink(origin, approver, approved.id, "approve")).status).toBe(200);
    expect((await issueRecoveryLink(origin, asker, approved.id)).status).toBe(201);
    await expect(env.DB.prepare("UPDATE recovery_link SET user_id = ?1").bind(approver.id).run()).rejects.toThrow(/a link does not change/);
    await expect(env.DB.prepare("UPDATE recovery_link SET expires_at = expires_at + 1").run()).rejects.toThrow(/a link does not change/);
  });
});
