import { Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/ops-tickets";
import { ticketQueue } from "../../api/ops";
import { DateTime } from "../../components/money";
import { SelectField } from "../../forms/fields";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";

const statuses = ["open", "answered", "closed"] as const;
const assignees = ["anyone", "me", "unassigned"] as const;

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  const status = statuses.find((known) => known === params.get("status")) ?? "open";
  const assignee = assignees.find((known) => known === params.get("assignee")) ?? "anyone";
  return loadPersonal((api) => ticketQueue(api, { status, assignee, cursor: params.get("cursor") ?? undefined }));
}

/** The queue, oldest first (docs/decisions/016-ticket-desk-and-code-batches.md). */
export default function OpsTickets({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="ops-tickets-title">
      <h1 id="ops-tickets-title">{text.ticketsQueueTitle}</h1>
      <Form method="get" className="form-actions">
        <SelectField
          id="ops-tickets-status"
          name="status"
          label={text.statusLabel}
          defaultValue={params.get("status") ?? "open"}
          options={statuses.map((status) => ({ value: status, label: text.ticketStatus[status] }))}
        />
        <SelectField
          id="ops-tickets-assignee"
          name="assignee"
          label={text.assigneeLabel}
          defaultValue={params.get("assignee") ?? "anyone"}
          options={assignees.map((assignee) => ({ value: assignee, label: text.assigneeFilter[assignee] }))}
        />
        <button className="button" type="submit">
          {text.show}
        </button>
      </Form>
      <OpsView result={loaderData}>
        {(queue) =>
          queue.tickets.length === 0 ? (
            <p>{text.noTickets}</p>
          ) : (
            <ul className="item-list" data-testid="ops-tickets">
              {queue.tickets.map((ticket) => (
                <li key={ticket.id} className="item">
                  <span className="item-main">
                    <Link className="item-title" to={`/ops/tickets/${ticket.id}`}>
                      {ticket.subject}
                    </Link>
                    <span className="item-meta">
                      <DateTime iso={ticket.updatedAt} /> ·{" "}
                      {text.ticketMeta(ticket.messageCount, ticket.requester ? `@${ticket.requester.handle}` : (ticket.email ?? ""))} ·{" "}
                      {ticket.assignee ? text.assignedTo(ticket.assignee.displayName) : text.unassigned}
                    </span>
                  </span>
                  <span className="item-side">
                    <span className="badge">{text.ticketStatus[ticket.status]}</span>
                  </span>
                </li>
              ))}
            </ul>
          )
        }
      </OpsView>
    </section>
  );
}
