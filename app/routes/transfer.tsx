import type { Route } from "./+types/transfer";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { transferPageMessages } from "../messages/transfer-page";
import { RequireUser } from "../personal/personal-view";
import { signedInPart, waitingFor } from "../startup/on-first-use";

const transferSteps = signedInPart("transfer-steps", () => import("../transfer/transfer-steps.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = transferPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export const clientLoader = waitingFor(transferSteps);

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnTransferForm }, form] = await Promise.all([transferSteps.load(), request.formData()]);
  return actOnTransferForm(form);
}

function TransferPage() {
  const text = useMessages(transferPageMessages);
  return (
    <section className="narrow" aria-labelledby="transfer-title">
      <h1 id="transfer-title">{text.title}</h1>
      <RequireUser purpose={text.purpose}>
        <PartView part={transferSteps}>{({ TransferSteps }) => <TransferSteps />}</PartView>
      </RequireUser>
    </section>
  );
}

export default function Transfer() {
  return <TransferPage />;
}

export function HydrateFallback() {
  return <TransferPage />;
}
