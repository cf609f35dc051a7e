/*
 * Support for someone signed in: the tickets, a thread, and their forms. A chunk fetched on
 * first use (app/routes/support.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { Link, useFetcher } from "react-router";
import type { Ticket, TicketThread } from "#contract/support";
import { supportSchemas } from "../contract-schemas";
import { ticketCategories } from "#contract/value-lists";
import { closeTicket, openTicket, replyToTicket } from "../api/support";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { Field, FormAlert, SelectField, SubmitButton, TextAreaField } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { currentLanguage, useMessages } from "../i18n/messages";
import { supportMessages } from "../messages/support";
import { ticketFields } from "../messages/ticket-fields";
import { currentTextLimits, sayLength, useTextLimits } from "../text-limits";
import { ticketMessages } from "../messages/ticket";
import { usePrefetchWhenIdle } from "../startup/on-first-use";

/** What the address asks for: the list of tickets with the form to open one, or one thread. */
export type SupportView = { view: "list"; tickets: Ticket[] } | { view: "thread"; ticket: TicketThread };

// The deploy's longest message (app/text-limits.ts), held before sending as the origin holds it.
const messageLength = () => currentTextLimits().support.message;
const fieldMessages = () => ticketFields(currentLanguage(), sayLength(messageLength()));

const ticketIntents = {
  open: (form: FormData) =>
    runAction("open", async (api) => {
      const orderId = formText(form, "orderId").trim();
      const body = await checked(
        (await supportSchemas.load()).openTicketBodySchema,
        {
          category: formText(form, "category"),
          subject: formText(form, "subject").trim(),
          message: formText(form, "message").trim(),
          ...(orderId ? { orderId } : {}),
        },
        fieldMessages(),
        {},
        { message: messageLength() },
      );
      return openTicket(api, body, formText(form, "idempotencyKey"));
    }),
  reply: (form: FormData) =>
    runAction("reply", async (api) =>
      replyToTicket(
        api,
        formText(form, "id"),
        await checked(
          (await supportSchemas.load()).replyBodySchema,
          { message: formText(form, "message").trim() },
          fieldMessages(),
          {},
          { message: messageLength() },
        ),
        formText(form, "idempotencyKey"),
      ),
    ),
  close: (form: FormData) => runAction("close", (api) => closeTicket(api, formText(form, "id"), formText(form, "idempotencyKey"))),
};

/** The page's action: open a ticket, reply, or close one. */
export function actOnSupportForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, ticketIntents);
}

function OpenTicket() {
  const text = useMessages(supportMessages);
  const ticketText = useMessages(ticketMessages);
  const messageLengthText = sayLength(useTextLimits().support.message);
  const fetcher = useFetcher<ActionResult<TicketThread>>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result);
  return (
    <section className="card" aria-labelledby="open-ticket-title">
      <h2 id="open-ticket-title">{text.openTitle}</h2>
      <fetcher.Form method="post" ref={formRef} className="form" noValidate>
        <FormAlert result={result} fields={["category", "subject", "message", "orderId"]} />
        <input type="hidden" name="intent" value="open" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <SelectField
          id="ticket-category"
          name="category"
          label={ticketText.category}
          options={ticketCategories.map((value) => ({ value, label: ticketText.categories[value] }))}
          error={fieldError(result, "category")}
        />
        <Field
          id="ticket-subject"
          name="subject"
          label={ticketText.subject}
          hint={ticketText.subjectHint}
          required
          error={fieldError(result, "subject")}
        />
        <TextAreaField
          id="ticket-message"
          name="message"
          label={ticketText.message}
          hint={ticketText.messageHint(messageLengthText)}
          required
          rows={5}
          error={fieldError(result, "message")}
        />
        <Field
          id="ticket-order"
          name="orderId"
          label={text.orderId}
          hint={text.orderIdHint}
          maxLength={40}
          autoComplete="off"
          spellCheck={false}
          error={fieldError(result, "orderId")}
        />
        <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={ticketText.opening}>
          {ticketText.open}
        </SubmitButton>
      </fetcher.Form>
      <p role="status">{result?.ok ? <Link to={`/support?id=${result.data.id}`}>{text.opened}</Link> : null}</p>
    </section>
  );
}

function TicketList({ tickets }: { tickets: Ticket[] }) {
  const text = useMessages(supportMessages);
  const ticketText = useMessages(ticketMessages);
  return (
    <>
      {tickets.length === 0 ? (
        <p className="empty">{text.noTickets}</p>
      ) : (
        <ul className="item-list" aria-label={text.tickets}>
          {tickets.map((ticket) => (
            <li key={ticket.id} className="item">
              <Link to={`/support?id=${ticket.id}`} className="item-main">
                <span className="item-title">{ticket.subject}</span>
                <span className="item-meta">
                  {ticketText.categories[ticket.category]} · {text.updated} <DateTime iso={ticket.updatedAt} />
                </span>
              </Link>
              <span className={`badge badge-${ticket.status}`}>{text.status[ticket.status]}</span>
            </li>
          ))}
        </ul>
      )}
      <OpenTicket />
    </>
  );
}

function Reply({ ticket }: { ticket: TicketThread }) {
  const text = useMessages(supportMessages);
  const ticketText = useMessages(ticketMessages);
  const messageLengthText = sayLength(useTextLimits().support.message);
  const fetcher = useFetcher<ActionResult>();
  const closer = useFetcher<ActionResult>();
  const result = fetcher.data;
  const replying = useFormInstance(result);
  const closing = useFormInstance(closer.data, { resetOnSuccess: false });
  useAnnounceSuccess(result, text.replied);
  useAnnounceSuccess(closer.data, text.ticketClosed);
  return (
    <>
      <fetcher.Form method="post" ref={replying.formRef} className="form" noValidate>
        <FormAlert result={result} fields={["message"]} />
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="id" value={ticket.id} />
        <input type="hidden" name="idempotencyKey" value={replying.idempotencyKey} />
        <TextAreaField
          id="ticket-reply"
          name="message"
          label={text.reply}
          hint={ticketText.messageHint(messageLengthText)}
          required
          rows={4}
          error={fieldError(result, "message")}
        />
        <SubmitButton busy={fetcher.state !== "idle" || !replying.idempotencyKey} busyLabel={text.sending}>
          {text.send}
        </SubmitButton>
      </fetcher.Form>
      <closer.Form method="post" ref={closing.formRef}>
        <FormAlert result={closer.data} />
        <input type="hidden" name="intent" value="close" />
        <input type="hidden" name="id" value={ticket.id} />
        <input type="hidden" name="idempotencyKey" value={closing.idempotencyKey} />
        <SubmitButton
          busy={closer.state !== "idle" || !closing.idempotencyKey}
          busyLabel={text.closing}
          className="button button-secondary"
        >
          {text.close}
        </SubmitButton>
      </closer.Form>
    </>
  );
}

function Thread({ ticket }: { ticket: TicketThread }) {
  const text = useMessages(supportMessages);
  const ticketText = useMessages(ticketMessages);
  return (
    <article className="card" aria-labelledby="thread-title">
      <p>
        <Link to="/support">← {text.back}</Link>
      </p>
      <h2 id="thread-title">{ticket.subject}</h2>
      <p>
        <span className={`badge badge-${ticket.status}`}>{text.status[ticket.status]}</span> · {ticketText.categories[ticket.category]}
        {ticket.orderId ? (
          <>
            {" "}
            · <Link to={`/order?id=${ticket.orderId}`}>{ticket.orderId}</Link>
          </>
        ) : null}
      </p>
      <ol className="thread" aria-label={text.thread}>
        {ticket.messages.map((message, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a thread only grows at its end, so a message keeps its index; nothing else in it is unique.
          <li key={index} className={`thread-message thread-${message.author}`}>
            <p className="thread-author">
              {message.author === "user" ? text.you : text.operator} · <DateTime iso={message.createdAt} />
            </p>
            <p className="thread-body">{message.body}</p>
          </li>
        ))}
      </ol>
      {ticket.status === "closed" ? <p>{text.closedNote}</p> : <Reply ticket={ticket} />}
    </article>
  );
}

export function SupportScreen({ screen }: { screen: SupportView }) {
  usePrefetchWhenIdle(supportSchemas.part);
  return screen.view === "thread" ? <Thread ticket={screen.ticket} /> : <TicketList tickets={screen.tickets} />;
}
