import type { z } from "zod";
import type { contactBodySchema, openTicketBodySchema, replyBodySchema, Ticket, TicketThread } from "#contract/support";
import { apiPath } from "./api-path";
import { postApi, unwrap, type SignedInApi } from "./client";

/** What the contact form's ticket is known by (the contract names no schema for it). */
type ContactReceipt = { id: string; status: "open" };

export function listTickets(api: SignedInApi): Promise<Ticket[]> {
  return api.get<Ticket[]>("/api/support/tickets");
}

export function getTicket(api: SignedInApi, id: string): Promise<TicketThread> {
  return api.get<TicketThread>(apiPath`/api/support/tickets/${id}`);
}

export function openTicket(api: SignedInApi, body: z.input<typeof openTicketBodySchema>, idempotencyKey: string): Promise<TicketThread> {
  return api.post<TicketThread>("/api/support/tickets", body, idempotencyKey);
}

export function replyToTicket(
  api: SignedInApi,
  id: string,
  body: z.input<typeof replyBodySchema>,
  idempotencyKey: string,
): Promise<TicketThread> {
  return api.post<TicketThread>(apiPath`/api/support/tickets/${id}/messages`, body, idempotencyKey);
}

export function closeTicket(api: SignedInApi, id: string, idempotencyKey: string): Promise<TicketThread> {
  return api.post<TicketThread>(apiPath`/api/support/tickets/${id}/close`, {}, idempotencyKey);
}

/** The contact form works signed out: no token, an email address to answer instead. */
export async function sendContactMessage(body: z.input<typeof contactBodySchema>, idempotencyKey: string): Promise<ContactReceipt> {
  return unwrap(await postApi<ContactReceipt>("/api/support/contact", body, { idempotencyKey }));
}
