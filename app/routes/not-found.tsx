import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "../components/not-found";
import { metaLanguage } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";

// The status makes the answer a real 404 (and keeps it out of the edge cache).
export function loader() {
  return data(null, { status: 404 });
}

export function meta({ matches }: Route.MetaArgs) {
  return [{ title: `${layoutMessages[metaLanguage(matches)].notFoundTitle} · Paydesk` }];
}

export default function NotFoundRoute() {
  return <NotFound />;
}
