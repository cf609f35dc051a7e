import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { TicketThread } from "#contract/support";
import {
  answerLostAfterCommit,
  beforeBatch,
  operatorAuth,
  resetDatabase,
  seedUser,
  testOrigin,
  type TestOrigin,
} from "../../test/origin-client";

let origin: TestOrigin;
let alice: Awaited<ReturnType<typeof seedUser>>;
let bob: Awaited<ReturnType<typeof seedUser>>;

const ticket = {
  category: "payment",
  subject: "Recharge not credited",
  message: "I paid ¥50.00 with WeChat but my balance did not change.",
};

async function open(body: unknown = ticket, auth = alice.auth, key = `tkt-${crypto.randomUUID()}`) {
  return origin.call("/api/support/tickets", { body, headers: { ...auth, "Idempotency-Key": key } });
}

async function replyTo(id: string, message: string, { auth = alice.auth, key = `reply-${crypto.randomUUID()}`, db }: ReplyOptions = {}) {
  return origin.call(`/api/support/tickets/${id}/messages`, { body: { message }, headers: { ...auth, "Idempotency-Key": key }, db });
}
type ReplyOptions = { auth?: Record<string, string>; key?: string; db?: D1Database };

async function opened(body: unknown = ticket): Promise<TicketThread> {
  const response = await open(body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: TicketThread }).data;
}

beforeEach(async () => {
  await resetDatabase();
  origin = testOrigin();
  alice = await seedUser("alice", origin.now());
  bob = await seedUser("bob", origin.now());
});

describe("support tickets", () => {
  it("opens a ticket with its first message", async () => {
    const thread = await opened();
    expect(thread).toMatchObject({ category: "payment", subject: ticket.subject, status: "open", orderId: null });
    expect(thread.messages).toEqual([{ author: "user", body: ticket.message, createdAt: thread.createdAt }]);
    const mine = await origin.call("/api/support/tickets", { method: "GET", headers: alice.auth });
    expect(((await mine.json()) as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([thread.id]);
  });

  it("links one of my orders, never someone else's", async () => {
    const order = await origin.call("/api/orders/recharge", {
      body: { amount: 5_000 },
      headers: { ...bob.auth, "Idempotency-Key": "bob-order-001" },
    });
    const bobsOrder = ((await order.json()) as { data: { id: string } }).data.id;
    const refused = await open({ ...ticket, orderId: bobsOrder });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ field: "orderId" });
    const mineResponse = await origin.call("/api/orders/recharge", {
      body: { amount: 5_000 },
      headers: { ...alice.auth, "Idempotency-Key": "alice-order-01" },
    });
    const mine = ((await mineResponse.json()) as { data: { id: string } }).data.id;
    expect((await opened({ ...ticket, orderId: mine })).orderId).toBe(mine);
  });

  it("goes open → answered by the operator → open on my reply → closed, and stays closed", async () => {
    const { id } = await opened();
    origin.advance(60_000);
    const queue = await origin.call("/api/admin/support/tickets?status=open", { method: "GET", headers: operatorAuth });
    expect(((await queue.json()) as { data: { id: string }[] }).data.map((item) => item.id)).toEqual([id]);

    const answer = await origin.call(`/api/admin/support/tickets/${id}/messages`, {
      body: { message: "We found the payment and credited your wallet." },
      headers: operatorAuth,
    });
    expect(answer.status).toBe(201);
    const read = await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: alice.auth });
    const answered = ((await read.json()) as { data: TicketThread }).data;
    expect(answered.status).toBe("answered");
    expect(answered.messages.map((message) => message.author)).toEqual(["user", "operator"]);

    const reply = await replyTo(id, "Thank you!");
    expect(((await reply.json()) as { data: TicketThread }).data.status).toBe("open");

    const closed = await origin.call(`/api/support/tickets/${id}/close`, { headers: alice.auth });
    expect(((await closed.json()) as { data: TicketThread }).data.status).toBe("closed");
    const late = await replyTo(id, "One more thing");
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "TICKET_CLOSED" });
  });

  it("keeps each user's tickets their own", async () => {
    const { id } = await opened();
    expect((await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: bob.auth })).status).toBe(404);
    expect((await replyTo(id, "hi", { auth: bob.auth })).status).toBe(404);
    expect((await origin.call(`/api/support/tickets/${id}/close`, { headers: bob.auth })).status).toBe(404);
    expect(await env.DB.prepare("SELECT status FROM ticket WHERE id = ?1").bind(id).first("status")).toBe("open");
  });

  it.each([
    ["a message over 4,000 characters", { ...ticket, message: "x".repeat(4_001) }, "message"],
    ["an empty subject", { ...ticket, subject: "  " }, "subject"],
    ["an unknown category", { ...ticket, category: "refund-me" }, "category"],
    ["an unknown field", { ...ticket, priority: "urgent" }, "priority"],
    ["a subject with a NUL", { ...ticket, subject: "\u0000" }, "subject"],
  ])("refuses %s", async (_, body, field) => {
    const response = await open(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field });
  });

  it("posts a reply once when its answer is lost and the same key is retried", async () => {
    const { id } = await opened();
    origin.advance(60_000);
    const lost = await replyTo(id, "Any news?", { key: "reply-key-0001", db: answerLostAfterCommit() });
    expect(lost.status).toBe(500);
    const retry = await replyTo(id, "Any news?", { key: "reply-key-0001" });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const { data } = (await retry.json()) as { data: TicketThread };
    expect(data.messages.map((message) => message.body)).toEqual([ticket.message, "Any news?"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(2);
  });

  it("needs an Idempotency-Key to reply", async () => {
    const { id } = await opened();
    const response = await origin.call(`/api/support/tickets/${id}/messages`, { body: { message: "Hello?" }, headers: alice.auth });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", field: "Idempotency-Key" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(1);
  });

  it("answers a reply with the thread as it is, an operator's message written meanwhile included", async () => {
    const { id } = await opened();
    origin.advance(60_000);
    const operatorAnswers = () =>
      origin.call(`/api/admin/support/tickets/${id}/messages`, { body: { message: "We are looking into it." }, headers: operatorAuth });
    const reply = await replyTo(id, "Any news?", { db: beforeBatch(2, operatorAnswers) });
    expect(reply.status).toBe(201);
    const { data } = (await reply.json()) as { data: TicketThread };
    expect(data.status).toBe("open");
    expect(data.messages.map((message) => message.author)).toEqual(["user", "operator", "user"]);
    const read = await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: alice.auth });
    expect(((await read.json()) as { data: TicketThread }).data).toEqual(data);
  });

  it("gives up after the ticket changed three times while the reply was written, sending nothing and recording nothing", async () => {
    const { id } = await opened();
    const operatorAnswers = () =>
      origin.call(`/api/admin/support/tickets/${id}/messages`, { body: { message: "Still looking." }, headers: operatorAuth });
    // Each attempt reads (a batch), then commits (the next batch): an answer lands before each commit.
    const busy = beforeBatch(2, operatorAnswers, beforeBatch(4, operatorAnswers, beforeBatch(6, operatorAnswers)));
    const reply = await replyTo(id, "Any news?", { key: "reply-key-busy", db: busy });
    expect(reply.status).toBe(409);
    expect(await reply.json()).toMatchObject({ code: "TICKET_CHANGED" });
    const count = () => env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n");
    expect(await count()).toBe(4);
    const retry = await replyTo(id, "Any news?", { key: "reply-key-busy" });
    expect(retry.status).toBe(201);
    expect(await count()).toBe(5);
  });

  it("refuses a reply to a ticket closed while it was written, sending nothing", async () => {
    const { id } = await opened();
    const closes = () => origin.call(`/api/support/tickets/${id}/close`, { headers: alice.auth });
    const reply = await replyTo(id, "Any news?", { db: beforeBatch(2, closes) });
    expect(reply.status).toBe(409);
    expect(await reply.json()).toMatchObject({ code: "TICKET_CLOSED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(1);
  });

  it("lets automation answer with an Idempotency-Key: a retry after a lost answer sends nothing twice and hears the same thread", async () => {
    const { id } = await opened();
    origin.advance(60_000);
    const answer = (db?: D1Database, message = "We credited your wallet.") =>
      origin.call(`/api/admin/support/tickets/${id}/messages`, {
        body: { message },
        headers: { ...operatorAuth, "Idempotency-Key": "automation-answer-0001" },
        db,
      });
    expect((await answer(answerLostAfterCommit())).status).toBe(500);
    const retry = await answer();
    expect(retry.status).toBe(201);
    expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
    const { data } = (await retry.json()) as { data: TicketThread };
    expect(data.status).toBe("answered");
    expect(data.messages.map((message) => [message.author, message.body])).toEqual([
      ["user", ticket.message],
      ["operator", "We credited your wallet."],
    ]);
    const read = await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: alice.auth });
    expect(((await read.json()) as { data: TicketThread }).data).toEqual(data);
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'ticket.reply' AND object_id = ?1")
      .bind(id)
      .first("n");
    expect(audited).toBe(1);
    // The key with another message is refused, not taken for the first.
    const reused = await answer(undefined, "Something else.");
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket_message WHERE ticket_id = ?1").bind(id).first("n")).toBe(2);
  });

  it("answers automation's answer with the thread as it is, the person's message written meanwhile included", async () => {
    const { id } = await opened();
    origin.advance(60_000);
    const answer = await origin.call(`/api/admin/support/tickets/${id}/messages`, {
      body: { message: "We are looking into it." },
      headers: { ...operatorAuth, "Idempotency-Key": "automation-answer-0002" },
      db: beforeBatch(2, () => replyTo(id, "Any news?")),
    });
    expect(answer.status).toBe(201);
    const { data } = (await answer.json()) as { data: TicketThread };
    expect(data.messages.map((message) => message.author)).toEqual(["user", "user", "operator"]);
    const read = await origin.call(`/api/support/tickets/${id}`, { method: "GET", headers: alice.auth });
    expect(((await read.json()) as { data: TicketThread }).data).toEqual(data);
  });

  it("opens a ticket once when the same key is retried", async () => {
    await open(ticket, alice.auth, "ticket-key-0001");
    await open(ticket, alice.auth, "ticket-key-0001");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ticket").first("n")).toBe(1);
  });
});

describe("the contact form", () => {
  it("works signed out, with an email to answer", async () => {
    const response = await origin.call("/api/support/contact", {
      body: { email: "visitor@example.com", subject: "Business enquiry", message: "Do you offer invoices?" },
      headers: { "Idempotency-Key": "contact-key-001" },
    });
    expect(response.status).toBe(201);
    const queue = await origin.call("/api/admin/support/tickets", { method: "GET", headers: operatorAuth });
    expect(((await queue.json()) as { data: { email: string | null; category: string }[] }).data).toMatchObject([
      { email: "visitor@example.com", category: "other" },
    ]);
  });

  it("needs a real email address", async () => {
    const response = await origin.call("/api/support/contact", {
      body: { email: "not an email", subject: "Hi", message: "Hello" },
      headers: { "Idempotency-Key": "contact-key-002" },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ field: "email" });
  });
});
