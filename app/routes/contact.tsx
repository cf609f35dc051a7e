import { data, useFetcher } from "react-router";
import type { Route } from "./+types/contact";
import { ticketCategories } from "#contract/value-lists";
import { pageCacheControl } from "../config.server";
import { contactDetails } from "../content/contact.server";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, SelectField, SubmitButton, TextAreaField } from "../forms/fields";
import { submitWith } from "../forms/submit-part";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { contactMessages } from "../messages/contact";
import { ticketMessages } from "../messages/ticket";
import { partOnFirstUse, usePrefetchWhenIdle } from "../startup/on-first-use";
import { sayLength, useTextLimits } from "../text-limits";

export function loader() {
  return data({ contact: contactDetails() }, { headers: { "Cache-Control": pageCacheControl } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  const text = contactMessages[metaLanguage(matches)];
  return pageMeta(`${text.contactTitle} · Paydesk`, text.contactDescription);
}

const contactActions = partOnFirstUse("contact-actions", () => import("../support/contact-actions.client"));

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult<{ id: string }>> {
  return submitWith(contactActions, request, ({ actOnContactForm }, form) => actOnContactForm(form));
}

function ContactForm() {
  const text = useMessages(contactMessages);
  const ticketText = useMessages(ticketMessages);
  const messageLength = useTextLimits().support.message;
  const fetcher = useFetcher<typeof clientAction>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result);
  usePrefetchWhenIdle(contactActions);
  return (
    <section className="card" aria-labelledby="contact-form-title">
      <h2 id="contact-form-title">{text.formTitle}</h2>
      <fetcher.Form method="post" ref={formRef} className="form" noValidate>
        <FormAlert result={result} fields={["email", "category", "subject", "message"]} />
        <input type="hidden" name="intent" value="contact" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Field
          id="contact-email"
          name="email"
          type="email"
          label={text.yourEmail}
          hint={text.yourEmailHint}
          autoComplete="email"
          required
          maxLength={254}
          error={fieldError(result, "email")}
        />
        <SelectField
          id="contact-category"
          name="category"
          label={ticketText.category}
          defaultValue="other"
          options={ticketCategories.map((value) => ({ value, label: ticketText.categories[value] }))}
          error={fieldError(result, "category")}
        />
        <Field
          id="contact-subject"
          name="subject"
          label={ticketText.subject}
          hint={ticketText.subjectHint}
          required
          error={fieldError(result, "subject")}
        />
        <TextAreaField
          id="contact-message"
          name="message"
          label={ticketText.message}
          hint={ticketText.messageHint(sayLength(messageLength))}
          required
          rows={5}
          error={fieldError(result, "message")}
        />
        <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={ticketText.opening}>
          {ticketText.open}
        </SubmitButton>
      </fetcher.Form>
      <p role="status">{result?.ok ? text.contactSent(result.data.id) : null}</p>
    </section>
  );
}

export default function Contact({ loaderData }: Route.ComponentProps) {
  const { contact } = loaderData;
  const text = useMessages(contactMessages);
  return (
    <article className="prose" aria-labelledby="contact-title">
      <h1 id="contact-title">{text.contactTitle}</h1>
      <p>{text.contactLead}</p>
      <dl className="contact-details">
        <dt>{text.email}</dt>
        <dd>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </dd>
        <dt>{text.phone}</dt>
        <dd>
          <a href={`tel:${contact.phone.replace(/[^+\d]/g, "")}`}>{contact.phone}</a>
        </dd>
        <dt>{text.hours}</dt>
        <dd>{contact.hours}</dd>
        <dt>{text.address}</dt>
        <dd>{contact.address}</dd>
      </dl>
      <ContactForm />
    </article>
  );
}
