import { useFetcher } from "react-router";
import type { AccountSession } from "#contract/account-safety";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { useMessages } from "../i18n/messages";
import { accountMessages } from "../messages/account";

function SessionItem({ session }: { session: AccountSession }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult>();
  const device = session.device ?? text.unknownDevice;
  useAnnounceSuccess(fetcher.data, text.sessionEnded);
  return (
    <li className="item">
      <div className="item-main">
        <span className="item-title">{device}</span>
        <span className="item-meta">
          {session.place ?? text.unknownPlace} · {text.signedInAt} <DateTime iso={session.createdAt} /> · {text.lastUsed}{" "}
          <DateTime iso={session.lastUsedAt} />
        </span>
      </div>
      {session.current ? (
        <span className="badge badge-open">{text.thisDevice}</span>
      ) : (
        <fetcher.Form method="post">
          <FormAlert result={fetcher.data} />
          <input type="hidden" name="intent" value="endSession" />
          <input type="hidden" name="id" value={session.id} />
          <SubmitButton
            busy={fetcher.state !== "idle"}
            busyLabel={text.ending}
            className="button button-secondary"
            label={text.endSessionLabel(device)}
          >
            {text.endSession}
          </SubmitButton>
        </fetcher.Form>
      )}
    </li>
  );
}

export function SessionsSection({ sessions }: { sessions: AccountSession[] }) {
  const text = useMessages(accountMessages);
  const fetcher = useFetcher<ActionResult<{ sessionsEnded: number }>>();
  const result = fetcher.data;
  useAnnounceSuccess(result, result?.ok ? text.othersEnded(result.data.sessionsEnded) : "");
  const others = sessions.some((session) => !session.current);
  return (
    <section className="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{text.sessionsTitle}</h2>
      <p>{text.sessionsLead}</p>
      <ul className="item-list" aria-labelledby="sessions-title" data-testid="account-sessions">
        {sessions.map((session) => (
          <SessionItem key={session.id} session={session} />
        ))}
      </ul>
      {others ? (
        <fetcher.Form method="post">
          <FormAlert result={result} />
          <input type="hidden" name="intent" value="endOthers" />
          <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.ending} className="button button-secondary">
            {text.endOthers}
          </SubmitButton>
        </fetcher.Form>
      ) : (
        <p>{text.noOtherSessions}</p>
      )}
      <p role="status">{result?.ok ? text.othersEnded(result.data.sessionsEnded) : null}</p>
    </section>
  );
}
