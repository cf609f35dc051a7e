import { listClaims } from "../api/claims";
import { listTasks } from "../api/tasks";
import { loadPersonal } from "../personal/load-personal";
import { tabOf, type TaskBoard } from "./task-tabs";

/** The tab the address names, as the signed-in user sees it. */
export function loadTaskBoard(url: string) {
  const tab = tabOf(url);
  return loadPersonal<TaskBoard>(async (api) => {
    if (tab === "mine") return { tab, claims: await listClaims(api, "mine") };
    return { tab, tasks: await listTasks(api, tab) };
  });
}
