import { Link, redirect, useFetcher, useSearchParams } from "react-router";
import type { Route } from "./+types/task";
import { postTaskBodySchema, submitProofBodySchema, type Claim, type Task } from "#contract/tasks";
import type { Order } from "#contract/orders";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime, Money } from "../components/money";
import { Spinner } from "../components/spinner";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { Field, FormAlert, MoneyField, SubmitButton, TextAreaField } from "../forms/fields";
import { fieldError, useFormInstance } from "../forms/use-form-instance";
import { parseYuan } from "../i18n/format";
import { currentLanguage, metaLanguage, useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";
import { taskMessages } from "../messages/tasks";
import { loadPersonal } from "../personal/load-personal";
import { PersonalView } from "../personal/personal-view";
import "../styles/task.css";

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: `${taskMessages[metaLanguage(matches)].title} · Paydesk` }];
}

const tabs = ["available", "mine", "posted"] as const;
type Tab = (typeof tabs)[number];
type Board = { tab: "available"; tasks: Task[] } | { tab: "mine"; claims: Claim[] } | { tab: "posted"; tasks: Task[] };

function tabOf(url: string): Tab {
  const tab = new URL(url).searchParams.get("tab");
  return (tabs as readonly string[]).includes(tab ?? "") ? (tab as Tab) : "available";
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const tab = tabOf(request.url);
  return loadPersonal<Board>(async (api) => {
    if (tab === "mine") return { tab, claims: await api.get<Claim[]>("/api/claims?view=mine") };
    return { tab, tasks: await api.get<Task[]>(`/api/tasks?tab=${tab}`) };
  });
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult | Response> {
  const form = await request.formData();
  const intent = formText(form, "intent");
  const key = formText(form, "idempotencyKey");
  const id = encodeURIComponent(formText(form, "id"));
  const fields = taskMessages[currentLanguage()].fields;
  switch (intent) {
    case "claim": {
      // A claimed task leaves the Available list; the claim waits under My work, with its form.
      const result = await runAction(intent, (api) => api.post<Claim>(`/api/tasks/${id}/claims`, {}, key));
      return result.ok ? redirect(`/task?tab=mine&claimed=${id}`) : result;
    }
    case "submit":
      return runAction(intent, async (api) => {
        const url = formText(form, "url").trim();
        const body = checked(submitProofBodySchema, { text: formText(form, "text"), ...(url ? { url } : {}) }, fields);
        return api.post<Claim>(`/api/claims/${id}/submit`, body, key);
      });
    case "cancel":
      return runAction(intent, (api) => api.post<Task>(`/api/tasks/${id}/cancel`, {}, key), { movesMoney: true });
    default: {
      const result = await runAction(intent, async (api) => {
        const local = formText(form, "deadline");
        const deadline = local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : "";
        const body = checked(
          postTaskBodySchema,
          {
            title: formText(form, "title").trim(),
            description: formText(form, "description").trim(),
            reward: parseYuan(formText(form, "reward")),
            slots: Number(formText(form, "slots") || Number.NaN),
            deadline,
          },
          fields,
        );
        return api.post<{ task: Task; order: Order }>("/api/tasks", body, key);
      });
      return result.ok ? redirect(`/pay?order=${encodeURIComponent((result.data as { order: Order }).order.id)}`) : result;
    }
  }
}

export function HydrateFallback() {
  const text = useMessages(taskMessages);
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">{text.title}</h1>
      <Spinner />
    </section>
  );
}

function TaskFacts({ task }: { task: Task }) {
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

function ItemForm({
  intent,
  id,
  label,
  busyLabel,
  doneLabel,
  secondary = false,
}: {
  intent: string;
  id: string;
  label: string;
  busyLabel: string;
  /** Announced after a success (the button itself goes away with the refreshed list). */
  doneLabel?: string;
  secondary?: boolean;
}) {
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data, { resetOnSuccess: false });
  useAnnounceSuccess(fetcher.data, doneLabel ?? "");
  return (
    <fetcher.Form method="post" ref={formRef} className="item-form">
      <FormAlert result={fetcher.data} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={busyLabel} className={secondary ? "button button-secondary" : "button"}>
        {label}
      </SubmitButton>
    </fetcher.Form>
  );
}

function Available({ tasks }: { tasks: Task[] }) {
  const text = useMessages(taskMessages);
  if (tasks.length === 0) return <p className="empty">{text.noAvailable}</p>;
  return (
    <ul className="task-list">
      {tasks.map((task) => (
        <li key={task.id} className="task-card">
          <h2 className="task-title">{task.title}</h2>
          <p className="task-description">{task.description}</p>
          <TaskFacts task={task} />
          <ItemForm intent="claim" id={task.id} label={text.claim} busyLabel={text.claiming} />
        </li>
      ))}
    </ul>
  );
}

function SubmitProof({ claim }: { claim: Claim }) {
  const text = useMessages(taskMessages);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  const { formRef, idempotencyKey } = useFormInstance(result, { resetOnSuccess: false });
  useAnnounceSuccess(result, text.proofSubmitted);
  return (
    <fetcher.Form method="post" ref={formRef} className="form" noValidate>
      <FormAlert result={result} fields={["text", "url"]} />
      <input type="hidden" name="intent" value="submit" />
      <input type="hidden" name="id" value={claim.id} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField id={`proof-${claim.id}`} name="text" label={text.proof} hint={text.proofHint} required maxLength={2000} rows={4} error={fieldError(result, "text")} />
      <Field id={`proof-url-${claim.id}`} name="url" type="url" label={text.proofUrl} hint={text.proofUrlHint} maxLength={2048} error={fieldError(result, "url")} />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.submitting}>
        {text.submit}
      </SubmitButton>
    </fetcher.Form>
  );
}

function MyWork({ claims }: { claims: Claim[] }) {
  const text = useMessages(taskMessages);
  const layout = useMessages(layoutMessages);
  const [params] = useSearchParams();
  if (claims.length === 0) return <p className="empty">{text.noClaims}</p>;
  const justClaimed = claims.some((claim) => claim.task.id === params.get("claimed") && claim.status === "claimed");
  return (
    <>
    <p role="status">{justClaimed ? text.claimed : null}</p>
    <ul className="task-list">
      {claims.map((claim) => (
        <li key={claim.id} className="task-card">
          <h2 className="task-title">{claim.task.title}</h2>
          <p>
            <span className={`badge badge-${claim.status}`}>{text.claimStatus[claim.status]}</span> · {text.reward} <Money amount={claim.task.reward} />
          </p>
          {claim.status === "claimed" ? (
            <>
              <p>
                {text.submitBy}
                {layout.colon}
                <DateTime iso={claim.expiresAt} />
              </p>
              <SubmitProof claim={claim} />
            </>
          ) : null}
          {claim.status === "rejected" && claim.rejectReason ? (
            <p>
              {text.rejectReason}
              {layout.colon}
              {claim.rejectReason}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
    </>
  );
}

function PostTask() {
  const text = useMessages(taskMessages);
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
        <Field id="task-title-field" name="title" label={text.taskTitle} hint={text.taskTitleHint} required maxLength={80} error={fieldError(result, "title")} />
        <TextAreaField id="task-description" name="description" label={text.description} hint={text.descriptionHint} required maxLength={2000} rows={4} error={fieldError(result, "description")} />
        <MoneyField id="task-reward" name="reward" label={text.rewardField} hint={text.rewardHint} error={fieldError(result, "reward")} />
        <Field id="task-slots" name="slots" label={text.slots} hint={text.slotsHint} inputMode="numeric" required maxLength={4} error={fieldError(result, "slots")} />
        <Field id="task-deadline" name="deadline" type="datetime-local" label={text.deadlineField} hint={text.deadlineHint} required error={fieldError(result, "deadline")} />
        <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.posting}>
          {text.post}
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}

function Posted({ tasks }: { tasks: Task[] }) {
  const text = useMessages(taskMessages);
  return (
    <>
      {tasks.length === 0 ? (
        <p className="empty">{text.noPosted}</p>
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
                  <Link className="button" to={`/pay?order=${task.orderId}`}>
                    {text.payBudget}
                  </Link>
                ) : null}
                {task.status === "open" || task.status === "awaiting_payment" ? (
                  <ItemForm intent="cancel" id={task.id} label={text.cancelTask} busyLabel={text.cancelling} doneLabel={text.taskCancelled} secondary />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <PostTask />
    </>
  );
}

export default function Tasks({ loaderData }: Route.ComponentProps) {
  const text = useMessages(taskMessages);
  const [params] = useSearchParams();
  const current = tabOf(`https://x/?${params}`);
  return (
    <section aria-labelledby="task-title">
      <h1 id="task-title">{text.title}</h1>
      <nav aria-label={text.tabsLabel}>
        <ul className="task-tabs">
          {tabs.map((tab) => (
            <li key={tab}>
              <Link to={`/task?tab=${tab}`} className="task-tab" aria-current={current === tab ? "page" : undefined}>
                {text.tabs[tab]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(board) =>
          board.tab === "available" ? <Available tasks={board.tasks} /> : board.tab === "mine" ? <MyWork claims={board.claims} /> : <Posted tasks={board.tasks} />
        }
      </PersonalView>
    </section>
  );
}
