import { Link, useSearchParams } from "react-router";
import { useMessages } from "../i18n/messages";
import { taskBoardMessages } from "../messages/task-board";
import { PartView } from "../components/part-view";
import type { Personal } from "../personal/load-personal";
import { PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";
import { tabOf, taskTabs, type TaskBoard as Board } from "./task-tabs";

/** The lists of the tabs, with their forms: what only someone signed in sees. */
export const taskLists = signedInPart("task-lists", () => import("./task-lists.client"));

/** The task board: its tabs, and the one the address names. */
export function TaskBoard({ board }: { board: Personal<Board> }) {
  const text = useMessages(taskBoardMessages);
  const [params] = useSearchParams();
  const current = tabOf(`https://x/?${params}`);
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">{text.title}</h1>
      <nav aria-label={text.tabsLabel}>
        <ul className="task-tabs">
          {taskTabs.map((tab) => (
            <li key={tab}>
              <Link to={`/task?tab=${tab}`} className="task-tab" aria-current={current === tab ? "page" : undefined}>
                {text.tabs[tab]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <PersonalView result={board} purpose={text.purpose}>
        {(shown) => (
          <PartView part={taskLists}>
            {({ AvailableTasks, MyWork, PostedTasks }) =>
              shown.tab === "available" ? (
                <AvailableTasks tasks={shown.tasks} />
              ) : shown.tab === "mine" ? (
                <MyWork claims={shown.claims} before={shown.before} />
              ) : (
                <PostedTasks tasks={shown.tasks} before={shown.before} />
              )
            }
          </PartView>
        )}
      </PersonalView>
    </section>
  );
}
