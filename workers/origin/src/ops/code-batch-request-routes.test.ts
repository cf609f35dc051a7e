import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { CodeBatch, CodeBatchRequest } from "#contract/ops-codes";
import { beforeBatch, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";
import { grantRole, roleGrantedByTwoAdmins } from "../../test/role-requests";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let alice: Person;
let finance: Person;
let checker: Person;

const keyed = (auth: Record<string, string>, key = `codes-${crypto.randomUUID()}`) => ({ ...auth, "Idempotency-Key": key });
const inADay = () => new Date(origin.now() + 86_400_000).toISOString();
/** ¥200.00 × 3 = ¥600.00: within the default ¥1,000.00 one operator may issue alone in 24 hours. */
const batchBody = (more: object = {}) => ({ value: 20_000, count: 3, expiresAt: inADay(), note: "Autumn fair giveaway", ...more });
/** ¥500.00 × 10 = ¥5,000.00: past it. */
const bigBody = (more: object = {}) => batchBody({ value: 50_000, count: 10, note: "Partner launch", ...more });

type Answer<T> = { status: number; code: string; data: T; field?: string; message?: string };
const answerOf = async <T>(response: Response): Promise<Answer<T>> => ({
  status: response.status,
  ...((await response.json()) as Omit<Answer<T>, "status">),
});
type Waiting = { request: CodeBatchRequest; approvalThreshold: number; issuedAlone: number };
type Issued = { batch: CodeBatch; codes: string[]; csv: string };

const issue = async <T = Issued | Waiting>(by: Person, body: object, { key, db, env: callEnv }: CallOptions = {}) =>
  answerOf<T>(
    await origin.call("/api/ops/code-batches", {
      body,
      headers: keyed(by.auth, key),
      ...(db ? { db } : {}),
      ...(callEnv ? { env: callEnv } : {}),
    }),
  );
type CallOptions = { key?: string; db?: D1Database; env?: Partial<Env> };
const requests = async (by: Person = finance) =>
  answerOf<CodeBatchRequest[]>(await origin.call("/api/ops/code-batch-requests", { method: "GET", headers: by.auth }));
const approve = async (id: string, by: Person = checker, key?: string) =>
  answerOf<CodeBatchRequest>(await origin.call(`/api/ops/code-batch-requests/${id}/approve`, { body: {}, headers: keyed(by.auth, key) }));
const reject = async (id: string, by: Person = checker) =>
  answerOf<CodeBatchRequest>(
    await origin.call(`/api/ops/code-batch-requests/${id}/reject`, { body: { reason: "No such campaign." }, headers: keyed(by.auth) }),
  );
const issueApproved = async (id: string, by: Person = finance, key?: string) =>
  answerOf<Issued>(await origin.call(`/api/ops/code-batch-requests/${id}/issue`, { headers: keyed(by.auth, key) }));

const count = (table: string) => env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>("n");
const actions = async () =>
  (await env.DB.prepare("SELECT action, actor_id, object_type, reason FROM audit_log ORDER BY id").all()).results as Record<
    string,
    unknown
  >[];

async function waiting(body: object = bigBody(), by: Person = finance): Promise<CodeBatchRequest> {
  const answer = await issue<Waiting>(by, body);
  expect(answer.status).toBe(201);
  return answer.data.request;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  finance = await seedOperator("op_finance", "finance", origin.now());
  checker = await seedOperator("op_checker", "finance", origin.now());
});

describe("what one operator may issue alone", () => {
  it("issues within ¥1,000.00 in 24 hours at once; past it, nothing is issued and the batch waits for a second operator", async () => {
    expect((await issue(finance, batchBody())).status).toBe(201);
    // ¥600.00 issued; ¥600.00 more would make ¥1,200.00: it waits, though each batch alone is within.
    const answer = await issue<Waiting>(finance, batchBody({ note: "Second stand" }));
    expect(answer).toMatchObject({
      status: 201,
      code: "SUCCESS",
      data: {
        approvalThreshold: 100_000,
        issuedAlone: 60_000,
        request: {
          value: 20_000,
          count: 3,
          note: "Second stand",
          status: "awaiting_approval",
          requestedBy: { handle: "op_finance" },
          decidedBy: null,
          batch: null,
        },
      },
    });
    expect(answer.data.request.id).toMatch(/^cbr_/);
    expect(await count("code_batch")).toBe(1);
    expect(await count("prepaid_code")).toBe(3);
    expect((await actions()).map((row) => row.action)).toEqual(["codes.issue", "codes.request"]);
    // Another operator's own allowance is theirs.
    expect((await issue(checker, batchBody())).status).toBe(201);
    // A day later the first batch no longer counts.
    origin.advance(24 * 60 * 60_000);
    expect((await issue(finance, batchBody())).status).toBe(201);
  });

  it("lets exactly one of two batches at once through when together they pass the threshold: the other reads again and waits", async () => {
    const other = () => issue(finance, batchBody({ note: "The twin" }));
    // The other lands between this one's read of what was issued alone and its batch.
    const answer = await issue(finance, batchBody(), { db: beforeBatch(1, other) });
    expect(answer.status).toBe(201);
    expect(await count("code_batch")).toBe(1);
    expect(await env.DB.prepare("SELECT note FROM code_batch").first("note")).toBe("The twin");
    expect(await count("code_batch_request")).toBe(1);
  });

  it("waits for a second operator, never a 500, when what was issued alone keeps changing while it is issued", async () => {
    // Each of the first three batches fails its statement of the sum, as when other batches land each time.
    let batches = 0;
    const busy = new Proxy(env.DB, {
      get(target, property, receiver) {
        if (property !== "batch") return Reflect.get(target, property, receiver);
        return async (statements: D1PreparedStatement[]) => {
          batches += 1;
          if (batches <= 3) throw new Error("D1_ERROR: batch_assertion: what one operator issued alone within the threshold");
          return target.batch(statements);
        };
      },
    });
    const answer = await issue<Waiting>(finance, batchBody(), { db: busy });
    expect(answer).toMatchObject({ status: 201, data: { request: { status: "awaiting_approval" } } });
    expect(await count("code_batch")).toBe(0);
  });

  it("takes the threshold from CODE_BATCH_APPROVAL_THRESHOLD: at 0, every batch waits", async () => {
    const answer = await issue<Waiting>(finance, batchBody({ value: 1, count: 1 }), {
      env: { CODE_BATCH_APPROVAL_THRESHOLD: "0" },
    });
    expect(answer).toMatchObject({ status: 201, data: { approvalThreshold: 0, issuedAlone: 0 } });
  });
});

describe("the second operator of a batch", () => {
  it("is another person: not an operator the asker made one, nor one made since the request, by the route and the database", async () => {
    const lead = await seedOperator("op_lead", "admin", origin.now());
    const otherAdmin = await seedOperator("op_other_admin", "admin", origin.now());
    // The lead's own second account, made a finance operator at the lead's asking.
    const puppet = await seedUser("op_puppet", origin.now());
    await roleGrantedByTwoAdmins(origin, lead, otherAdmin, "op_puppet", "finance");
    origin.advance(1_000);
    const request = await waiting(bigBody(), lead);
    origin.advance(1_000);
    const late = await seedOperator("op_late", "finance", origin.now());
    for (const who of [puppet, late]) {
      expect((await requests(who)).data.map((each) => each.yoursToDecide)).toEqual([false]);
      expect(await approve(request.id, who)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    }
    expect((await requests(checker)).data.map((each) => each.yoursToDecide)).toEqual([true]);
    await expect(
      env.DB.prepare("UPDATE code_batch_request SET status = 'approved', decided_by = ?1, decided_at = ?2 WHERE id = ?3")
        .bind(puppet.id, origin.now(), request.id)
        .run(),
    ).rejects.toThrow(/decided by a second operator/);
    expect(await approve(request.id, checker)).toMatchObject({ status: 200, data: { status: "approved" } });
  });
  it("is not linked to the asker either way, and the link outlasts a lowered or revoked role", async () => {
    const lead = await seedOperator("op_lead", "admin", origin.now());
    const otherAdmin = await seedOperator("op_other_admin", "admin", origin.now());
    const spare = await seedOperator("op_spare", "admin", origin.now());
    const middle = await seedUser("op_middle", origin.now());
    const puppet = await seedUser("op_puppet", origin.now());
    // lead → middle → puppet, all admins, each link approved by the other admin.
    await roleGrantedByTwoAdmins(origin, lead, otherAdmin, "op_middle", "admin");
    await roleGrantedByTwoAdmins(origin, middle, otherAdmin, "op_puppet", "admin");
    origin.advance(1_000);
    // The puppet asks, and the lead would approve: the other way round is refused too.
    const byPuppet = await waiting(bigBody(), puppet);
    expect(await approve(byPuppet.id, lead)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    // The middle account's role taken away, and the puppet stepping down to finance itself
    // (which names it as its own granter), leave the chain as it was.
    expect((await origin.call("/api/ops/operators/op_middle/revoke", { body: { reason: "Gone" }, headers: keyed(lead.auth) })).status).toBe(
      200,
    );
    expect((await grantRole(origin, puppet, "op_puppet", "finance")).status).toBe(200);
    // An admin who lowered another's role made no link: they decide on each other's requests.
    expect((await grantRole(origin, otherAdmin, "op_spare", "finance")).status).toBe(200);
    origin.advance(1_000);
    const byLead = await waiting(bigBody(), lead);
    expect(await approve(byLead.id, puppet)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    const byOther = await waiting(bigBody(), otherAdmin);
    expect(await approve(byOther.id, spare)).toMatchObject({ status: 200 });
    expect(await approve(byLead.id, checker)).toMatchObject({ status: 200 });
  });

  it("hears 403, not a 500, when their role changes between the route's check and the batch", async () => {
    const request = await waiting();
    const demoted = beforeBatch(1, () =>
      env.DB.prepare("UPDATE operator_role SET role = 'support', granted_by = 'cli' WHERE user_id = ?1").bind(checker.id).run(),
    );
    const answer = await answerOf<CodeBatchRequest>(
      await origin.call(`/api/ops/code-batch-requests/${request.id}/approve`, { body: {}, headers: keyed(checker.auth), db: demoted }),
    );
    expect(answer).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    expect((await requests(finance)).data.find((each) => each.id === request.id)).toMatchObject({ status: "awaiting_approval" });
  });
});

describe("a batch that waits", () => {
  it("is approved by another finance operator, then issued once by whoever asked, its codes shown to them then", async () => {
    const request = await waiting();
    expect(request.yoursToDecide).toBe(false);
    // The list says whose it is to decide: not the asker's, the second operator's.
    expect((await requests(checker)).data).toEqual([{ ...request, yoursToDecide: true }]);
    expect((await requests(finance)).data).toEqual([request]);
    // Not by whoever asked, not by support, not by anyone without a role.
    expect(await approve(request.id, finance)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    const support = await seedOperator("op_support", "support", origin.now());
    expect((await approve(request.id, support)).status).toBe(403);
    expect((await approve(request.id, alice)).status).toBe(404);
    // Not issued before it is approved.
    expect(await issueApproved(request.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_NOT_APPROVED" });

    origin.advance(60_000);
    const approved = await approve(request.id, checker, "approve-key-0001");
    expect((await requests(checker)).data.map((each) => each.yoursToDecide)).toEqual([false]);
    expect(approved).toMatchObject({
      status: 200,
      data: { id: request.id, status: "approved", decidedBy: { handle: "op_checker" }, decidedAt: new Date(origin.now()).toISOString() },
    });
    expect(await approve(request.id, checker, "approve-key-0001")).toEqual(approved);
    expect(await approve(request.id, checker)).toMatchObject({ status: 409, code: "CODE_REQUEST_DECIDED" });
    expect(await reject(request.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_DECIDED" });
    expect(await count("code_batch")).toBe(0);

    // The approver does not see the codes: only whoever asked issues them.
    expect(await issueApproved(request.id, checker)).toMatchObject({ status: 403, code: "REQUESTER_REQUIRED" });
    const issued = await issueApproved(request.id, finance, "issue-approved-0001");
    expect(issued.status).toBe(201);
    expect(issued.data.codes).toHaveLength(10);
    expect(issued.data.batch).toMatchObject({ value: 50_000, count: 10, note: "Partner launch", issuedBy: { handle: "op_finance" } });
    expect((await requests()).data[0]).toMatchObject({ status: "issued", batch: issued.data.batch.id });
    // Never shown again: the same key, or another.
    for (const key of ["issue-approved-0001", undefined]) {
      const again = await issueApproved(request.id, finance, key);
      expect(again).toMatchObject({ status: 409, code: "CODES_ALREADY_SHOWN" });
      expect(again.message).toContain(issued.data.batch.id);
    }
    expect(await count("prepaid_code")).toBe(10);
    expect(await actions()).toEqual([
      { action: "codes.request", actor_id: finance.id, object_type: "code_batch_request", reason: null },
      { action: "codes.approve", actor_id: checker.id, object_type: "code_batch_request", reason: null },
      { action: "codes.issue", actor_id: finance.id, object_type: "code_batch", reason: null },
    ]);
    // An approved batch is not one issued alone: the operator's own allowance is untouched.
    expect((await issue(finance, batchBody())).status).toBe(201);
  });

  it("is rejected with a reason, and then never issued", async () => {
    const request = await waiting();
    expect(await reject(request.id, finance)).toMatchObject({ status: 403, code: "SECOND_OPERATOR_REQUIRED" });
    expect(await reject(request.id)).toMatchObject({ status: 200, data: { status: "rejected", decisionNote: "No such campaign." } });
    expect(await approve(request.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_DECIDED" });
    expect(await issueApproved(request.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_NOT_APPROVED" });
    expect(await count("code_batch")).toBe(0);
    // Listed for a week, so that whoever asked learns it; then no longer.
    expect((await requests()).data.map((listed) => listed.status)).toEqual(["rejected"]);
    origin.advance(8 * 24 * 60 * 60_000);
    expect((await requests()).data).toEqual([]);
  });

  it("is neither approved nor issued once the expiry it asked for has passed, and leaves the list a week later", async () => {
    const approvedFirst = await waiting();
    const late = await waiting(bigBody({ note: "Too late" }));
    expect((await approve(approvedFirst.id)).status).toBe(200);
    origin.advance(2 * 24 * 60 * 60_000);
    expect(await issueApproved(approvedFirst.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_EXPIRED" });
    expect(await approve(late.id)).toMatchObject({ status: 409, code: "CODE_REQUEST_EXPIRED" });
    expect(await count("code_batch")).toBe(0);
    expect((await requests()).data.map((listed) => listed.id).sort()).toEqual([late.id, approvedFirst.id].sort());
    origin.advance(7 * 24 * 60 * 60_000);
    expect((await requests()).data).toEqual([]);
  });

  it("takes one decision of two operators deciding at once: the second, having read it awaiting, hears 409", async () => {
    const request = await waiting();
    const admin = await seedOperator("op_admin", "admin", origin.now());
    // The admin's rejection lands between the checker's read and the checker's batch.
    const answer = await answerOf<CodeBatchRequest>(
      await origin.call(`/api/ops/code-batch-requests/${request.id}/approve`, {
        body: {},
        headers: keyed(checker.auth),
        db: beforeBatch(1, () => reject(request.id, admin)),
      }),
    );
    expect(answer).toMatchObject({ status: 409, code: "CODE_REQUEST_DECIDED" });
    expect((await requests()).data[0]).toMatchObject({ status: "rejected", decidedBy: { handle: "op_admin" } });
    const decisions = "SELECT count(*) AS n FROM audit_log WHERE action IN ('codes.approve', 'codes.reject')";
    expect(await env.DB.prepare(decisions).first("n")).toBe(1);
  });

  it("is issued once by two requests at once with different keys: the second, having read it approved, hears which batch", async () => {
    const request = await waiting();
    expect((await approve(request.id)).status).toBe(200);
    let first: Answer<Issued> | undefined;
    const second = await answerOf<Issued>(
      await origin.call(`/api/ops/code-batch-requests/${request.id}/issue`, {
        headers: keyed(finance.auth),
        db: beforeBatch(1, async () => {
          first = await issueApproved(request.id);
        }),
      }),
    );
    expect(first?.status).toBe(201);
    expect(second).toMatchObject({ status: 409, code: "CODES_ALREADY_SHOWN" });
    expect(second.message).toContain(first?.data.batch.id);
    expect(await count("code_batch")).toBe(1);
    expect(await count("prepaid_code")).toBe(10);
  });

  it("refuses a malformed request id and an unknown one", async () => {
    expect(await approve("cbr_nope")).toMatchObject({ status: 400, field: "id" });
    expect(await approve(`cbr_${crypto.randomUUID()}`)).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(await issueApproved(`cbr_${crypto.randomUUID()}`)).toMatchObject({ status: 404, code: "NOT_FOUND" });
  });
});

describe("the database's own guards (migration 0033)", () => {
  it("issues only an approved request, as asked, by whoever asked, once; a decision is final; requests are kept", async () => {
    const request = await waiting(bigBody({ expiresAt: inADay() }));
    const expires = await env.DB.prepare("SELECT expires_at FROM code_batch_request WHERE id = ?1")
      .bind(request.id)
      .first<number>("expires_at");
    const batchAs = (id: string, by: string, value = 50_000) =>
      env.DB.prepare(
        "INSERT INTO code_batch (id, value, count, note, expires_at, issued_by, issued_at, request_id) VALUES (?1, ?2, 10, 'Partner launch', ?3, ?4, ?5, ?6)",
      )
        .bind(id, value, expires, by, origin.now(), request.id)
        .run();
    await expect(batchAs("batch_waiting", finance.id)).rejects.toThrow(/only an approved request is issued/);
    // A request starts awaiting a decision; none is written approved.
    await expect(
      env.DB.prepare(
        "INSERT INTO code_batch_request (id, value, count, expires_at, note, status, requested_by, requested_at, decided_by, decided_at) VALUES ('cbr_direct', 1, 1, ?1, 'x', 'approved', ?2, 1, ?3, 1)",
      )
        .bind(expires, finance.id, checker.id)
        .run(),
    ).rejects.toThrow(/a request starts awaiting a decision/);
    // Whoever asked cannot decide, even written directly.
    await expect(
      env.DB.prepare("UPDATE code_batch_request SET status = 'approved', decided_by = ?1, decided_at = 1 WHERE id = ?2")
        .bind(finance.id, request.id)
        .run(),
    ).rejects.toThrow(/CHECK constraint failed/);
    expect((await approve(request.id)).status).toBe(200);
    await expect(batchAs("batch_other_value", finance.id, 60_000)).rejects.toThrow(/only an approved request is issued/);
    await expect(batchAs("batch_by_checker", checker.id)).rejects.toThrow(/only an approved request is issued/);
    // Only the batch that carries it out marks it issued.
    await expect(env.DB.prepare("UPDATE code_batch_request SET status = 'issued' WHERE id = ?1").bind(request.id).run()).rejects.toThrow(
      /a decided request does not change/,
    );
    await batchAs("batch_as_asked", finance.id);
    expect(await env.DB.prepare("SELECT status FROM code_batch_request WHERE id = ?1").bind(request.id).first("status")).toBe("issued");
    await expect(batchAs("batch_twice", finance.id)).rejects.toThrow(/only an approved request is issued/);
    await expect(env.DB.prepare("UPDATE code_batch_request SET status = 'approved' WHERE id = ?1").bind(request.id).run()).rejects.toThrow(
      /a decided request does not change/,
    );
    await expect(env.DB.prepare("UPDATE code_batch_request SET value = 1 WHERE id = ?1").bind(request.id).run()).rejects.toThrow(
      /a decided request does not change/,
    );
    await expect(env.DB.prepare("UPDATE code_batch SET request_id = NULL WHERE id = 'batch_as_asked'").run()).rejects.toThrow(
      /a batch is issued once/,
    );
    await expect(env.DB.prepare("DELETE FROM code_batch_request WHERE id = ?1").bind(request.id).run()).rejects.toThrow(
      /requests are kept/,
    );
  });
});
