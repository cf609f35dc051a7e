import { Link } from "react-router";
import { useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";

export function NotFound() {
  const text = useMessages(layoutMessages);
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{text.notFoundTitle}</h1>
      <p>{text.notFoundBody}</p>
      <p>
        <Link to="/">{text.goHome}</Link> {text.or} <Link to="/help">{text.readHelp}</Link>.
      </p>
    </section>
  );
}
