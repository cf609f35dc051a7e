import type { Route } from "./+types/account";
import { listDevices, listSessions, recoveryCodesStatus } from "../api/account-safety";
import { listPasskeys } from "../api/passkeys";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { accountPageMessages } from "../messages/account-page";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { useSession } from "../session/session-state";
import { signedInPart } from "../startup/on-first-use";

// This route loads the sections' data; the sections themselves, each with its own module
// under app/account/, and their forms are a part fetched on first use.
const accountSections = signedInPart("account-sections", () => import("../account/account-sections.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = accountPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader() {
  const account = await loadPersonal(async (api) => {
    const [sessions, devices, passkeys, codes] = await Promise.all([
      listSessions(api),
      listDevices(api),
      listPasskeys(api),
      recoveryCodesStatus(api),
    ]);
    return { sessions, devices, passkeys, codes };
  });
  // The sections arrive with their data, not after it (if they cannot, the render asks again).
  if (account.state === "ready") await accountSections.prefetch();
  return account;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnAccountForm }, form] = await Promise.all([accountSections.load(), request.formData()]);
  return actOnAccountForm(form);
}

export function HydrateFallback() {
  const text = useMessages(accountPageMessages);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const text = useMessages(accountPageMessages);
  const { user } = useSession();
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalView result={user ? loaderData : { state: "signed-out" }} purpose={text.purpose}>
        {(data) =>
          user ? <PartView part={accountSections}>{({ AccountSections }) => <AccountSections user={user} {...data} />}</PartView> : null
        }
      </PersonalView>
    </section>
  );
}
