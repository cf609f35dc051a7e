import type { Route } from "./+types/transfer";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { transferMessages } from "../messages/transfer";
import { RequireUser } from "../personal/personal-view";
import { mayBeSignedIn, partOnFirstUse } from "../startup/on-first-use";

const transferSteps = partOnFirstUse("transfer-steps", () => import("../transfer/transfer-steps.client"));
if (mayBeSignedIn()) void transferSteps.prefetch();

export function meta({ matches }: Route.MetaArgs) {
  const text = transferMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  const [{ actOnTransferForm }, form] = await Promise.all([transferSteps.load(), request.formData()]);
  return actOnTransferForm(form);
}

export default function Transfer() {
  const text = useMessages(transferMessages);
  return (
    <section className="narrow" aria-labelledby="transfer-title">
      <h1 id="transfer-title">{text.title}</h1>
      <RequireUser purpose={text.purpose}>
        <PartView part={transferSteps}>{({ TransferSteps }) => <TransferSteps />}</PartView>
      </RequireUser>
    </section>
  );
}
