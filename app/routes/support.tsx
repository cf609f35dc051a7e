import type { Route } from "./+types/support";
import { ticketIdPattern } from "#contract/value-lists";
import { getTicket, listTickets } from "../api/support";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { supportPageMessages } from "../messages/support-page";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";
import type { SupportView } from "../support/support-screen.client";

const supportScreen = signedInPart("support-screen", () => import("../support/support-screen.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = supportPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const id = new URL(request.url).searchParams.get("id");
  const screen = await loadPersonal<SupportView>(async (api) =>
    id !== null
      ? { view: "thread", ticket: await getTicket(api, ticketIdPattern.test(id) ? id : "tkt_unknown") }
      : { view: "list", tickets: await listTickets(api) },
  );
  // The tickets arrive with their data, not after it (if they cannot, the render asks again).
  if (screen.state === "ready") await supportScreen.prefetch();
  return screen;
}
clientLoader.hydrate = true as const;

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnSupportForm }, form] = await Promise.all([supportScreen.load(), request.formData()]);
  return actOnSupportForm(form);
}

export function HydrateFallback() {
  const text = useMessages(supportPageMessages);
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Support({ loaderData }: Route.ComponentProps) {
  const text = useMessages(supportPageMessages);
  return (
    <section aria-labelledby="support-title">
      <h1 id="support-title">{text.title}</h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(screen) => <PartView part={supportScreen}>{({ SupportScreen }) => <SupportScreen screen={screen} />}</PartView>}
      </PersonalView>
    </section>
  );
}
