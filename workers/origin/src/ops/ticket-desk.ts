/**
 * What the tickets desk reads (docs/decisions/016-ticket-desk-and-code-batches.md): tickets
 * with who asked, who works them, how many messages and how old, for the queue and a thread.
 */
import type { DeskThread, DeskTicket } from "#contract/ops-desk";
import type { Ticket } from "#contract/support";
import { ticketFromRow } from "../support/tickets";
import { decodeTimeIdCursor, encodeTimeIdCursor } from "./time-id-cursor";

/** The queue's page: bounded, so the desk never reads the whole table. */
const deskPageSize = 50;

export type DeskTicketRow = {
  id: string;
  category: Ticket["category"];
  subject: string;
  order_id: string | null;
  status: Ticket["status"];
  created_at: number;
  updated_at: number;
  user_id: string | null;
  email: string | null;
  assignee_id: string | null;
  requester_handle: string | null;
  requester_display_name: string | null;
  assignee_handle: string | null;
  assignee_display_name: string | null;
  message_count: number;
};

const deskTicketSelect = `
  SELECT ticket.id, ticket.category, ticket.subject, ticket.order_id, ticket.status, ticket.created_at, ticket.updated_at,
         ticket.user_id, ticket.email, ticket.assignee_id,
         requester.handle AS requester_handle, requester.display_name AS requester_display_name,
         assignee.handle AS assignee_handle, assignee.display_name AS assignee_display_name,
         (SELECT count(*) FROM ticket_message WHERE ticket_message.ticket_id = ticket.id) AS message_count
  FROM ticket
  LEFT JOIN user AS requester ON requester.id = ticket.user_id
  LEFT JOIN user AS assignee ON assignee.id = ticket.assignee_id`;

const personOf = (handle: string | null, displayName: string | null) =>
  handle === null ? null : { handle, displayName: displayName ?? handle };

function deskTicketFromRow(row: DeskTicketRow, now: number): DeskTicket {
  return {
    ...ticketFromRow(row),
    email: row.email,
    requester: personOf(row.requester_handle, row.requester_display_name),
    assignee: personOf(row.assignee_handle, row.assignee_display_name),
    messageCount: row.message_count,
    ageSeconds: Math.max(0, Math.floor((now - row.created_at) / 1000)),
  };
}

/** The queue: one status, oldest activity first (by updated_at, then id), a page at a time. */
export async function deskQueue(
  db: D1Database,
  query: { status: Ticket["status"]; assignee: "me" | "anyone" | "unassigned"; operatorId: string; cursor?: string; now: number },
): Promise<{ tickets: DeskTicket[]; nextCursor: string | null }> {
  const after = query.cursor ? decodeTimeIdCursor(query.cursor) : null;
  const rows = await db
    .prepare(
      `${deskTicketSelect}
       WHERE ticket.status = ?1
         AND (?2 = 'anyone' OR (?2 = 'me' AND ticket.assignee_id = ?3) OR (?2 = 'unassigned' AND ticket.assignee_id IS NULL))
         AND (?4 IS NULL OR ticket.updated_at > ?4 OR (ticket.updated_at = ?4 AND ticket.id > ?5))
       ORDER BY ticket.updated_at, ticket.id LIMIT ?6`,
    )
    .bind(query.status, query.assignee, query.operatorId, after?.at ?? null, after?.id ?? "", deskPageSize + 1)
    .all<DeskTicketRow>();
  const page = rows.results.slice(0, deskPageSize);
  const last = page.at(-1);
  return {
    tickets: page.map((row) => deskTicketFromRow(row, query.now)),
    nextCursor: rows.results.length > deskPageSize && last ? encodeTimeIdCursor({ at: last.updated_at, id: last.id }) : null,
  };
}

export type DeskMessageRow = { author: "user" | "operator"; body: string; created_at: number };

/**
 * A ticket's row and messages as they are now: what the desk shows, and what its changes
 * state they read (their answers are worked out from it before the batch runs).
 */
export async function findDeskTicket(db: D1Database, id: string): Promise<{ row: DeskTicketRow; messages: DeskMessageRow[] } | null> {
  const [ticket, messages] = await db.batch([
    db.prepare(`${deskTicketSelect} WHERE ticket.id = ?1`).bind(id),
    db.prepare("SELECT author, body, created_at FROM ticket_message WHERE ticket_id = ?1 ORDER BY id").bind(id),
  ]);
  const row = ticket?.results[0] as DeskTicketRow | undefined;
  return row ? { row, messages: (messages?.results ?? []) as DeskMessageRow[] } : null;
}

export function deskThreadOf(row: DeskTicketRow, messages: DeskMessageRow[], now: number): DeskThread {
  return {
    ...deskTicketFromRow({ ...row, message_count: messages.length }, now),
    messages: messages.map((message) => ({
      author: message.author,
      body: message.body,
      createdAt: new Date(message.created_at).toISOString(),
    })),
    // Replies to the contact form are not e-mailed yet: the desk must say so (decision 014).
    replyNotEmailed: row.email !== null && row.user_id === null,
  };
}
