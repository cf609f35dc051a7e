import { Link, useFetcher } from "react-router";
import type { Route } from "./+types/ops-person";
import type { PersonPage } from "#contract/ops-people";
import { type AccountAction, actOnAccount, askForRecoveryLink, decideRecoveryLinkRequest, issueRecoveryLink } from "../../api/ops";
import { useAnnounceSuccess } from "../../components/announcer";
import { DateTime, Money } from "../../components/money";
import { formText, runAction, type ActionResult } from "../../forms/action-result";
import { FormAlert, TextAreaField } from "../../forms/fields";
import { dispatchIntent } from "../../forms/intent-dispatch";
import { fieldError } from "../../forms/failure-fields";
import { useFormInstance } from "../../forms/use-form-instance";
import { useMessages } from "../../i18n/messages";
import { walletMessages } from "../../messages/wallet";
import { supportMessages } from "../../messages/support";
import { ticketMessages } from "../../messages/ticket";
import { taskMessages } from "../../messages/tasks";
import { opsMessages } from "../../messages/ops";
import { orderMessages } from "../../messages/orders";
import { useOrderTitle } from "../../components/order-summary";
import { mayDo, useOperator } from "../../ops/ops-context";
import { EntryChange } from "../../wallet/entry-change";
import { getPerson } from "../../ops/ops-loaders";
import { OpsView } from "../../ops/ops-view";
import { RecoveryLinkSection } from "../../ops/recovery-link-requests";

export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  return getPerson(params.id);
}

const accountActions = ["lock", "unlock", "sign-out-everywhere"] as const satisfies AccountAction[];

const decideRecoveryLink = (decision: "approve" | "reject") => (form: FormData) =>
  runAction(decision, (api) =>
    decideRecoveryLinkRequest(api, formText(form, "subjectId"), decision, formText(form, "note"), formText(form, "idempotencyKey")),
  );

export async function clientAction({ request, params }: Route.ClientActionArgs): Promise<ActionResult> {
  const act = (action: AccountAction) => (form: FormData) =>
    runAction(action, (api) => actOnAccount(api, params.id, action, formText(form, "reason"), formText(form, "idempotencyKey")));
  return dispatchIntent(await request.formData(), {
    ...Object.fromEntries(accountActions.map((action) => [action, act(action)])),
    "recovery-link-ask": (form: FormData) =>
      runAction("recovery-link-ask", (api) =>
        askForRecoveryLink(api, params.id, formText(form, "reason"), formText(form, "idempotencyKey")),
      ),
    approve: decideRecoveryLink("approve"),
    reject: decideRecoveryLink("reject"),
    "recovery-link-issue": (form: FormData) =>
      runAction("recovery-link-issue", (api) => issueRecoveryLink(api, formText(form, "requestId"), formText(form, "idempotencyKey"))),
  });
}

/** An admin's lock, unlock and sign-out-everywhere, each with the reason the audit trail keeps. */
function AccountControls({ person }: { person: PersonPage["person"] }) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? text.done[fetcher.data.intent as AccountAction] : "";
  useAnnounceSuccess(fetcher.data, done);
  const busy = fetcher.state !== "idle" || !idempotencyKey;
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions" aria-labelledby="ops-account-title">
      <h2 id="ops-account-title">{text.account}</h2>
      <FormAlert result={fetcher.data} fields={["reason"]} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <TextAreaField id="ops-reason" name="reason" label={text.reason} required rows={2} error={fieldError(fetcher.data, "reason")} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <div className="form-actions">
        {person.lockedAt ? (
          <button className="button" type="submit" name="intent" value="unlock" disabled={busy}>
            {text.unlock}
          </button>
        ) : (
          <button className="button" type="submit" name="intent" value="lock" disabled={busy}>
            {text.lock}
          </button>
        )}
        <button className="button button-secondary" type="submit" name="intent" value="sign-out-everywhere" disabled={busy}>
          {text.signOutEverywhere}
        </button>
      </div>
    </fetcher.Form>
  );
}

function PersonView({ page }: { page: PersonPage }) {
  const text = useMessages(opsMessages);
  const operator = useOperator();
  const orders = useMessages(orderMessages);
  const orderTitle = useOrderTitle();
  // The statement's names for an entry's kind: this list shows the kind alone, without a counterpart.
  const statement = useMessages(walletMessages);
  const tasks = useMessages(taskMessages);
  const support = useMessages(supportMessages);
  const ticketText = useMessages(ticketMessages);
  const { person } = page;
  return (
    <section aria-labelledby="ops-person-title">
      <h1 id="ops-person-title">
        {person.displayName} (@{person.handle})
      </h1>
      <div className="ops-grid">
        <dl className="ops-facts" data-testid="ops-person-facts">
          <dt>ID</dt>
          <dd>{person.id}</dd>
          <dt>{text.available}</dt>
          <dd>
            <Money amount={person.balances.available} />
          </dd>
          <dt>{text.held}</dt>
          <dd>
            <Money amount={person.balances.held} />
          </dd>
          <dt>{text.joined}</dt>
          <dd>
            <DateTime iso={person.createdAt} />
          </dd>
          <dt>{text.account}</dt>
          <dd data-testid="ops-lock-state">
            {person.lockedAt ? (
              <span className="badge badge-closed">
                {text.locked} · <DateTime iso={person.lockedAt} />
              </span>
            ) : (
              text.notLocked
            )}
          </dd>
          {person.operatorRole ? (
            <>
              <dt>{text.operatorRole}</dt>
              <dd>{text.role[person.operatorRole]}</dd>
            </>
          ) : null}
        </dl>
        {mayDo(operator, "lockAccounts") ? <AccountControls person={person} /> : null}
        {mayDo(operator, "recoveryLink") ? <RecoveryLinkSection handle={person.handle} requests={page.recoveryLinkRequests} /> : null}
      </div>
      <h2>{text.orders}</h2>
      {page.orders.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list">
          {page.orders.map((order) => (
            <li key={order.id} className="item">
              <span className="item-main">
                <Link className="item-title" to={`/ops/orders/${order.id}`}>
                  {orderTitle(order)}
                </Link>
                <span className="item-meta">
                  <DateTime iso={order.createdAt} /> · {order.id}
                </span>
              </span>
              <span className="item-side">
                <Money amount={order.amount} /> <span className="badge">{orders.status[order.status]}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.walletEntries}</h2>
      {page.walletEntries.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list">
          {page.walletEntries.map((entry) => (
            <li key={entry.id} className="item">
              <span className="item-main">
                <span className="item-title">{statement.kind[entry.kind]}</span>
                <span className="item-meta">
                  <DateTime iso={entry.createdAt} />
                </span>
              </span>
              <span className="item-side">
                <EntryChange entry={entry} heldLabel={statement.heldChange} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.transfers}</h2>
      {page.transfersSent.length + page.transfersReceived.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list">
          {[...page.transfersSent, ...page.transfersReceived].map((transfer) => (
            <li key={transfer.id} className="item">
              <span className="item-main">
                <span className="item-title">
                  @{transfer.from.handle} → @{transfer.to.handle}
                </span>
                <span className="item-meta">
                  <DateTime iso={transfer.createdAt} />
                </span>
              </span>
              <span className="item-side">
                <Money amount={transfer.amount} />
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.tasksPosted}</h2>
      {page.tasksPosted.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" data-testid="ops-tasks-posted">
          {page.tasksPosted.map((task) => (
            <li key={task.id} className="item">
              <span className="item-main">
                <span className="item-title">{task.title}</span>
                <span className="item-meta">
                  <DateTime iso={task.createdAt} /> · {text.slotsTaken(task.slotsTaken, task.slots)} ·{" "}
                  <Link to={`/ops/orders/${task.orderId}`}>{task.orderId}</Link>
                </span>
              </span>
              <span className="item-side">
                <Money amount={task.reward} /> <span className="badge">{tasks.taskStatus[task.status]}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.claims}</h2>
      {page.claims.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" data-testid="ops-claims">
          {page.claims.map((claim) => (
            <li key={claim.id} className="item">
              <span className="item-main">
                <span className="item-title">{claim.task.title}</span>
                <span className="item-meta">
                  <DateTime iso={claim.createdAt} /> ·{" "}
                  <Link to={`/ops/people/${encodeURIComponent(claim.task.poster.id)}`}>@{claim.task.poster.handle}</Link>
                </span>
              </span>
              <span className="item-side">
                <Money amount={claim.task.reward} /> <span className="badge">{tasks.claimStatus[claim.status]}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.personTickets}</h2>
      {page.tickets.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" data-testid="ops-person-tickets">
          {page.tickets.map((ticket) => (
            <li key={ticket.id} className="item">
              <span className="item-main">
                <Link className="item-title" to={`/ops/tickets/${ticket.id}`}>
                  {ticket.subject}
                </Link>
                <span className="item-meta">
                  <DateTime iso={ticket.updatedAt} /> · {ticketText.categories[ticket.category]}
                </span>
              </span>
              <span className="item-side">
                <span className="badge">{support.status[ticket.status]}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      <h2>{text.sessions}</h2>
      {page.sessions.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" data-testid="ops-sessions">
          {page.sessions.map((session) => (
            <li key={session.createdAt} className="item">
              <span className="item-main">
                <span className="item-title">{session.device ?? text.unknownDevice}</span>
                <span className="item-meta">
                  {session.place ? `${session.place} · ` : ""}
                  <DateTime iso={session.createdAt} /> → <DateTime iso={session.lastUsedAt} />
                </span>
              </span>
              <span className="item-side">
                <span className="badge">{session.live ? text.live : session.endedAt ? text.ended : text.idle}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function OpsPerson({ loaderData }: Route.ComponentProps) {
  return <OpsView result={loaderData}>{(page) => <PersonView page={page} />}</OpsView>;
}
