import { useEffect, useRef } from "react";

/** What the user sees when part of the app did not load (PRODUCT.md §2, chunk loading). */
export function ChunkFailure({ stylesheet = false }: { stylesheet?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="chunk-failure" role="alert" aria-labelledby="chunk-failure-title">
      <h1 id="chunk-failure-title" ref={heading} tabIndex={-1}>
        {stylesheet ? "This page could not load its design" : "This part of Paydesk could not load"}
      </h1>
      <p>
        Part of the app did not arrive. This happens on a weak connection or just after we released an update. Your
        money and data are safe; reloading usually fixes it.
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </section>
  );
}
