import { listClaims } from "../api/claims";
import { listTasks } from "../api/tasks";
import { loadPersonal } from "../personal/load-personal";
import { beforeOf, tabOf, type TaskBoard } from "./task-tabs";

/** The tab the address names, as the signed-in user sees it. */
export function loadTaskBoard(url: string) {
  const tab = tabOf(url);
  const before = beforeOf(url);
  return loadPersonal<TaskBoard>(async (api) => {
    if (tab === "mine") {
      const mine = before?.startsWith("clm_") ? before : undefined;
      return { tab, claims: await listClaims(api, { view: "mine", before: mine }), before: mine };
    }
    if (tab === "posted") {
      const mine = before?.startsWith("tsk_") ? before : undefined;
      return { tab, tasks: await listTasks(api, { tab, before: mine }), before: mine };
    }
    return { tab, tasks: await listTasks(api, { tab }) };
  });
}
