import type { Ticket, TicketThread } from "#contract/support";

type TicketRow = {
  id: string;
  category: Ticket["category"];
  subject: string;
  order_id: string | null;
  status: Ticket["status"];
  created_at: number;
  updated_at: number;
};

export const ticketColumns = "id, category, subject, order_id, status, created_at, updated_at";

export function ticketFromRow(row: TicketRow): Ticket {
  return {
    id: row.id,
    category: row.category,
    subject: row.subject,
    orderId: row.order_id,
    status: row.status,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** A ticket and its messages; `owner` limits it to one user's (others' are not found). */
export async function findThread(db: D1Database, ticketId: string, owner: string | null): Promise<TicketThread | null> {
  const [ticket, messages] = await db.batch([
    db.prepare(`SELECT ${ticketColumns} FROM ticket WHERE id = ?1 AND (?2 IS NULL OR user_id = ?2)`).bind(ticketId, owner),
    db.prepare("SELECT author, body, created_at FROM ticket_message WHERE ticket_id = ?1 ORDER BY id").bind(ticketId),
  ]);
  const row = ticket?.results[0] as TicketRow | undefined;
  if (!row) return null;
  return {
    ...ticketFromRow(row),
    messages: ((messages?.results ?? []) as { author: "user" | "operator"; body: string; created_at: number }[]).map((message) => ({
      author: message.author,
      body: message.body,
      createdAt: new Date(message.created_at).toISOString(),
    })),
  };
}

export function openTicketStatements(
  db: D1Database,
  ticket: {
    id: string;
    userId: string | null;
    email: string | null;
    category: string;
    subject: string;
    orderId: string | null;
    message: string;
    at: number;
  },
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO ticket (id, user_id, email, category, subject, order_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)`,
      )
      .bind(ticket.id, ticket.userId, ticket.email, ticket.category, ticket.subject, ticket.orderId, ticket.at),
    db
      .prepare("INSERT INTO ticket_message (ticket_id, author, body, created_at) VALUES (?1, 'user', ?2, ?3)")
      .bind(ticket.id, ticket.message, ticket.at),
  ];
}

export function isTicketClosedError(error: unknown): boolean {
  return error instanceof Error && error.message.includes("the ticket is closed");
}
