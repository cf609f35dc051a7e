import { useSearchParams } from "react-router";
import type { Claim } from "#contract/tasks";
import { DateTime, Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { useLayoutMessages } from "../i18n/layout-messages";
import { taskMessages } from "../messages/tasks";
import { ItemForm } from "./item-form";
import { ListPages } from "./list-pages";
import { SubmitProofForm } from "./submit-proof-form";
import { usePrefetchWhenIdle } from "../startup/on-first-use";
import { taskSchemas } from "../contract-schemas";

/** The My work tab: my claims, with the proof form of those still to do; 100 a page (`before`). */
export function MyWork({ claims, before }: { claims: Claim[]; before?: string }) {
  usePrefetchWhenIdle(taskSchemas.part);
  const text = useMessages(taskMessages);
  const layout = useLayoutMessages();
  const [params] = useSearchParams();
  if (claims.length === 0) {
    return (
      <>
        <p className="empty">{before ? text.noOlder : text.noClaims}</p>
        <ListPages tab="mine" before={before} items={claims} />
      </>
    );
  }
  const justClaimed = claims.some((claim) => claim.task.id === params.get("claimed") && claim.status === "claimed");
  return (
    <>
      <p role="status">{justClaimed ? text.claimed : null}</p>
      <ul className="task-list">
        {claims.map((claim) => (
          <li key={claim.id} className="task-card">
            <h2 className="task-title">{claim.task.title}</h2>
            <p>
              <span className={`badge badge-${claim.status}`}>{text.claimStatus[claim.status]}</span> · {text.reward}{" "}
              <Money amount={claim.task.reward} />
            </p>
            {claim.status === "claimed" ? (
              <>
                <p>
                  {text.submitBy}
                  {layout.colon}
                  <DateTime iso={claim.expiresAt} />
                </p>
                <SubmitProofForm claim={claim} />
                <p className="hint" id={`give-up-hint-${claim.id}`}>
                  {text.giveUpHint}
                </p>
                <ItemForm
                  intent="withdraw"
                  id={claim.id}
                  label={text.giveUp}
                  name={text.onTask(text.giveUp, claim.task.title)}
                  busyLabel={text.givingUp}
                  doneLabel={text.givenUp}
                  describedBy={`give-up-hint-${claim.id}`}
                  secondary
                />
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
      <ListPages tab="mine" before={before} items={claims} />
    </>
  );
}
