import { redirect } from "react-router";

/** The back office opens on its people search (the overview comes with issue #10's next part). */
export function clientLoader() {
  return redirect("/ops/people");
}

export default function OpsIndex() {
  return null;
}
