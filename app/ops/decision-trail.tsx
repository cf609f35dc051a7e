import { DateTime } from "../components/money";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";

type Decided = {
  requestedAt: string;
  requestedBy: { displayName: string };
  decidedBy: { displayName: string } | null;
  decisionNote: string | null;
};

/**
 * What every request a second operator decides on says of itself (a code batch, a recovery
 * link, a role): when and by whom it was asked, who decided and their note, and, while it
 * may still be decided, until when.
 */
export function DecisionTrail({ request, openUntil }: { request: Decided; openUntil?: string }) {
  const text = useMessages(opsMessages);
  return (
    <>
      <DateTime iso={request.requestedAt} /> · {text.requestedBy(request.requestedBy.displayName)}
      {request.decidedBy ? ` · ${text.decidedBy(request.decidedBy.displayName)}` : null}
      {request.decisionNote ? ` · ${request.decisionNote}` : null}
      {openUntil ? (
        <>
          {" "}
          · {text.openUntil} <DateTime iso={openUntil} />
        </>
      ) : null}
    </>
  );
}
