import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { DeskThread, DeskTicket } from "#contract/ops-desk";
import { beforeBatch, resetDatabase, seedOperator, seedUser, testOrigin, type TestOrigin } from "../../test/origin-client";

let origin: TestOrigin;
type Person = Awaited<ReturnType<typeof seedUser>>;
let alice: Person;

const keyed = (auth: Record<string, string>, key = `desk-${crypto.randomUUID()}`) => ({
  ...auth,
  "Idempotency-Key": key,
  "X-Request-Id": "req-desk-1",
});

async function userTicket(user: Person = alice, subject = "Recharge not credited"): Promise<string> {
  const response = await origin.call("/api/support/tickets", {
    body: { category: "payment", subject, message: "I paid but my balance did not change." },
    headers: { ...user.auth, "Idempotency-Key": `tkt-${crypto.randomUUID()}` },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The requester (alice) writing on her ticket: to run now, or between an operator's read and batch. */
const requesterWrites = (id: string, message: string) => () =>
  origin.call(`/api/support/tickets/${id}/messages`, {
    body: { message },
    headers: { ...alice.auth, "Idempotency-Key": `msg-${crypto.randomUUID()}` },
  });

async function contactTicket(email = "visitor@example.com"): Promise<string> {
  const response = await origin.call("/api/support/contact", {
    body: { email, subject: "Business enquiry", message: "Do you offer invoices?" },
    headers: { "Idempotency-Key": `contact-${crypto.randomUUID()}` },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

const queue = (by: Person, query = "") => origin.call(`/api/ops/tickets${query}`, { method: "GET", headers: by.auth });
const thread = (by: Person, id: string) => origin.call(`/api/ops/tickets/${id}`, { method: "GET", headers: by.auth });
const assign = (by: Person, id: string, key?: string, db?: D1Database) =>
  origin.call(`/api/ops/tickets/${id}/assign`, { body: {}, headers: keyed(by.auth, key), ...(db ? { db } : {}) });
const reply = (by: Person, id: string, message = "We found the payment and credited your wallet.", key?: string, db?: D1Database) =>
  origin.call(`/api/ops/tickets/${id}/messages`, { body: { message }, headers: keyed(by.auth, key), ...(db ? { db } : {}) });
const close = (by: Person, id: string, body: object = { reason: "Solved." }, key?: string, db?: D1Database) =>
  origin.call(`/api/ops/tickets/${id}/close`, { body, headers: keyed(by.auth, key), ...(db ? { db } : {}) });

const dataOf = async <T>(response: Response) => ((await response.json()) as { data: T }).data;
const auditRows = async () =>
  (await env.DB.prepare("SELECT * FROM audit_log ORDER BY id").all<Record<string, unknown>>()).results.filter(
    // Only the desk's own rows: opening tickets is not audited, but stay exact if it ever is.
    (row) => String(row.action).startsWith("ticket."),
  );
const statusOf = (id: string) => env.DB.prepare("SELECT status FROM ticket WHERE id = ?1").bind(id).first<string>("status");

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
});

describe("the tickets desk's door", () => {
  it("answers each role as its rights say: no role 404 everywhere, support, finance and admin work tickets", async () => {
    const people = {
      none: alice,
      support: await seedOperator("op_support", "support", origin.now()),
      finance: await seedOperator("op_finance", "finance", origin.now()),
      admin: await seedOperator("op_admin", "admin", origin.now()),
    };
    const allowed = { none: false, support: true, finance: true, admin: true };
    for (const [who, person] of Object.entries(people) as [keyof typeof people, Person][]) {
      const id = await userTicket();
      const answers = {
        queue: await queue(person),
        thread: await thread(person, id),
        assign: await assign(person, id),
        reply: await reply(person, id),
        close: await close(person, id),
      };
      const expected = allowed[who]
        ? { queue: 200, thread: 200, assign: 200, reply: 201, close: 200 }
        : { queue: 404, thread: 404, assign: 404, reply: 404, close: 404 };
      expect(Object.fromEntries(Object.entries(answers).map(([door, answer]) => [door, answer.status])), who).toEqual(expected);
    }
    // One row per action of the three operators; none for the refused ones.
    expect((await auditRows()).map((row) => `${row.actor_role} ${row.action}`)).toEqual(
      ["support", "finance", "admin"].flatMap((role) => [`${role} ticket.assign`, `${role} ticket.reply`, `${role} ticket.close`]),
    );
  });

  it("answers a non-operator exactly as an unknown path, signed out or with a bad token", async () => {
    const id = await userTicket();
    const unknown = await (await origin.call("/api/ops/nothing-here", { method: "GET" })).json();
    for (const headers of [{}, { Authorization: "Bearer not-a-real-token-at-all" }] as Record<string, string>[]) {
      const answer = await origin.call(`/api/ops/tickets/${id}/close`, { body: {}, headers: keyed(headers) });
      expect(answer.status).toBe(404);
      expect(((await answer.json()) as { code: string }).code).toBe((unknown as { code: string }).code);
    }
    expect(await statusOf(id)).toBe("open");
  });
});

describe("the queue", () => {
  it("lists one status oldest activity first, with the requester, the assignee, the message count and the age", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const first = await userTicket(alice, "First");
    origin.advance(60_000);
    const second = await contactTicket();
    origin.advance(60_000);
    const third = await userTicket(alice, "Third");
    origin.advance(60_000);
    // The first gets a new message: it moves behind the others.
    await requesterWrites(first, "Any news?")();
    await assign(support, third);
    origin.advance(30_000);

    const page = await dataOf<{ tickets: DeskTicket[]; nextCursor: string | null }>(await queue(support));
    expect(page.nextCursor).toBeNull();
    expect(page.tickets.map((ticket) => ticket.id)).toEqual([second, third, first]);
    expect(page.tickets[0]).toMatchObject({
      id: second,
      email: "visitor@example.com",
      requester: null,
      assignee: null,
      messageCount: 1,
      ageSeconds: 150,
      status: "open",
    });
    expect(page.tickets[1]).toMatchObject({
      requester: { handle: "alice", displayName: "Name of alice" },
      assignee: { handle: "op_support", displayName: "Name of op_support" },
      email: null,
      ageSeconds: 90,
    });
    expect(page.tickets[2]).toMatchObject({ messageCount: 2, ageSeconds: 210 });

    const ids = async (query: string) => (await dataOf<{ tickets: DeskTicket[] }>(await queue(support, query))).tickets.map((t) => t.id);
    expect(await ids("?assignee=me")).toEqual([third]);
    expect(await ids("?assignee=unassigned")).toEqual([second, first]);
    expect(await ids("?status=answered")).toEqual([]);
    await reply(support, second);
    expect(await ids("?status=answered")).toEqual([second]);
    expect(await ids("?status=closed&assignee=anyone")).toEqual([]);
  });

  it("pages 50 at a time with a cursor, and refuses a cursor it did not give", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    // 120 tickets, several sharing a time: the cursor orders by time, then id.
    await env.DB.batch(
      Array.from({ length: 120 }, (_, index) =>
        env.DB.prepare(
          "INSERT INTO ticket (id, user_id, email, category, subject, created_at, updated_at) VALUES (?1, NULL, 'a@example.com', 'other', 'Hi', ?2, ?2)",
        ).bind(`tkt_00000000-0000-4000-8000-${String(index).padStart(12, "0")}`, origin.now() - Math.floor(index / 7) * 1000),
      ),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { tickets: DeskTicket[]; nextCursor: string | null } = await dataOf(
        await queue(support, cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""),
      );
      expect(page.tickets.length).toBeLessThanOrEqual(50);
      seen.push(...page.tickets.map((ticket) => ticket.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(120);
    const rows = await env.DB.prepare("SELECT id FROM ticket ORDER BY updated_at, id").all<{ id: string }>();
    expect(seen).toEqual(rows.results.map((row) => row.id));

    for (const bad of ["bm90LWEtY3Vyc29y", "AAAA", "%E2%80%AE"]) {
      const answer = await queue(support, `?cursor=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(await answer.json()).toMatchObject({ code: "BAD_REQUEST", field: "cursor" });
    }
    const wrongFilter = await queue(support, "?assignee=someone");
    expect(wrongFilter.status).toBe(400);
    expect(await wrongFilter.json()).toMatchObject({ field: "assignee" });
  });
});

describe("a ticket's thread", () => {
  it("flags a contact-form ticket: its replies are not e-mailed yet", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const contact = await dataOf<DeskThread>(await thread(support, await contactTicket("someone@example.com")));
    expect(contact).toMatchObject({ email: "someone@example.com", requester: null, replyNotEmailed: true, messageCount: 1 });
    expect(contact.messages).toEqual([{ author: "user", body: "Do you offer invoices?", createdAt: contact.createdAt }]);
    const own = await dataOf<DeskThread>(await thread(support, await userTicket()));
    expect(own).toMatchObject({ email: null, requester: { handle: "alice" }, assignee: null, replyNotEmailed: false });
  });

  it("is 404 for an id that names nothing, and 400 for one that is not an id", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const missing = await thread(support, "tkt_00000000-0000-4000-8000-000000000000");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "NOT_FOUND", message: "There is no such ticket." });
    const malformed = await thread(support, "not-an-id");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ field: "id" });
  });
});

describe("taking a ticket", () => {
  it("assigns it to the caller, audited with the assignee before and after, and keeps its place in the queue", async () => {
    const first = await seedOperator("op_first", "support", origin.now());
    const second = await seedOperator("op_second", "finance", origin.now());
    const id = await userTicket();
    origin.advance(5_000);
    const taken = await assign(first, id);
    expect(taken.status).toBe(200);
    const data = await dataOf<DeskThread>(taken);
    expect(data).toMatchObject({ id, assignee: { handle: "op_first" }, status: "open" });
    expect(data.updatedAt).toBe(data.createdAt);

    const takenOver = await origin.call(`/api/ops/tickets/${id}/assign`, { body: { to: "me" }, headers: keyed(second.auth) });
    expect(await dataOf<DeskThread>(takenOver)).toMatchObject({ assignee: { handle: "op_second" } });
    expect(await auditRows()).toEqual([
      expect.objectContaining({
        actor_kind: "operator",
        actor_id: first.id,
        actor_role: "support",
        action: "ticket.assign",
        object_type: "ticket",
        object_id: id,
        before: '{"assignee":null}',
        after: '{"assignee":"op_first"}',
        request_id: "req-desk-1",
        at: origin.now(),
      }),
      expect.objectContaining({ actor_id: second.id, before: '{"assignee":"op_first"}', after: '{"assignee":"op_second"}' }),
    ]);
  });

  it("replays a retried assignment, and taking one's own ticket again changes and audits nothing", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    const first = await assign(support, id, "assign-key-0001");
    const retry = await assign(support, id, "assign-key-0001");
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await retry.json()).toEqual(await first.json());
    const again = await assign(support, id);
    expect(again.status).toBe(200);
    expect(await auditRows()).toHaveLength(1);
    const reused = await origin.call(`/api/ops/tickets/${id}/assign`, {
      body: { to: "me" },
      headers: keyed(support.auth, "assign-key-0001"),
    });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
  });

  it("refuses a closed ticket (409), a missing one (404), someone else's body (400), and one taken meanwhile (409 TICKET_CHANGED)", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const other = await seedOperator("op_other", "support", origin.now());
    const closedId = await userTicket();
    await close(support, closedId);
    const onClosed = await assign(support, closedId);
    expect(onClosed.status).toBe(409);
    expect(await onClosed.json()).toMatchObject({ code: "TICKET_CLOSED" });
    expect((await assign(support, "tkt_00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const toNoHandle = await origin.call(`/api/ops/tickets/${closedId}/assign`, {
      body: { to: "Op Other!" },
      headers: keyed(support.auth),
    });
    expect(toNoHandle.status).toBe(400);
    expect(await toNoHandle.json()).toMatchObject({ field: "to" });

    // The other operator takes it between this request's read and its batch.
    const id = await userTicket();
    const raced = await assign(
      support,
      id,
      undefined,
      beforeBatch(2, () => assign(other, id)),
    );
    expect(raced.status).toBe(409);
    expect(await raced.json()).toMatchObject({ code: "TICKET_CHANGED" });
    expect((await dataOf<DeskThread>(await thread(support, id))).assignee?.handle).toBe("op_other");
    expect((await auditRows()).map((row) => `${row.actor_id} ${row.action}`)).toEqual([
      `${support.id} ticket.close`,
      `${other.id} ticket.assign`,
    ]);
  });
});

describe("assigning a ticket to another operator", () => {
  const assignTo = (by: Person, id: string, to: string, { key, db }: { key?: string; db?: D1Database } = {}) =>
    origin.call(`/api/ops/tickets/${id}/assign`, { body: { to }, headers: keyed(by.auth, key), ...(db ? { db } : {}) });
  const setLocked = (person: Person, locked: boolean) =>
    env.DB.prepare("UPDATE user SET locked_at = ?1 WHERE id = ?2")
      .bind(locked ? origin.now() : null, person.id)
      .run();

  it("gives it to the operator the handle names, whatever their role, audited as the assigner's act", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const finance = await seedOperator("op_finance", "finance", origin.now());
    const id = await userTicket();
    const given = await assignTo(support, id, "op_finance");
    expect(given.status).toBe(200);
    expect(await dataOf<DeskThread>(given)).toMatchObject({ id, assignee: { handle: "op_finance" } });
    expect((await dataOf<{ tickets: DeskTicket[] }>(await queue(finance, "?assignee=me"))).tickets.map((ticket) => ticket.id)).toEqual([
      id,
    ]);
    expect(await auditRows()).toEqual([
      expect.objectContaining({
        actor_id: support.id,
        action: "ticket.assign",
        before: '{"assignee":null}',
        after: '{"assignee":"op_finance"}',
      }),
    ]);
  });

  it("refuses a handle that is no operator, or a locked one: 422 NOT_AN_OPERATOR naming to, and nothing changes", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const locked = await seedOperator("op_locked", "support", origin.now());
    await setLocked(locked, true);
    const id = await userTicket();
    for (const to of ["alice", "op_locked", "nobody_here"]) {
      const refused = await assignTo(support, id, to, { key: `give-${to}` });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toMatchObject({ code: "NOT_AN_OPERATOR", field: "to" });
    }
    expect((await dataOf<DeskThread>(await thread(support, id))).assignee).toBeNull();
    expect(await auditRows()).toEqual([]);
    // Unlocked, they can be given it by the same request again: the refusal was not kept under its key.
    await setLocked(locked, false);
    expect((await assignTo(support, id, "op_locked", { key: "give-op_locked" })).status).toBe(200);
  });

  it("refuses an operator locked between the request's read and its batch: 422 naming them", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const other = await seedOperator("op_other", "support", origin.now());
    const id = await userTicket();
    const raced = await assignTo(support, id, "op_other", { db: beforeBatch(2, () => setLocked(other, true)) });
    expect(raced.status).toBe(422);
    expect(await raced.json()).toMatchObject({
      code: "NOT_AN_OPERATOR",
      field: "to",
      message: "@op_other is not an operator of Paydesk, or their account is locked.",
    });
    expect((await dataOf<DeskThread>(await thread(support, id))).assignee).toBeNull();
    expect(await auditRows()).toEqual([]);
  });

  // docs/decisions/056-operator-acts-as-read.md: the caller who lost their standing meanwhile
  // hears what every operator action answers then, whether they take the ticket or give it.
  it("refuses a caller locked or stripped of their role meanwhile with 403, taking it or giving it", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    await seedOperator("op_other", "support", origin.now());
    const id = await userTicket();
    const revoke = () => env.DB.prepare("DELETE FROM operator_role WHERE user_id = ?1").bind(support.id).run();
    const restore = () =>
      env.DB.prepare("INSERT INTO operator_role (user_id, role, granted_by, granted_at) VALUES (?1, 'support', 'cli', ?2)")
        .bind(support.id, origin.now())
        .run();
    for (const to of ["me", "op_other"]) {
      for (const [meanwhile, undo] of [
        [() => setLocked(support, true), () => setLocked(support, false)],
        [revoke, restore],
      ] as const) {
        const raced = await assignTo(support, id, to, { db: beforeBatch(2, meanwhile) });
        expect(raced.status).toBe(403);
        expect(await raced.json()).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("nothing was done") });
        await undo();
      }
    }
    expect((await dataOf<DeskThread>(await thread(support, id))).assignee).toBeNull();
    expect(await auditRows()).toEqual([]);
  });
});

describe("answering a ticket", () => {
  it("adds the operator's message, makes the ticket answered (the existing trigger) and audits it; the requester reads it", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    origin.advance(60_000);
    const answer = await reply(support, id, "We credited your wallet.");
    expect(answer.status).toBe(201);
    const data = await dataOf<DeskThread>(answer);
    expect(data).toMatchObject({ status: "answered", messageCount: 2, updatedAt: new Date(origin.now()).toISOString() });
    expect(data.messages.map((message) => [message.author, message.body])).toEqual([
      ["user", "I paid but my balance did not change."],
      ["operator", "We credited your wallet."],
    ]);
    expect(await dataOf<DeskThread>(await thread(support, id))).toEqual(data);
    const seen = await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: alice.auth });
    expect(await dataOf<{ status: string; messages: { author: string }[] }>(seen)).toMatchObject({
      status: "answered",
      messages: [{ author: "user" }, { author: "operator" }],
    });
    expect(await auditRows()).toEqual([
      expect.objectContaining({ action: "ticket.reply", object_id: id, after: '{"characters":24}', actor_id: support.id }),
    ]);
  });

  it("writes a retried reply once, and refuses a closed ticket (409) and an empty message (400) without an audit row", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    const first = await reply(support, id, "Once.", "reply-key-0001");
    const retry = await reply(support, id, "Once.", "reply-key-0001");
    expect(retry.status).toBe(201);
    expect(await retry.json()).toEqual(await first.json());
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(2);

    const empty = await reply(support, id, "   ");
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ field: "message" });

    await origin.call(`/api/support/tickets/${id}/close`, { headers: alice.auth });
    const late = await reply(support, id, "One more thing.");
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "TICKET_CLOSED" });
    expect((await auditRows()).map((row) => row.action)).toEqual(["ticket.reply"]);
  });

  it("does not answer over a message the requester wrote meanwhile (409 TICKET_CHANGED), unaudited", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    await reply(support, id);
    origin.advance(1_000);
    const raced = await reply(support, id, "Anything else?", undefined, beforeBatch(2, requesterWrites(id, "It happened again today.")));
    expect(raced.status).toBe(409);
    expect(await raced.json()).toMatchObject({ code: "TICKET_CHANGED" });
    // The requester's message keeps the ticket in the open queue, where an operator sees it.
    expect(await statusOf(id)).toBe("open");
    expect((await auditRows()).map((row) => row.action)).toEqual(["ticket.reply"]);
    expect((await reply(support, id, "Anything else?")).status).toBe(201);
  });

  it("refuses a reply to a ticket closed between its read and its batch: the trigger rolls the batch back", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    const closeFirst = () => env.DB.prepare("UPDATE ticket SET status = 'closed' WHERE id = ?1").bind(id).run();
    const raced = await origin.call(`/api/ops/tickets/${id}/messages`, {
      body: { message: "Too late." },
      headers: keyed(support.auth),
      db: beforeBatch(2, closeFirst),
    });
    expect(raced.status).toBe(409);
    expect(await raced.json()).toMatchObject({ code: "TICKET_CLOSED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(1);
    expect(await auditRows()).toEqual([]);
  });
});

describe("closing a ticket", () => {
  it("closes with the reason in the audit row; closing it again is 409, a retry replays", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    origin.advance(1_000);
    const closed = await close(support, id, { reason: "Solved on the phone." }, "close-key-0001");
    expect(closed.status).toBe(200);
    expect(await dataOf<DeskThread>(closed)).toMatchObject({ status: "closed", updatedAt: new Date(origin.now()).toISOString() });
    expect(await statusOf(id)).toBe("closed");
    const retry = await close(support, id, { reason: "Solved on the phone." }, "close-key-0001");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const twice = await close(support, id, {});
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ code: "TICKET_CLOSED" });
    expect(await auditRows()).toEqual([
      expect.objectContaining({
        action: "ticket.close",
        before: '{"status":"open"}',
        after: '{"status":"closed"}',
        reason: "Solved on the phone.",
      }),
    ]);
  });

  it("closes without a reason; two operators closing at once: one closes, the other hears 409", async () => {
    const first = await seedOperator("op_first", "support", origin.now());
    const second = await seedOperator("op_second", "admin", origin.now());
    const quiet = await userTicket();
    expect((await close(first, quiet, {})).status).toBe(200);
    expect((await auditRows())[0]).toMatchObject({ action: "ticket.close", reason: null });

    const id = await userTicket();
    const answers = await Promise.all([close(first, id), close(second, id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await auditRows()).filter((row) => row.object_id === id)).toHaveLength(1);
  });

  it("does not close a ticket on which the requester wrote meanwhile (409 TICKET_CHANGED), unaudited", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    await reply(support, id);
    origin.advance(1_000);
    const raced = await close(
      support,
      id,
      { reason: "Answered." },
      undefined,
      beforeBatch(2, requesterWrites(id, "Wait, one more thing.")),
    );
    expect(raced.status).toBe(409);
    expect(await raced.json()).toMatchObject({ code: "TICKET_CHANGED" });
    expect(await statusOf(id)).toBe("open");
    expect((await auditRows()).map((row) => row.action)).toEqual(["ticket.reply"]);
    // Having read the new message, the operator may close it.
    expect((await close(support, id)).status).toBe(200);
  });

  it("refuses a reason over 500 characters and an unknown field (400)", async () => {
    const support = await seedOperator("op_support", "support", origin.now());
    const id = await userTicket();
    const long = await close(support, id, { reason: "x".repeat(501) });
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ field: "reason" });
    const unknown = await close(support, id, { reason: "Done.", notify: true });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ field: "notify" });
    const noKey = await origin.call(`/api/ops/tickets/${id}/close`, { body: {}, headers: support.auth });
    expect(noKey.status).toBe(400);
    expect(await noKey.json()).toMatchObject({ field: "Idempotency-Key" });
    expect(await statusOf(id)).toBe("open");
  });
});
