import { useNavigate } from "react-router";
import { useLayoutMessages } from "../i18n/layout-messages";
import { signOut } from "../session/account-session";

/** Ends the session and goes home, where nothing personal is left on screen. */
export function SignOutButton() {
  const text = useLayoutMessages();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="account-sign-out"
      onClick={() => {
        void signOut();
        void navigate("/");
      }}
    >
      {text.signOut}
    </button>
  );
}
