import { data } from "react-router";
import type { Route } from "./+types/contact";
import { pageCacheControl } from "../config.server";
import { contactDetails } from "../content/contact.server";

export function loader() {
  return data({ contact: contactDetails() }, { headers: { "Cache-Control": pageCacheControl } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta() {
  return [{ title: "Contact · Paydesk" }];
}

export default function Contact({ loaderData }: Route.ComponentProps) {
  const { contact } = loaderData;
  return (
    <article className="prose" aria-labelledby="contact-title">
      <h1 id="contact-title">Contact us</h1>
      <p>For questions about an order or a payment, a support ticket reaches us fastest: it keeps the whole conversation in one place.</p>
      <dl className="contact-details">
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${contact.email}`}>{contact.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>
          <a href={`tel:${contact.phone.replace(/[^+\d]/g, "")}`}>{contact.phone}</a>
        </dd>
        <dt>Hours</dt>
        <dd>{contact.hours}</dd>
        <dt>Address</dt>
        <dd>{contact.address}</dd>
      </dl>
    </article>
  );
}
