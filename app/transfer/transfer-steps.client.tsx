/*
 * Sending money, once someone is signed in: a chunk fetched on first use, apart from the
 * route's own, which a first visit loads (app/routes/transfer.tsx,
 * docs/decisions/043-screens-after-start-up.md).
 */
import { useEffect, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { Recipient, TransferReceipt } from "#contract/transfers";
import { transferSchemas } from "../contract-schemas";
import { sendTransfer } from "../api/transfers";
import { lookUpRecipient } from "../api/users";
import { DateTime } from "../components/money";
import { PersonName } from "../components/person-name";
import { typedHandle } from "../forms/typed-handle";
import { checked, formText, runAction, type ActionResult } from "../forms/action-result";
import { Field, FormAlert, MoneyField, SubmitButton } from "../forms/fields";
import { dispatchIntent } from "../forms/intent-dispatch";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { formatMoney, parseYuan } from "../i18n/format";
import { currentLanguage, useLanguage, useMessages } from "../i18n/messages";
import { transferMessages } from "../messages/transfer";
import { formMessages } from "../messages/forms";
import { currentMoneyLimits, sayRange, useMoneyLimits } from "../money-limits";
import { currentTextLimits, sayLength, useTextLimits } from "../text-limits";
import { usePrefetchWhenIdle } from "../startup/on-first-use";

type Draft = { toHandle: string; amount: number; note: string };
type Reviewed = { draft: Draft; recipient: Recipient };

// The origin names the recipient's field `handle` on lookup; on this form it is `toHandle`.
const recipientCodes = new Set(["RECIPIENT_NOT_FOUND", "TRANSFER_TO_SELF"]);

function onRecipient<T>(result: ActionResult<T>): ActionResult<T> {
  if (result.ok || !(recipientCodes.has(result.failure.code) || result.failure.field === "handle")) return result;
  return { ...result, failure: { ...result.failure, field: "toHandle" } };
}

/** The form's transfer, checked with the origin's own rules and the deploy's limits. */
async function draftOf(form: FormData): Promise<Draft> {
  const language = currentLanguage();
  const amountRange = currentMoneyLimits().transfer;
  const noteLength = currentTextLimits().transfer.note;
  return checked(
    (await transferSchemas.load()).transferBodySchema,
    {
      toHandle: typedHandle(formText(form, "toHandle")),
      amount: parseYuan(formText(form, "amount")),
      note: formText(form, "note"),
    },
    {
      ...transferMessages[language].fields,
      amount: sayRange(amountRange, language, formMessages[language].amountOutside),
      note: transferMessages[language].noteOutside(sayLength(noteLength)),
    },
    { amount: amountRange },
    { note: noteLength },
  );
}

const transferIntents = {
  review: async (form: FormData) =>
    onRecipient(
      await runAction("review", async (api): Promise<Reviewed> => {
        const reviewed = await draftOf(form);
        const recipient = await lookUpRecipient(api, { handle: reviewed.toHandle });
        return { draft: reviewed, recipient };
      }),
    ),
  send: async (form: FormData) =>
    onRecipient(
      await runAction("send", async (api) => sendTransfer(api, await draftOf(form), formText(form, "idempotencyKey")), {
        movesMoney: true,
      }),
    ),
};

function DraftForm({
  draft,
  returning,
  onReviewed,
}: {
  draft: Draft | null;
  returning: boolean;
  onReviewed: (reviewed: Reviewed) => void;
}) {
  const text = useMessages(transferMessages);
  const noteLengthText = sayLength(useTextLimits().transfer.note);
  const language = useLanguage();
  const transferLimits = useMoneyLimits().transfer;
  const amountHint = sayRange(transferLimits, language, (min, max) =>
    text.amountHint(min, max, formatMoney(transferLimits.perDay, language)),
  );
  const fetcher = useFetcher<ActionResult<Reviewed>>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result, { resetOnSuccess: false });
  const recipient = useRef<HTMLInputElement>(null);
  // Back from the check or the receipt, the button pressed is gone: focus goes to the first
  // field rather than to the page's start. A first visit leaves focus where it is.
  useEffect(() => {
    if (returning) recipient.current?.focus();
  }, [returning]);
  useEffect(() => {
    if (result?.ok) onReviewed(result.data);
  }, [result, onReviewed]);
  return (
    <fetcher.Form method="post" className="form" ref={formRef} noValidate>
      <FormAlert result={result} fields={["toHandle", "amount", "note"]} />
      <input type="hidden" name="intent" value="review" />
      <Field
        ref={recipient}
        id="transfer-to"
        name="toHandle"
        label={text.recipient}
        hint={text.recipientHint}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        maxLength={33}
        defaultValue={draft?.toHandle}
        error={fieldError(result, "toHandle")}
      />
      <MoneyField
        id="transfer-amount"
        name="amount"
        label={text.amount}
        hint={amountHint}
        defaultValue={draft ? (draft.amount / 100).toFixed(2) : undefined}
        error={fieldError(result, "amount")}
      />
      <Field
        id="transfer-note"
        name="note"
        label={text.note}
        hint={text.noteHint(noteLengthText)}
        defaultValue={draft?.note}
        error={fieldError(result, "note")}
      />
      <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.checking}>
        {text.review}
      </SubmitButton>
    </fetcher.Form>
  );
}

function Confirm({ reviewed, onChange, onSent }: { reviewed: Reviewed; onChange: () => void; onSent: (receipt: TransferReceipt) => void }) {
  const text = useMessages(transferMessages);
  const language = useLanguage();
  const fetcher = useFetcher<ActionResult<TransferReceipt>>();
  const result = fetcher.data;
  const { draft, recipient } = reviewed;
  // The same transfer reviewed again after an answer that never came keeps its key: the
  // origin then answers with the first transfer instead of moving the money twice.
  const { formRef, idempotencyKey } = useFormInstance(result, {
    resetOnSuccess: false,
    persistAs: `transfer:${draft.toHandle}:${draft.amount}:${draft.note}`,
  });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    if (result?.ok) onSent(result.data);
  }, [result, onSent]);
  return (
    <section className="card confirm" aria-labelledby="confirm-title">
      <h2 id="confirm-title" ref={heading} tabIndex={-1}>
        {text.confirmTitle}
      </h2>
      <dl className="summary">
        <dt>{text.confirmTo}</dt>
        <dd>
          <PersonName person={recipient} />
        </dd>
        <dt>{text.confirmAmount}</dt>
        <dd className="amount-large">{formatMoney(draft.amount, language)}</dd>
        <dt>{text.confirmNote}</dt>
        <dd>{draft.note || text.noNote}</dd>
      </dl>
      <fetcher.Form method="post" ref={formRef} className="form-actions">
        <FormAlert result={result} />
        <input type="hidden" name="intent" value="send" />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="toHandle" value={draft.toHandle} />
        <input type="hidden" name="amount" value={(draft.amount / 100).toFixed(2)} />
        <input type="hidden" name="note" value={draft.note} />
        <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey} busyLabel={text.sending}>
          {text.send}
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={onChange} disabled={fetcher.state !== "idle"}>
          {text.change}
        </button>
      </fetcher.Form>
    </section>
  );
}

function Receipt({ receipt, onAnother }: { receipt: TransferReceipt; onAnother: () => void }) {
  const text = useMessages(transferMessages);
  const language = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card receipt" aria-labelledby="receipt-title">
      <h2 id="receipt-title" ref={heading} tabIndex={-1}>
        {text.receiptTitle}
      </h2>
      <p role="status">{text.receiptLead(formatMoney(receipt.amount, language), `${receipt.to.displayName} (@${receipt.to.handle})`)}</p>
      <dl className="summary">
        <dt>{text.receiptId}</dt>
        <dd>
          <code>{receipt.id}</code>
        </dd>
        <dt>{text.receiptTime}</dt>
        <dd>
          <DateTime iso={receipt.createdAt} />
        </dd>
        <dt>{text.confirmNote}</dt>
        <dd>{receipt.note || text.noNote}</dd>
      </dl>
      <p className="form-actions">
        <button type="button" className="button" onClick={onAnother}>
          {text.another}
        </button>
        <Link to={`/wallet/receipts/transfer/${receipt.id}`}>{text.printableReceipt}</Link>
      </p>
    </section>
  );
}

type Step =
  | { name: "edit"; draft: Draft | null; returning: boolean }
  | { name: "confirm"; reviewed: Reviewed }
  | { name: "done"; receipt: TransferReceipt };

/** The transfer's three steps, for someone signed in: the details, the check, the receipt. */
export function TransferSteps() {
  usePrefetchWhenIdle(transferSchemas.part);
  const [step, setStep] = useState<Step>({ name: "edit", draft: null, returning: false });
  if (step.name === "edit")
    return <DraftForm draft={step.draft} returning={step.returning} onReviewed={(reviewed) => setStep({ name: "confirm", reviewed })} />;
  if (step.name === "confirm")
    return (
      <Confirm
        reviewed={step.reviewed}
        onChange={() => setStep({ name: "edit", draft: step.reviewed.draft, returning: true })}
        onSent={(receipt) => setStep({ name: "done", receipt })}
      />
    );
  return <Receipt receipt={step.receipt} onAnother={() => setStep({ name: "edit", draft: null, returning: true })} />;
}

/** The route's action: the form's intent, checked and sent. */
export function actOnTransferForm(form: FormData): Promise<ActionResult> {
  return dispatchIntent(form, transferIntents);
}
