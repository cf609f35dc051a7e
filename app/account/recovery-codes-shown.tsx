import { useEffect, useRef } from "react";
import { useMessages } from "../i18n/messages";
import { recoveryCodeMessages } from "../messages/recovery-codes";

/**
 * A new set of recovery codes, shown this once (docs/decisions/024-account-safety.md): a list
 * to copy or print, and a text file to keep. Focus comes here so a screen reader hears them.
 */
export function RecoveryCodesShown({ codes, handle, onDone }: { codes: readonly string[]; handle: string; onDone?: () => void }) {
  const text = useMessages(recoveryCodeMessages);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent([text.codesFileIntro(handle), "", ...codes, ""].join("\n"))}`;
  return (
    <section className="card recovery-codes" aria-labelledby="recovery-codes-shown">
      <h2 id="recovery-codes-shown" ref={headingRef} tabIndex={-1}>
        {text.codesList}
      </h2>
      <p className="notice notice-warning">{text.codesShownOnce}</p>
      <ol className="code-list" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <a className="button button-secondary" href={file} download={`paydesk-recovery-codes-${handle}.txt`}>
          {text.downloadCodes}
        </a>{" "}
        {onDone ? (
          <button type="button" className="button" onClick={onDone}>
            {text.savedCodes}
          </button>
        ) : null}
      </p>
    </section>
  );
}
