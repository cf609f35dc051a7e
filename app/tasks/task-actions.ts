import { redirect } from "react-router";
import { submitProof, withdrawClaim } from "../api/claims";
import { cancelTask, claimTask, postTask } from "../api/tasks";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { dispatchIntent, type IntentHandler } from "../forms/intent-dispatch";
import { parseYuan } from "../i18n/format";
import { currentLanguage } from "../i18n/messages";
import { taskMessages } from "../messages/tasks";
import { orderReferrerOf } from "../forms/order-referrer";
import { getStartupState } from "../startup/startup-state";
import { currentMoneyLimits, sayRange } from "../money-limits";
import { currentTaskLimits, taskLimitWords } from "../task-limits";
import { currentTextLimits, sayLength } from "../text-limits";
import { taskSchemas } from "../contract-schemas";

type TaskActionAnswer = ActionResult | Response;

const fieldMessages = () => taskMessages[currentLanguage()].fields;

async function claim(form: FormData): Promise<TaskActionAnswer> {
  const id = formText(form, "id");
  const result = await runAction("claim", (api) => claimTask(api, id, formText(form, "idempotencyKey")));
  // A claimed task leaves the Available list; the claim waits under My work, with its form.
  return result.ok ? redirect(`/task?tab=mine&claimed=${encodeURIComponent(id)}`) : result;
}

function submit(form: FormData): Promise<TaskActionAnswer> {
  // The deploy's longest proof (app/text-limits.ts), held before sending as the origin holds it.
  const proofLength = currentTextLimits().proof.text;
  const words = { ...fieldMessages(), text: taskMessages[currentLanguage()].proofOutside(sayLength(proofLength)) };
  return runAction("submit", async (api) => {
    const url = formText(form, "url").trim();
    const body = await checked(
      (await taskSchemas.load()).submitProofBodySchema,
      { text: formText(form, "text"), ...(url ? { url } : {}) },
      words,
      {},
      { text: proofLength },
    );
    return submitProof(api, formText(form, "id"), body, formText(form, "idempotencyKey"));
  });
}

function withdraw(form: FormData): Promise<TaskActionAnswer> {
  return runAction("withdraw", (api) => withdrawClaim(api, formText(form, "id"), formText(form, "idempotencyKey")));
}

function cancel(form: FormData): Promise<TaskActionAnswer> {
  return runAction("cancel", (api) => cancelTask(api, formText(form, "id"), formText(form, "idempotencyKey")), { movesMoney: true });
}

/**
 * The deadline field's date and time, read in China Standard Time as every time on the
 * page is shown (app/i18n/format.ts), as an instant ("" when it is not one).
 */
function deadlineOf(form: FormData): string {
  const typed = formText(form, "deadline");
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(typed)) return "";
  const instant = new Date(`${typed}${typed.length === 16 ? ":00" : ""}+08:00`);
  return Number.isNaN(instant.getTime()) ? "" : instant.toISOString();
}

async function post(form: FormData): Promise<TaskActionAnswer> {
  const language = currentLanguage();
  // The deploy's range for a reward (app/money-limits.ts) and its bounds on a task
  // (app/task-limits.ts), which may be tighter than the schema's.
  const rewardRange = currentMoneyLimits().taskReward;
  const bounds = currentTaskLimits();
  const words = taskLimitWords(bounds, language);
  const text = taskMessages[language];
  const deadlineWords = text.deadlineOutside(words.soonest, words.latest);
  const lengths = currentTextLimits().task;
  const result = await runAction("post", async (api) => {
    const body = await checked(
      (await taskSchemas.load()).postTaskBodySchema,
      {
        title: formText(form, "title").trim(),
        description: formText(form, "description").trim(),
        reward: parseYuan(formText(form, "reward")),
        slots: Number(formText(form, "slots") || Number.NaN),
        deadline: deadlineOf(form),
        referrer: orderReferrerOf(getStartupState().referrers),
      },
      {
        ...fieldMessages(),
        title: text.titleOutside(sayLength(lengths.title)),
        description: text.descriptionOutside(sayLength(lengths.description)),
        reward: sayRange(rewardRange, language, text.rewardOutside),
        slots: text.slotsOutside(words.slotsMax),
        deadline: deadlineWords,
      },
      { reward: rewardRange, slots: { min: 1, max: bounds.slots.max } },
      { title: lengths.title, description: lengths.description },
    );
    return postTask(api, body, formText(form, "idempotencyKey"));
  });
  // The task waits for its budget: the next step is paying its order.
  if (result.ok) return redirect(`/pay?order=${encodeURIComponent(result.data.order.id)}`);
  // The origin counts the deadline's window from its own clock: its refusal is told in this
  // form's words, with the window the form states.
  return result.failure.code === "DEADLINE_OUT_OF_RANGE" ? { ...result, failure: { ...result.failure, message: deadlineWords } } : result;
}

/** The task board's forms, by intent. */
export const taskIntents: Readonly<Record<string, IntentHandler<TaskActionAnswer>>> = { claim, submit, withdraw, cancel, post };

export function actOnTaskForm(form: FormData): Promise<TaskActionAnswer> {
  return dispatchIntent(form, taskIntents);
}
