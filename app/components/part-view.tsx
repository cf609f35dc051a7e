import { Suspense, type ReactNode } from "react";
import type { Part } from "../startup/on-first-use";
import { Spinner } from "./spinner";

function Loaded<M>({ part, children }: { part: Part<M>; children: (module: M) => ReactNode }) {
  return children(part.use());
}

/** A part fetched on first use (app/startup/on-first-use.ts), with the loading indicator until it has arrived. */
export function PartView<M>({ part, children }: { part: Part<M>; children: (module: M) => ReactNode }) {
  return (
    <Suspense fallback={<Spinner />}>
      <Loaded part={part}>{children}</Loaded>
    </Suspense>
  );
}
