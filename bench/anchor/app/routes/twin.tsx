import { Link, NavLink } from "react-router";
import { policyReportOnly } from "../../../page-headers";
import { type TwinLinks, type TwinPage, twinElements } from "../../../page-twin-elements";

// Written by bench/build-anchors.ts before it builds the anchor with this route; absent in a
// clean clone, where this route answers 404.
const captured = Object.values(import.meta.glob<TwinPage>("../twin/page.json", { eager: true, import: "default" }))[0];

/**
 * Paydesk's captured page, rendered by the bare app (docs/decisions/038-the-anchor-renders-paydesks-page.md).
 * The loader's data is what Paydesk's page carries for hydration; the captured elements are
 * already what Paydesk rendered from it.
 */
export function loader() {
  if (!captured) throw new Response("No page twin: bench/build-anchors.ts captures one before it builds this route.", { status: 404 });
  return captured.loaderData;
}

// The same answer as Paydesk's, headers too, since each costs under wrangler dev; its policy
// report-only, since the bare app's scripts do not carry Paydesk's nonce (bench/page-headers.ts).
export function headers() {
  return new Headers(captured ? policyReportOnly(captured.headers) : []);
}

// The server renders the links with React Router's own (their cost is the framework's); the
// browser hydrates the same markup as plain links, so that no chunk of the anchor's own page
// changes for this route (the browser build drops the import).
const links: TwinLinks | undefined = import.meta.env.SSR ? { Link, NavLink } : undefined;

export default function Twin() {
  if (!captured) return null;
  return (
    <>
      {twinElements(captured.head, links)}
      {twinElements(captured.body, links)}
    </>
  );
}
