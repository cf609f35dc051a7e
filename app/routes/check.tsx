import type { Route } from "./+types/check";
import { listClaims } from "../api/claims";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { checkPageMessages } from "../messages/check";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";
import { useDeploySettingRead } from "../deploy-settings";
import { useTimeLimits } from "../time-limits";

const checkQueue = signedInPart("check-queue", () => import("../tasks/check-queue.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = checkPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.checkTitle} · Paydesk`, text.checkDescription);
}

export async function clientLoader() {
  const claims = await loadPersonal((api) => listClaims(api, { view: "to_check" }));
  // The queue arrives with its data, not after it (if it cannot, the render asks again).
  if (claims.state === "ready") await checkQueue.prefetch();
  return claims;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnCheckForm }, form] = await Promise.all([checkQueue.load(), request.formData()]);
  return actOnCheckForm(form);
}

export function HydrateFallback() {
  const text = useMessages(checkPageMessages);
  return (
    <section aria-labelledby="check-title">
      <h1 id="check-title">{text.checkTitle}</h1>
      <PersonalFallback purpose={text.checkPurpose} />
    </section>
  );
}

export default function Check({ loaderData }: Route.ComponentProps) {
  const text = useMessages(checkPageMessages);
  const { autoApproveHours } = useTimeLimits().claim;
  // Each submission carries the time set when it was made (docs/decisions/055-deploy-time-limits.md):
  // with the deploy's setting unread, the product's hours may not be the ones in force.
  const rule = useDeploySettingRead("timeLimits") ? text.autoApprove(autoApproveHours) : text.autoApproveEach;
  return (
    <section aria-labelledby="check-title">
      <h1 id="check-title">{text.checkTitle}</h1>
      <p className="hint">{rule}</p>
      <PersonalView result={loaderData} purpose={text.checkPurpose}>
        {(claims) => <PartView part={checkQueue}>{({ Queue }) => <Queue claims={claims} />}</PartView>}
      </PersonalView>
    </section>
  );
}
