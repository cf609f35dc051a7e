import type { Route } from "./+types/recharge";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { rechargePageMessages } from "../messages/recharge-page";
import { RequireUser } from "../personal/personal-view";
import { mayBeSignedIn, signedInPart } from "../startup/on-first-use";

const rechargeForms = signedInPart("recharge-forms", () => import("../recharge/recharge-forms.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = rechargePageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

// A navigation here, someone signed in, waits for the part as it waits for the route's
// chunk, instead of showing the screen with a spinner in it. The server's HTML is the page
// itself (its HydrateFallback), which shows the loading state or the sign-in prompt until
// start-up has said who is there (docs/decisions/043-screens-after-start-up.md).
export async function clientLoader() {
  if (mayBeSignedIn()) await rechargeForms.prefetch();
  return null;
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnRechargeForm }, form] = await Promise.all([rechargeForms.load(), request.formData()]);
  return actOnRechargeForm(form);
}

function RechargePage() {
  const text = useMessages(rechargePageMessages);
  return (
    <section aria-labelledby="recharge-title">
      <h1 id="recharge-title">{text.title}</h1>
      <RequireUser purpose={text.purpose}>
        <PartView part={rechargeForms}>{({ RechargeForms }) => <RechargeForms />}</PartView>
      </RequireUser>
    </section>
  );
}

export default function Recharge() {
  return <RechargePage />;
}

export function HydrateFallback() {
  return <RechargePage />;
}
