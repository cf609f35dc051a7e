import { Link } from "react-router";
import type { Task } from "#contract/tasks";
import { Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";
import { ItemForm } from "./item-form";
import { ListPages } from "./list-pages";
import { PostTaskForm } from "./post-task-form";
import { TaskFacts } from "./task-facts";
import { usePrefetchWhenIdle } from "../startup/on-first-use";
import { taskSchemas } from "../contract-schemas";

/** The Posted tab: my own tasks (100 a page, `before`), what they still hold, and the form for a new one. */
export function PostedTasks({ tasks, before }: { tasks: Task[]; before?: string }) {
  usePrefetchWhenIdle(taskSchemas.part);
  const text = useMessages(taskMessages);
  return (
    <>
      {tasks.length === 0 ? (
        <p className="empty">{before ? text.noOlder : text.noPosted}</p>
      ) : (
        <ul className="task-list">
          {tasks.map((task) => (
            <li key={task.id} className="task-card">
              <h2 className="task-title">{task.title}</h2>
              <p>
                <span className={`badge badge-${task.status}`}>{text.taskStatus[task.status]}</span> · {text.escrow}{" "}
                <Money amount={task.escrowRemaining} />
              </p>
              <TaskFacts task={task} />
              <div className="form-actions">
                {task.status === "awaiting_payment" ? (
                  <Link className="button" to={`/pay?order=${task.orderId}`} aria-label={text.onTask(text.payBudget, task.title)}>
                    {text.payBudget}
                  </Link>
                ) : null}
                {task.status === "open" || task.status === "awaiting_payment" ? (
                  <ItemForm
                    intent="cancel"
                    id={task.id}
                    label={text.cancelTask}
                    name={text.onTask(text.cancelTask, task.title)}
                    busyLabel={text.cancelling}
                    doneLabel={text.taskCancelled}
                    secondary
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ListPages tab="posted" before={before} items={tasks} />
      <PostTaskForm />
    </>
  );
}
