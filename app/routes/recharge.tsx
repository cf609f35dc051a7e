import type { Route } from "./+types/recharge";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { rechargePageMessages } from "../messages/recharge-page";
import { RequireUser } from "../personal/personal-view";
import { signedInPart, waitingFor } from "../startup/on-first-use";

const rechargeForms = signedInPart("recharge-forms", () => import("../recharge/recharge-forms.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = rechargePageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export const clientLoader = waitingFor(rechargeForms);

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
