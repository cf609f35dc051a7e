import type { Route } from "./+types/task";
import { PersonalFallback } from "../personal/personal-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { taskBoardMessages } from "../messages/task-board";
import { loadTaskBoard } from "../tasks/load-task-board";
import { TaskBoard, taskLists } from "../tasks/task-board";

export function meta({ matches }: Route.MetaArgs) {
  const text = taskBoardMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.pageDescription);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const board = await loadTaskBoard(request.url);
  // Someone signed in sees the lists: they arrive with their data, not after it (if they
  // cannot, the render asks again, and the page explains a failure).
  if (board.state === "ready") await taskLists.prefetch();
  return board;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnTaskForm }, form] = await Promise.all([taskLists.load(), request.formData()]);
  return actOnTaskForm(form);
}

export function HydrateFallback() {
  const text = useMessages(taskBoardMessages);
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
