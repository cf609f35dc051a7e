import { data } from "react-router";
import type { Route } from "./+types/tos";
import { pageCacheControl, statedSettings } from "../config.server";
import { termsEffectiveDate, termsSections } from "../content/terms.server";
import { termsSections as termsSectionsZh } from "../content/terms.zh-CN.server";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { contentMessages } from "../messages/content";
import { textWithFigures } from "../content/figures.server";
import { languageContext } from "../server-context";

const sectionsFor = textWithFigures({ en: termsSections, "zh-CN": termsSectionsZh });

export function loader({ context }: Route.LoaderArgs) {
  const sections = sectionsFor(statedSettings({ withLocks: false, withTasks: false }), context.get(languageContext));
  return data({ effectiveDate: termsEffectiveDate, sections }, { headers: { "Cache-Control": pageCacheControl } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  const text = contentMessages[metaLanguage(matches)];
  return pageMeta(`${text.termsTitle} · Paydesk`, text.termsDescription);
}

export default function Terms({ loaderData }: Route.ComponentProps) {
  const text = useMessages(contentMessages);
  return (
    <article className="prose" aria-labelledby="tos-title">
      <h1 id="tos-title">{text.termsTitle}</h1>
      <p>
        {text.inForceFrom} <time dateTime={loaderData.effectiveDate}>{loaderData.effectiveDate}</time>
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
