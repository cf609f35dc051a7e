import { z } from "zod";
import { orderIdSchema } from "./orders";
import { userText } from "./text";
import { ticketCategories, ticketIdPattern } from "./value-lists";

export { ticketCategories };
export const ticketStatuses = ["open", "answered", "closed"] as const;

const message = userText({
  min: 1,
  max: 4_000,
  multiline: true,
  tooShort: "Write your message.",
  tooLong: "A message has at most 4,000 characters.",
});
const subject = userText({ min: 1, max: 120, tooShort: "Give your message a subject.", tooLong: "A subject has at most 120 characters." });

export const openTicketBodySchema = z.strictObject({
  category: z.enum(ticketCategories),
  subject,
  message,
  orderId: orderIdSchema.optional(),
});

/** The contact form works signed out, so it needs an address to answer (docs/screens.md). */
export const contactBodySchema = z.strictObject({
  // z.email()'s own rule, written as a pattern so the published schema states it exactly.
  email: z.string().max(254).regex(z.regexes.email, "Enter an email address we can answer."),
  category: z.enum(ticketCategories).default("other"),
  subject,
  message,
});

export const replyBodySchema = z.strictObject({ message });

export const ticketSchema = z.strictObject({
  id: z.string(),
  category: z.enum(ticketCategories),
  subject: z.string(),
  orderId: z.string().nullable(),
  status: z.enum(ticketStatuses),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Ticket = z.infer<typeof ticketSchema>;

export const ticketThreadSchema = ticketSchema.extend({
  messages: z.array(z.strictObject({ author: z.enum(["user", "operator"]), body: z.string(), createdAt: z.iso.datetime() })),
});
export type TicketThread = z.infer<typeof ticketThreadSchema>;

const ticketIdSchema = z.string().regex(ticketIdPattern, "Not a ticket id.");
export const ticketIdParamSchema = z.strictObject({ id: ticketIdSchema });
