import { useNavigation } from "react-router";
import { useLayoutMessages } from "../i18n/layout-messages";

/** Shown while a navigation is pending: its chunk, styles and data are on their way. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const text = useLayoutMessages();
  if (navigation.state === "idle") return null;
  return (
    <div className="navigation-progress" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span className="visually-hidden">{text.loadingPage}</span>
    </div>
  );
}
