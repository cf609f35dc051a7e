import { data } from "react-router";
import type { Route } from "./+types/help";
import { pageCacheControl, statedSettings } from "../config.server";
import { helpTopics } from "../content/help.server";
import { helpTopics as helpTopicsZh } from "../content/help.zh-CN.server";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { contentMessages } from "../messages/content";
import { textWithFigures } from "../content/figures.server";
import { languageContext } from "../server-context";

const topicsFor = textWithFigures({ en: helpTopics, "zh-CN": helpTopicsZh });

// The edge keys its cache by language, so each language's answers are cached apart.
export function loader({ context }: Route.LoaderArgs) {
  const topics = topicsFor(statedSettings({ withLocks: true, withTasks: true }), context.get(languageContext));
  return data({ topics }, { headers: { "Cache-Control": pageCacheControl } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  const text = contentMessages[metaLanguage(matches)];
  return pageMeta(`${text.helpTitle} · Paydesk`, text.helpDescription);
}

export default function Help({ loaderData }: Route.ComponentProps) {
  const text = useMessages(contentMessages);
  return (
    <article className="prose" aria-labelledby="help-title">
      <h1 id="help-title">{text.helpTitle}</h1>
      <p>{text.helpLead}</p>
      {loaderData.topics.map((topic) => (
        <section key={topic.title} aria-label={topic.title}>
          <h2>{topic.title}</h2>
          {topic.answers.map((item) => (
            <details key={item.id} id={item.id}>
              <summary>{item.question}</summary>
              {item.answer.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </details>
          ))}
        </section>
      ))}
    </article>
  );
}
