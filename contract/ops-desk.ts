/** The back office's tickets desk (docs/decisions/016-ticket-desk-and-code-batches.md). */
import { z } from "zod";
import { handleSchema } from "./account";
import { pageCursorSchema } from "./openapi";
import { reasonSchema } from "./ops";
import { personSchema } from "./people";
import { ticketSchema, ticketStatuses, ticketThreadSchema } from "./support";

/** Whose tickets the queue shows: the calling operator's, everyone's, or those nobody has taken. */
const deskAssigneeFilters = ["me", "anyone", "unassigned"] as const;

export const deskQueueQuerySchema = z.strictObject({
  status: z.enum(ticketStatuses).default("open"),
  assignee: z.enum(deskAssigneeFilters).default("anyone"),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: pageCursorSchema.optional(),
});

/** A ticket as the desk sees it: who asked, who works it, how long it has been open. */
const deskTicketSchema = ticketSchema.extend({
  /** The contact form's address to answer; null for a signed-in user's ticket. */
  email: z.string().nullable(),
  /** The account that opened it; null for a contact-form ticket. */
  requester: personSchema.nullable(),
  /** The operator working it; null while nobody has taken it. */
  assignee: personSchema.nullable(),
  messageCount: z.number().int().min(0),
  /** Whole seconds since the ticket was opened. */
  ageSeconds: z.number().int().min(0),
});
export type DeskTicket = z.infer<typeof deskTicketSchema>;

export const deskQueuePageSchema = z.strictObject({
  tickets: z.array(deskTicketSchema),
  nextCursor: z.string().nullable(),
});

export const deskThreadSchema = deskTicketSchema.extend({
  messages: ticketThreadSchema.shape.messages,
  /**
   * True for a contact-form ticket (an email, no account): Paydesk does not e-mail replies
   * yet, so whoever answers must also write to that address themselves.
   */
  replyNotEmailed: z.boolean(),
});
export type DeskThread = z.infer<typeof deskThreadSchema>;

/**
 * Whom a ticket is assigned to: the calling operator (`{}` or `{ "to": "me" }`), or another
 * operator by handle (any role, not locked; otherwise 422 `NOT_AN_OPERATOR` naming `to`).
 */
export const assignTicketBodySchema = z.strictObject({
  to: z
    .union([z.literal("me"), handleSchema])
    .optional()
    .meta({ description: "`me` (the default), or the handle of the operator to work the ticket" }),
});

export const closeTicketBodySchema = z.strictObject({ reason: reasonSchema.optional() });
