import { listClaims } from "../api/claims";
import { listTasks } from "../api/tasks";
import { loadPersonal } from "../personal/load-personal";
import { beforeOf, tabOf, type TaskBoard } from "./task-tabs";

/** The tab the address names, as the signed-in user sees it. */
export function loadTaskBoard(url: string) {
  const tab = tabOf(url);
  return loadPersonal<TaskBoard>(async (api) => {
    if (tab === "mine") {
      const before = beforeOf(url, "clm");
      return { tab, claims: await listClaims(api, { view: "mine", before }), before };
    }
    if (tab === "posted") {
      const before = beforeOf(url, "tsk");
      return { tab, tasks: await listTasks(api, { tab, before }), before };
    }
    return { tab, tasks: await listTasks(api, { tab }) };
  });
}
