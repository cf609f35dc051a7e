import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { Passkey } from "#contract/passkeys";
import { useAnnounceSuccess } from "../components/announcer";
import { DateTime } from "../components/money";
import type { ActionResult } from "../forms/action-result";
import { Field, FormAlert, PasswordField, SubmitButton } from "../forms/fields";
import { fieldError } from "../forms/failure-fields";
import { useFormInstance } from "../forms/use-form-instance";
import { useMessages } from "../i18n/messages";
import { passkeyMessages } from "../messages/passkeys";
import { passkeysSupported } from "./webauthn-support";

function AddPasskey({ handle }: { handle: string }) {
  const text = useMessages(passkeyMessages);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data?.intent === "addPasskey" ? fetcher.data : undefined;
  const { formRef, idempotencyKey } = useFormInstance(result);
  useAnnounceSuccess(result, text.added);
  // Known only in the browser: the server's HTML is the same for every visitor.
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => setSupported(passkeysSupported()), []);
  if (supported === false) return <p className="notice notice-warning">{text.unsupported}</p>;
  return (
    <fetcher.Form method="post" className="form" ref={formRef} noValidate aria-labelledby="add-passkey-title">
      <h3 id="add-passkey-title">{text.addTitle}</h3>
      <FormAlert result={result} fields={["name", "password"]} />
      <input type="hidden" name="intent" value="addPasskey" />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      {/* For password managers: whose password this is. */}
      <input type="text" name="username" value={handle} autoComplete="username" readOnly hidden />
      <Field
        id="passkey-name"
        label={text.name}
        name="name"
        hint={text.nameHint}
        autoComplete="off"
        required
        error={fieldError(result, "name")}
      />
      <PasswordField
        id="passkey-password"
        label={text.password}
        name="password"
        hint={text.passwordHint}
        autoComplete="current-password"
        error={fieldError(result, "password")}
      />
      <SubmitButton busy={fetcher.state !== "idle" || !idempotencyKey || supported === null} busyLabel={text.adding}>
        {text.add}
      </SubmitButton>
    </fetcher.Form>
  );
}

function RenamePasskey({ passkey, done }: { passkey: Passkey; done: () => void }) {
  const text = useMessages(passkeyMessages);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  const { formRef } = useFormInstance(result, { resetOnSuccess: false });
  useAnnounceSuccess(result, text.renamed);
  useEffect(() => {
    if (result?.ok) done();
  }, [result, done]);
  const id = `rename-${passkey.id}`;
  // The field the person just asked to edit.
  useEffect(() => document.getElementById(id)?.focus(), [id]);
  return (
    <fetcher.Form method="post" className="form passkey-inline-form" ref={formRef} noValidate aria-label={text.renameLabel(passkey.name)}>
      <FormAlert result={result} fields={["name"]} />
      <input type="hidden" name="intent" value="renamePasskey" />
      <input type="hidden" name="id" value={passkey.id} />
      <Field id={id} label={text.newName} name="name" defaultValue={passkey.name} required error={fieldError(result, "name")} />
      <div className="form-actions">
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.saving}>
          {text.save}
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={done}>
          {text.cancel}
        </button>
      </div>
    </fetcher.Form>
  );
}

function RemovePasskey({ passkey, done }: { passkey: Passkey; done: () => void }) {
  const text = useMessages(passkeyMessages);
  const fetcher = useFetcher<ActionResult>();
  const result = fetcher.data;
  useAnnounceSuccess(result, text.removed);
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => question.current?.focus(), []);
  return (
    <fetcher.Form method="post" className="passkey-confirm" role="group" aria-labelledby={`remove-${passkey.id}`}>
      <FormAlert result={result} />
      <p id={`remove-${passkey.id}`} ref={question} tabIndex={-1}>
        {text.confirmRemove(passkey.name)}
      </p>
      <input type="hidden" name="intent" value="removePasskey" />
      <input type="hidden" name="id" value={passkey.id} />
      <div className="form-actions">
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel={text.removing} className="button button-danger">
          {text.confirmRemoveYes}
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={done}>
          {text.cancel}
        </button>
      </div>
    </fetcher.Form>
  );
}

function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const text = useMessages(passkeyMessages);
  const [mode, setMode] = useState<"view" | "rename" | "remove">("view");
  const actions = useRef<HTMLDivElement>(null);
  const backFrom = useRef<"rename" | "remove" | null>(null);
  // Back from renaming or removing: focus returns to the button that started it.
  useEffect(() => {
    if (mode === "view" && backFrom.current) actions.current?.querySelector<HTMLElement>(`[data-action="${backFrom.current}"]`)?.focus();
  }, [mode]);
  const done = () => {
    backFrom.current = mode === "view" ? null : mode;
    setMode("view");
  };
  return (
    <li className="item passkey">
      <span className="item-main">
        <span className="item-title">{passkey.name}</span>
        <span className="item-meta">
          {text.created} <DateTime iso={passkey.createdAt} />
          {" · "}
          {passkey.lastUsedAt ? (
            <>
              {text.lastUsed} <DateTime iso={passkey.lastUsedAt} />
            </>
          ) : (
            text.neverUsed
          )}
          {passkey.synced ? ` · ${text.synced}` : null}
        </span>
      </span>
      {mode === "rename" ? (
        <RenamePasskey passkey={passkey} done={done} />
      ) : mode === "remove" ? (
        <RemovePasskey passkey={passkey} done={done} />
      ) : (
        <div className="item-side form-actions" ref={actions}>
          <button
            type="button"
            className="button button-secondary"
            data-action="rename"
            aria-label={text.renameLabel(passkey.name)}
            onClick={() => setMode("rename")}
          >
            {text.rename}
          </button>
          <button
            type="button"
            className="button button-secondary"
            data-action="remove"
            aria-label={text.removeLabel(passkey.name)}
            onClick={() => setMode("remove")}
          >
            {text.remove}
          </button>
        </div>
      )}
    </li>
  );
}

/** /account's passkeys: the list with rename and remove, and adding one (docs/decisions/025-passkeys.md). */
export function PasskeysSection({ passkeys, handle }: { passkeys: Passkey[]; handle: string }) {
  const text = useMessages(passkeyMessages);
  return (
    <section className="card passkeys" aria-labelledby="passkeys-title" data-testid="passkeys-section">
      <h2 id="passkeys-title">{text.title}</h2>
      <p>{text.intro}</p>
      {passkeys.length === 0 ? (
        <p>{text.none}</p>
      ) : (
        <ul className="item-list" aria-label={text.listLabel}>
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} />
          ))}
        </ul>
      )}
      <AddPasskey handle={handle} />
    </section>
  );
}
