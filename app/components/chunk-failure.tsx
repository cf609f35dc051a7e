import { useEffect, useRef } from "react";
import { useLayoutMessages } from "../i18n/layout-messages";

/** What the user sees when part of the app did not load (docs/start-up.md, chunk loading). */
export function ChunkFailure({ stylesheet = false }: { stylesheet?: boolean }) {
  const text = useLayoutMessages();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="chunk-failure" role="alert" aria-labelledby="chunk-failure-title">
      <h1 id="chunk-failure-title" ref={heading} tabIndex={-1}>
        {stylesheet ? text.cssChunkTitle : text.chunkTitle}
      </h1>
      <p>{text.chunkBody}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {text.reload}
      </button>
    </section>
  );
}
