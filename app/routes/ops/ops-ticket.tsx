import { useFetcher } from "react-router";
import type { Route } from "./+types/ops-ticket";
import type { DeskThread } from "#contract/ops-desk";
import { getDeskThread, workTicket } from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime } from "../../components/money";
import { formText, runAction, type ActionResult } from "../../forms/action-result";
import { Field, FormAlert, SubmitButton, TextAreaField } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { typedHandle } from "../../forms/typed-handle";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { OpsView } from "../../ops/ops-view";
import { loadPersonal } from "../../personal/load-personal";

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  return loadPersonal((api) => getDeskThread(api, params.id));
}

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionResult> {
  const key = (form: FormData) => formText(form, "idempotencyKey");
  return dispatchIntent(await request.formData(), {
    assign: (form) => runAction("assign", (api) => workTicket(api, params.id, { assign: "me" }, key(form))),
    assign_to: (form) =>
      runAction("assign_to", (api) => workTicket(api, params.id, { assign: typedHandle(formText(form, "to")) }, key(form))),
    reply: (form) => runAction("reply", (api) => workTicket(api, params.id, { reply: formText(form, "message") }, key(form))),
    close: (form) => runAction("close", (api) => workTicket(api, params.id, { close: formText(form, "reason") }, key(form))),
  });
}

/** One of the ticket's actions: a form with its own key, its own answer. */
function TicketAction({
  intent,
  label,
  done,
  children,
}: {
  intent: "assign" | "assign_to" | "reply" | "close";
  label: string;
  done: string;
  children?: (result: ActionResult | undefined) => React.ReactNode;
}) {
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  useAnnounceSuccess(fetcher.data, done);
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["message", "reason", "to"]} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {children?.(fetcher.data)}
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={label} className="button button-secondary">
        {label}
      </SubmitButton>
    </fetcher.Form>
  );
}

function ThreadView({ thread }: { thread: DeskThread }) {
  const text = useMessages(opsMessages);
  return (
    <section aria-labelledby="ops-ticket-title">
      <h1 id="ops-ticket-title">{thread.subject}</h1>
      <p>
        <span className="badge">{text.ticketStatus[thread.status]}</span>{" "}
        {thread.requester ? `${thread.requester.displayName} (@${thread.requester.handle})` : thread.email} ·{" "}
        {thread.assignee ? text.assignedTo(thread.assignee.displayName) : text.unassigned}
      </p>
      {thread.replyNotEmailed && thread.email ? (
        <p className="notice notice-warning" data-testid="ops-not-emailed">
          {text.notEmailed(thread.email)}
        </p>
      ) : null}
      <ol className="item-list" data-testid="ops-thread">
        {thread.messages.map((message) => (
          <li key={`${message.createdAt}-${message.author}-${message.body.length}`} className="item">
            <span className="item-main">
              <span className="item-title">{text.from[message.author]}</span>
              <span className="item-meta">
                <DateTime iso={message.createdAt} />
              </span>
              <span className="thread-body">{message.body}</span>
            </span>
          </li>
        ))}
      </ol>
      {thread.status === "closed" ? null : (
        <div className="ops-grid">
          <div className="ops-actions">
            <TicketAction intent="reply" label={text.reply} done={text.replied}>
              {(result) => (
                <TextAreaField
                  id="ops-reply"
                  name="message"
                  label={text.replyLabel}
                  required
                  rows={4}
                  error={fieldError(result, "message")}
                />
              )}
            </TicketAction>
          </div>
          <div className="ops-actions">
            <TicketAction intent="assign" label={text.assignToMe} done={text.assigned} />
            <TicketAction intent="assign_to" label={text.assignToOther} done={text.assignedToOther}>
              {(result) => (
                <Field
                  id="ops-assign-to"
                  name="to"
                  label={text.assignToHandle}
                  hint={text.assignToHandleHint}
                  required
                  autoCapitalize="none"
                  spellCheck={false}
                  maxLength={33}
                  error={fieldError(result, "to")}
                />
              )}
            </TicketAction>
            <TicketAction intent="close" label={text.closeTicket} done={text.closedDone}>
              {(result) => (
                <TextAreaField id="ops-close-reason" name="reason" label={text.closeReason} rows={2} error={fieldError(result, "reason")} />
              )}
            </TicketAction>
          </div>
        </div>
      )}
    </section>
  );
}

export default function OpsTicket({ loaderData }: Route.ComponentProps) {
  return <OpsView result={loaderData}>{(thread) => <ThreadView thread={thread} />}</OpsView>;
}
