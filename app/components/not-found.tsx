import { Link } from "react-router";
import { useLayoutMessages } from "../i18n/layout-messages";

export function NotFound() {
  const text = useLayoutMessages();
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{text.notFoundTitle}</h1>
      <p>{text.notFoundBody}</p>
      <p>
        <Link to="/">{text.goHome}</Link> {text.or} <Link to="/help">{text.readHelp}</Link>
        {text.fullStop}
      </p>
    </section>
  );
}
