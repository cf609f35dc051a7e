import type { Task } from "#contract/tasks";
import { DateTime, Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";

export function TaskFacts({ task }: { task: Task }) {
  const text = useMessages(taskMessages);
  return (
    <dl className="task-facts">
      <dt>{text.reward}</dt>
      <dd>
        <Money amount={task.reward} />
      </dd>
      <dt>{text.deadline}</dt>
      <dd>
        <DateTime iso={task.deadline} />
      </dd>
      <dt>{text.places}</dt>
      <dd className="task-slots">{text.slotsLeft(task.slotsLeft, task.slots)}</dd>
    </dl>
  );
}
