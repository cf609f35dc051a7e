import { useFetcher } from "react-router";
import { useAnnounceSuccess } from "../components/announcer";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, TextAreaField } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";

/**
 * Approve or reject what another operator asked for, maker-checker (a refund:
 * docs/decisions/015-operator-refunds.md; a code batch: 049). The page's action reads the
 * intent (`approve` or `reject`), `subjectId`, the note (a reject's reason) and the key.
 */
export function DecisionForm({
  subjectId,
  approvedText,
  rejectedText,
  open = true,
  approvable = true,
  describedBy,
}: {
  subjectId: string;
  approvedText: string;
  rejectedText: string;
  /** False once the subject is decided: what this form did, or why it was refused, stays said, and nothing more can be sent. */
  open?: boolean;
  /** False when it can only be rejected any more (a request that has closed). */
  approvable?: boolean;
  /** The id of what the subject is, when a list holds several: a screen reader says which one each button decides. */
  describedBy?: string;
}) {
  const text = useMessages(opsMessages);
  const fetcher = useFetcher<ActionResult>();
  const { formRef, idempotencyKey } = useFormInstance(fetcher.data);
  const done = fetcher.data?.ok ? (fetcher.data.intent === "approve" ? approvedText : rejectedText) : "";
  useAnnounceSuccess(fetcher.data, done);
  const busy = fetcher.state !== "idle" || !idempotencyKey;
  if (!open) {
    // What this form did stays said; so does why it was refused (another decided first, say).
    if (done) {
      return (
        <p className="notice" role="status">
          {done}
        </p>
      );
    }
    return fetcher.data && !fetcher.data.ok ? <FormAlert result={fetcher.data} fields={[]} /> : null;
  }
  return (
    <fetcher.Form method="post" ref={formRef} className="ops-actions">
      <FormAlert result={fetcher.data} fields={["reason", "note"]} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      <input type="hidden" name="subjectId" value={subjectId} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <TextAreaField
        id={`ops-note-${subjectId}`}
        name="note"
        label={text.decisionNote}
        rows={2}
        error={fieldError(fetcher.data, "reason") ?? fieldError(fetcher.data, "note")}
      />
      <div className="form-actions">
        {approvable ? (
          <button className="button" type="submit" name="intent" value="approve" disabled={busy} aria-describedby={describedBy}>
            {text.approve}
          </button>
        ) : null}
        <button
          className="button button-secondary"
          type="submit"
          name="intent"
          value="reject"
          disabled={busy}
          aria-describedby={describedBy}
        >
          {text.reject}
        </button>
      </div>
    </fetcher.Form>
  );
}
