import { useFetcher } from "react-router";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, MoneyField, SubmitButton, TextAreaField } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useLanguage, useMessages } from "../i18n/messages";
import { sayRange, useMoneyLimits } from "../money-limits";
import { taskMessages } from "../messages/tasks";
import { taskLimitWords, useTaskLimits } from "../task-limits";
import { sayLength, useTextLimits } from "../text-limits";

/** A new task; its budget is paid next, on /pay. */
export function PostTaskForm() {
  const text = useMessages(taskMessages);
  const language = useLanguage();
  const rewardHint = sayRange(useMoneyLimits().taskReward, language, text.rewardHint);
  // The deploy's bounds (app/task-limits.ts), which may be tighter than the schema's.
  const bounds = taskLimitWords(useTaskLimits(), language);
  const lengths = useTextLimits().task;
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  // Kept in this tab until answered: posting again after a lost answer (even after leaving
  // the page) replays the first task and its order instead of creating a second budget.
  const { formRef, idempotencyKey } = useFormInstance(result, { resetOnSuccess: false, persistAs: "post-task" });
  return (
    <section className="card" aria-labelledby="post-title">
      <h2 id="post-title">{text.postTitle}</h2>
      <fetcher.Form method="post" ref={formRef} className="form" noValidate>
        <FormAlert result={result} fields={["title", "description", "reward", "slots", "deadline"]} />
        <input type="hidden" name="intent" value="post" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Field
          id="task-title-field"
          name="title"
          label={text.taskTitle}
          hint={text.taskTitleHint(sayLength(lengths.title))}
          required
          error={fieldError(result, "title")}
        />
        <TextAreaField
          id="task-description"
          name="description"
          label={text.description}
          hint={text.descriptionHint(sayLength(lengths.description))}
          required
          rows={4}
          error={fieldError(result, "description")}
        />
        <MoneyField id="task-reward" name="reward" label={text.rewardField} hint={rewardHint} error={fieldError(result, "reward")} />
        <Field
          id="task-slots"
          name="slots"
          label={text.slots}
          hint={text.slotsHint(bounds.slotsMax)}
          inputMode="numeric"
          required
          maxLength={4}
          error={fieldError(result, "slots")}
        />
        <Field
          id="task-deadline"
          name="deadline"
          type="datetime-local"
          label={text.deadlineField}
          hint={text.deadlineHint(bounds.soonest, bounds.latest)}
          required
          error={fieldError(result, "deadline")}
        />
        <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.posting}>
          {text.post}
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}
