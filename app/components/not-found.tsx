import { Link } from "react-router";

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <p>
        <Link to="/">Go to the home page</Link> or <Link to="/help">read the help</Link>.
      </p>
    </section>
  );
}
