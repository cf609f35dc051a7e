/*
 * A new account's recovery codes, shown once on /login after sign-up: a chunk fetched on
 * first use (app/routes/login.tsx, docs/decisions/043-screens-after-start-up.md).
 */
import { Link, useNavigate } from "react-router";
import { useMessages } from "../i18n/messages";
import { recoveryCodeMessages } from "../messages/recovery-codes";
import { RecoveryCodesShown } from "./recovery-codes-shown";

/** After sign-up: the recovery codes once, then on to where the person was going. */
export function NewAccountCodes({ codes, handle, next }: { codes: readonly string[] | null; handle: string; next: string }) {
  const text = useMessages(recoveryCodeMessages);
  const navigate = useNavigate();
  if (!codes) {
    return (
      <p>
        {text.codesNone} <Link to="/account">{text.toAccount}</Link>
      </p>
    );
  }
  return <RecoveryCodesShown codes={codes} handle={handle} onDone={() => navigate(next)} />;
}
