import { useNavigate } from "react-router";
import { useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";
import { signOut } from "../session/account-session";

/** Ends the session and goes home, where nothing personal is left on screen. */
export function SignOutButton() {
  const text = useMessages(layoutMessages);
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
