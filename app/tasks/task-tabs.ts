import type { Claim, Task } from "#contract/tasks";

export const taskTabs = ["available", "mine", "posted"] as const;
export type TaskTab = (typeof taskTabs)[number];

/** What one tab of the board shows. */
export type TaskBoard = { tab: "available"; tasks: Task[] } | { tab: "mine"; claims: Claim[] } | { tab: "posted"; tasks: Task[] };

/** The tab a `?tab=` names; the Available tab for anything else. */
export function tabOf(url: string): TaskTab {
  const tab = new URL(url).searchParams.get("tab");
  return (taskTabs as readonly string[]).includes(tab ?? "") ? (tab as TaskTab) : "available";
}
