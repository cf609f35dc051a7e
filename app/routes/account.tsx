import type { Route } from "./+types/account";
import { passkeyIntents } from "../account/passkey-actions";
import { PasskeysSection } from "../account/passkeys-section";
import { listPasskeys } from "../api/passkeys";
import type { ActionResult } from "../forms/action-result";
import { dispatchIntent } from "../forms/intent-dispatch";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { accountMessages } from "../messages/account";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import "../styles/account.css";

// A composition of sections, each with its own module under app/account/ (its parts, its
// intents, its catalogue): this route only loads their data and hands each its forms.

export function meta({ matches }: Route.MetaArgs) {
  const text = accountMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader() {
  return loadPersonal(async (api) => ({ passkeys: await listPasskeys(api) }));
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return dispatchIntent(await request.formData(), { ...passkeyIntents });
}

export function HydrateFallback() {
  const text = useMessages(accountMessages);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Account({ loaderData }: Route.ComponentProps) {
  const text = useMessages(accountMessages);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{text.title}</h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(data) => <PasskeysSection passkeys={data.passkeys} />}
      </PersonalView>
    </section>
  );
}
