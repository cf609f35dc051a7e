/**
 * A message on a ticket, answered with the thread it makes, worked out from what was read: the
 * batch states that read (the status and how many messages), so a reply recorded for its key
 * never replays a thread without a message that landed in between. When the ticket changed,
 * the reply reads again (read-again.ts), three times at most; then 409 TICKET_CHANGED.
 * The person's reply and automation's answer both write this way.
 */
import type { Context } from "hono";
import type { TicketThread } from "#contract/support";
import { ApiError } from "../http/answer";
import { assertInBatch, isFailedAssertion } from "../idempotency/batch-assertion";
import { ChangedMeanwhile, readingAgainIfChanged } from "../idempotency/read-again";
import type { OriginEnv } from "../origin-env";
import { findThread } from "./tickets";

export type TicketMessage = {
  id: string;
  message: string;
  author: "user" | "operator";
  /** The person whose ticket it must be; null for automation, which answers any ticket. */
  owner: string | null;
  /** What the person or the operator is told of a closed ticket. */
  closed: ApiError;
  /** Written in the same batch (automation's audit row). */
  alsoInBatch?: (at: number) => D1PreparedStatement[];
};

export function replyAsRead(c: Context<OriginEnv>, asked: TicketMessage) {
  return readingAgainIfChanged(
    () => replyOnce(c, asked),
    () =>
      c.var.idempotency.refuse(new ApiError("TICKET_CHANGED", "Someone else changed this ticket just now. Reload it and try again."), {
        lasting: false,
      }),
  );
}

async function replyOnce(c: Context<OriginEnv>, { id, message, author, owner, closed, alsoInBatch }: TicketMessage) {
  const db = c.env.DB;
  const found = await findThread(db, id, owner);
  // Not lasting: a missing ticket is not a state a retry must keep hearing.
  if (!found) return c.var.idempotency.refuse(new ApiError("NOT_FOUND", "There is no such ticket."), { lasting: false });
  if (found.status === "closed") return c.var.idempotency.refuse(closed);
  const now = c.var.clock.now();
  const at = new Date(now).toISOString();
  // The message's own trigger (migration 0005) reopens the ticket (the person's) or makes it
  // answered (an operator's). One closed meanwhile fails the batch's statement of its status.
  const replied: TicketThread = {
    ...found,
    status: author === "user" ? "open" : "answered",
    updatedAt: at,
    messages: [...found.messages, { author, body: message, createdAt: at }],
  };
  try {
    return await c.var.idempotency.commit(
      [
        assertInBatch(
          db,
          "the ticket is as read",
          "coalesce((SELECT status = ? AND (SELECT count(*) FROM ticket_message WHERE ticket_id = ticket.id) = ? FROM ticket WHERE id = ?), 0)",
          found.status,
          found.messages.length,
          id,
        ),
        db
          .prepare("INSERT INTO ticket_message (ticket_id, author, body, created_at) VALUES (?1, ?2, ?3, ?4)")
          .bind(id, author, message, now),
        ...(alsoInBatch?.(now) ?? []),
      ],
      201,
      { code: "SUCCESS" as const, data: replied },
    );
  } catch (error) {
    if (isFailedAssertion(error)) throw new ChangedMeanwhile();
    throw error;
  }
}
