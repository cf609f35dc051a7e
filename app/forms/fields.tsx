import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import type { ActionResult } from "./action-result";
import { failedFields, fieldError } from "./failure-fields";

type Labelled = { id: string; label: string; error?: string; hint?: string };

function describedBy(id: string, hint?: string, error?: string) {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
}

function FieldFrame({ id, label, error, hint, children }: Labelled & { children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Field({ id, label, error, hint, ...input }: Labelled & ComponentProps<"input">) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
    </FieldFrame>
  );
}

/** An amount in yuan as people type it ("12.5"); the action turns it into fen. */
export function MoneyField(props: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return <Field inputMode="decimal" autoComplete="off" required maxLength={12} {...props} />;
}

/**
 * A password: at most 256 characters as people count them (code points, contract/account.ts),
 * which may take 512 of the UTF-16 units a browser's maxlength counts. Cut at 256 units, a
 * long password with emoji would be shortened without a word.
 */
export function PasswordField(props: Labelled & InputHTMLAttributes<HTMLInputElement>) {
  return <Field type="password" required maxLength={512} {...props} />;
}

export function TextAreaField({ id, label, error, hint, ...input }: Labelled & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...input} />
    </FieldFrame>
  );
}

export function SelectField({
  id,
  label,
  error,
  hint,
  options,
  ...select
}: Labelled & SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label: string }[] }) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, hint, error)} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * A refusal that concerns no field shown in this form; focusable so the form can move
 * focus to it. `fields` names the form's visible fields: a failure about any other (a
 * header, a value the page adds) shows here rather than nowhere. A form without fields (a
 * confirm or pay button) shows every refusal here.
 */
export function FormAlert({ result, fields = [] }: { result: ActionResult | undefined; fields?: readonly string[] }) {
  if (!result || result.ok) return null;
  const refused = failedFields(result);
  const unseen = refused.filter((field) => !fields.includes(field));
  if (refused.length > 0 && unseen.length === 0) return null;
  const messages = unseen.length > 0 ? [...new Set(unseen.map((field) => fieldError(result, field)))] : [result.failure.message];
  return (
    <p className="form-error" role="alert" tabIndex={-1} data-form-alert>
      {messages.join(" ")}
    </p>
  );
}

/** Disabled while the form is on its way: a second click cannot send it twice. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
  className = "button",
  label,
  describedBy,
  waiting = false,
  name,
  value,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
  className?: string;
  /** The accessible name, where the visible words alone ("End") do not say which item. */
  label?: string;
  /** The id of the text that says what pressing it does, where that is more than its name. */
  describedBy?: string;
  /** Not yet usable (a form shown before the page can send it): disabled, its words unchanged. */
  waiting?: boolean;
  /** Sent with the form when this button is pressed: which of several things it acts on. */
  name?: string;
  value?: string;
}) {
  return (
    <button
      className={className}
      type="submit"
      name={name}
      value={value}
      disabled={busy || waiting}
      aria-disabled={busy || waiting}
      aria-label={busy ? undefined : label}
      aria-describedby={describedBy}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
