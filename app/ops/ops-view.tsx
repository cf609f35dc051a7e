import type { ReactNode } from "react";
import { NotFound } from "../components/not-found";
import type { Personal } from "../personal/load-personal";
import { PersonalView } from "../personal/personal-view";

/** A back office page's states: what is not found is the ordinary 404, the rest as personal pages. */
export function OpsView<T>({ result, children }: { result: Personal<T>; children: (data: T) => ReactNode }) {
  if (result.state === "failed" && result.code === "NOT_FOUND") return <NotFound />;
  return (
    <PersonalView result={result} purpose="">
      {children}
    </PersonalView>
  );
}
