import { data } from "react-router";
import { NotFound } from "../components/not-found";

// The status makes the answer a real 404 (and keeps it out of the edge cache).
export function loader() {
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: "Page not found · Paydesk" }];
}

export default function NotFoundRoute() {
  return <NotFound />;
}
