/*
 * The task board's lists and their forms, for someone signed in: a chunk fetched on first
 * use, apart from the board's tabs, which a first visit loads (app/tasks/task-board.tsx,
 * docs/decisions/043-screens-after-start-up.md).
 */
export { AvailableTasks } from "./available-tasks";
export { MyWork } from "./my-work";
export { PostedTasks } from "./posted-tasks";
export { actOnTaskForm } from "./task-actions";
