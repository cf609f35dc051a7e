import { data } from "react-router";
import type { Route } from "./+types/tos";
import { pageCacheControl } from "../config.server";
import { termsEffectiveDate, termsSections } from "../content/terms.server";

export function loader() {
  return data(
    { effectiveDate: termsEffectiveDate, sections: termsSections },
    { headers: { "Cache-Control": pageCacheControl } },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta() {
  return [{ title: "Terms of service · Paydesk" }];
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose" aria-labelledby="tos-title">
      <h1 id="tos-title">Terms of service</h1>
      <p>
        In force from <time dateTime={loaderData.effectiveDate}>{loaderData.effectiveDate}</time>.
      </p>
      {loaderData.sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`}>
          <h2 id={`${section.id}-title`}>{section.title}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
