import { data } from "react-router";
import type { Route } from "./+types/help";
import { pageCacheControl } from "../config.server";
import { helpTopics } from "../content/help.server";

export function loader() {
  return data({ topics: helpTopics }, { headers: { "Cache-Control": pageCacheControl } });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export function meta() {
  return [{ title: "Help · Paydesk" }];
}

export default function Help({ loaderData }: Route.ComponentProps) {
  return (
    <article className="prose" aria-labelledby="help-title">
      <h1 id="help-title">Help</h1>
      <p>Answers to the questions people ask most. Still stuck? Open a support ticket or contact us.</p>
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
