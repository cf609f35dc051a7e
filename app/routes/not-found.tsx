import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "../components/not-found";
import { metaLanguage } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { layoutMessagesIn } from "../i18n/layout-messages";

// The status makes the answer a real 404 (and keeps it out of the edge cache).
export function loader() {
  return data(null, { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  const text = layoutMessagesIn(metaLanguage(matches));
  return pageMeta(`${text.notFoundTitle} · Paydesk`, text.notFoundDescription);
}

export default function NotFoundRoute() {
  return <NotFound />;
}
