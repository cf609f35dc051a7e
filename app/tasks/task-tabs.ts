import type { Claim, Task } from "#contract/tasks";

export const taskTabs = ["available", "mine", "posted"] as const;
export type TaskTab = (typeof taskTabs)[number];

/**
 * What one tab of the board shows. My own claims and tasks come 100 at a time; `before` is
 * the id of the oldest one of the page before this (none: the newest).
 */
export type TaskBoard =
  | { tab: "available"; tasks: Task[] }
  | { tab: "mine"; claims: Claim[]; before?: string }
  | { tab: "posted"; tasks: Task[]; before?: string };

/** The tab a `?tab=` names; the Available tab for anything else. */
export function tabOf(url: string): TaskTab {
  const tab = new URL(url).searchParams.get("tab");
  return (taskTabs as readonly string[]).includes(tab ?? "") ? (tab as TaskTab) : "available";
}

/** The `?before=` of a page of my claims (`clm`) or tasks (`tsk`), when it is an id of one (anything else: the newest page). */
export function beforeOf(url: string, kind: "clm" | "tsk"): string | undefined {
  const before = new URL(url).searchParams.get("before") ?? "";
  return new RegExp(`^${kind}_[0-9a-f-]{36}$`).test(before) ? before : undefined;
}
