import type { Task } from "#contract/tasks";
import { PersonName } from "../components/person-name";
import { useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";
import { ItemForm } from "./item-form";
import { TaskFacts } from "./task-facts";
import { usePrefetchWhenIdle } from "../startup/on-first-use";
import { taskSchemas } from "../contract-schemas";

/** The Available tab: open tasks of others, each to claim. */
export function AvailableTasks({ tasks }: { tasks: Task[] }) {
  usePrefetchWhenIdle(taskSchemas.part);
  const text = useMessages(taskMessages);
  if (tasks.length === 0) return <p className="empty">{text.noAvailable}</p>;
  return (
    <ul className="task-list">
      {tasks.map((task) => (
        <li key={task.id} className="task-card">
          <h2 className="task-title">{task.title}</h2>
          <p className="task-poster">
            {text.postedBy} <PersonName person={task.poster} />
          </p>
          <p className="task-description">{task.description}</p>
          <TaskFacts task={task} />
          <ItemForm intent="claim" id={task.id} label={text.claim} name={text.onTask(text.claim, task.title)} busyLabel={text.claiming} />
        </li>
      ))}
    </ul>
  );
}
