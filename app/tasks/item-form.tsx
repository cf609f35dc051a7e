import { useFetcher } from "react-router";
import { useAnnounceSuccess } from "../components/announcer";
import type { ActionResult } from "../forms/action-result";
import { FormAlert, SubmitButton } from "../forms/fields";
import { useFormInstance } from "../forms/use-form-instance";

/** One button acting on one task or claim (claim it, give it up, cancel it). */
export function ItemForm({
  intent,
  id,
  label,
  name,
  busyLabel,
  doneLabel,
  describedBy,
  secondary = false,
}: {
  intent: string;
  id: string;
  label: string;
  /** The button's accessible name: its words and the item's, as a list repeats the words. */
  name: string;
  busyLabel: string;
  /** Announced after a success (the button itself goes away with the refreshed list). */
  doneLabel?: string;
  /** The id of the text that says what the button does beyond its name (what cannot be undone). */
  describedBy?: string;
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
      <SubmitButton
        busy={fetcher.state !== "idle" || !idempotencyKey}
        busyLabel={busyLabel}
        className={secondary ? "button button-secondary" : "button"}
        label={name}
        describedBy={describedBy}
      >
        {label}
      </SubmitButton>
    </fetcher.Form>
  );
}
