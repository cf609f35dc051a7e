import type { Route } from "./+types/task";
import { PersonalFallback } from "../personal/personal-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { taskMessages } from "../messages/tasks";
import { loadTaskBoard } from "../tasks/load-task-board";
import { actOnTaskForm } from "../tasks/task-actions";
import { TaskBoard } from "../tasks/task-board";

export function meta({ matches }: Route.MetaArgs) {
  const text = taskMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.pageDescription);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return loadTaskBoard(request.url);
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  return actOnTaskForm(await request.formData());
}

export function HydrateFallback() {
  const text = useMessages(taskMessages);
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Tasks({ loaderData }: Route.ComponentProps) {
  return <TaskBoard board={loaderData} />;
}
