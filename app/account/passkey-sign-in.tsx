import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ApiFailure } from "../api/client";
import { useLanguage, useMessages } from "../i18n/messages";
import { messageFor } from "../messages/errors";
import { passkeySignInMessages } from "../messages/passkey-sign-in";
import { signedIn } from "../session/account-session";
import { partOnFirstUse } from "../startup/on-first-use";
import { PasskeyDeviceError, passkeyAutofillSupported } from "./webauthn-support";

type Credential = Awaited<ReturnType<typeof import("./webauthn").getPasskey>>;

const ceremony = partOnFirstUse("passkey-sign-in", () => import("./passkey-sign-in-ceremony.client"));

/**
 * The ceremony's code, fetched when a passkey is first used. If it cannot come now, the
 * button says Paydesk cannot be reached, as for a call that never arrived, and the next
 * press tries again; the page is not reloaded under the person.
 */
async function passkeyCeremony() {
  const passkeys = await ceremony.prefetch();
  if (!passkeys) throw new ApiFailure("ORIGIN_UNAVAILABLE");
  return passkeys;
}

/**
 * Signing in with a passkey on /login: a button, and — where the browser offers it — the
 * passkeys in the handle field's autofill (its `autocomplete` ends in `webauthn`). Either
 * way the answer is a session like the password's, and the page moves on to `next`.
 */
export function PasskeySignIn({ next }: { next: string }) {
  const text = useMessages(passkeySignInMessages);
  const language = useLanguage();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const autofillStarted = useRef(false);

  const finish = useCallback(
    async (credential: Credential) => {
      setBusy(true);
      try {
        const { passkeySignIn } = await passkeyCeremony();
        const { token, user } = await passkeySignIn({ credential });
        signedIn(token, user);
        navigate(next, { replace: true });
      } finally {
        setBusy(false);
      }
    },
    [navigate, next],
  );

  const explain = useCallback(
    (error: unknown) => {
      if (error instanceof PasskeyDeviceError) setProblem(error.message);
      else if (error instanceof ApiFailure) void messageFor(error.code, language, error).then(setProblem);
      else throw error;
    },
    [language],
  );

  useEffect(() => {
    let active = true;
    void (async () => {
      if (!(await passkeyAutofillSupported()) || !active) return;
      // The autofill is an offer: without its chunk, the button still works.
      const passkeys = await ceremony.prefetch();
      if (!passkeys || !active) return;
      autofillStarted.current = true;
      let credential: Credential;
      try {
        credential = await passkeys.getPasskey(await passkeys.passkeySignInOptions(), { autofill: true });
      } catch {
        // Nobody asked yet: a request the button replaced, a page going away, a browser or a
        // service that cannot do it now. The button still can, and says why if it fails.
        return;
      }
      if (active) await finish(credential).catch(explain);
    })();
    return () => {
      active = false;
      if (autofillStarted.current) void ceremony.prefetch().then((passkeys) => passkeys?.cancelPasskeyRequest());
    };
  }, [finish, explain]);

  // Rendered for everyone, shown by CSS where the head's passkey mark found passkeys
  // (app/startup/passkey-mark.server.ts): it is there from the first paint, never late.
  return (
    <div className="passkey-sign-in">
      <button
        type="button"
        className="button button-secondary"
        disabled={busy}
        aria-disabled={busy}
        onClick={() => {
          setProblem(null);
          setBusy(true);
          passkeyCeremony()
            .then(async (passkeys) => passkeys.getPasskey(await passkeys.passkeySignInOptions(), { autofill: false }))
            .then(finish)
            .catch(explain)
            .finally(() => setBusy(false));
        }}
      >
        {busy ? text.signingIn : text.signIn}
      </button>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <p className="hint">{text.or}</p>
    </div>
  );
}
