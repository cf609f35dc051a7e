import type { Route } from "./+types/wallet";
import { getWalletMonths, listStatement } from "../api/wallet";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { statementPageMessages } from "../messages/statement-page";
import { loadPersonal } from "../personal/load-personal";
import { PersonalFallback, PersonalView } from "../personal/personal-view";
import { signedInPart } from "../startup/on-first-use";
import { filterOf, type Statement } from "../wallet/statement-filter";

const statementView = signedInPart("statement-view", () => import("../wallet/statement-view.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = statementPageMessages[metaLanguage(matches)];
  return pageMeta(`${text.title} · Paydesk`, text.description);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const params = new URL(request.url).searchParams;
  const filter = filterOf(params);
  const statement = await loadPersonal<Statement>(async (api) => {
    const [page, months] = await Promise.all([
      listStatement(api, { ...filter, limit: 20, cursor: params.get("cursor") || undefined }),
      getWalletMonths(api),
    ]);
    return { page, months: months.months, filter };
  });
  // The statement arrives with its data, not after it (if it cannot, the render asks again).
  if (statement.state === "ready") await statementView.prefetch();
  return statement;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  const text = useMessages(statementPageMessages);
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">{text.title}</h1>
      <PersonalFallback purpose={text.purpose} />
    </section>
  );
}

export default function Wallet({ loaderData }: Route.ComponentProps) {
  const text = useMessages(statementPageMessages);
  return (
    <section aria-labelledby="wallet-title">
      <h1 id="wallet-title">{text.title}</h1>
      <PersonalView result={loaderData} purpose={text.purpose}>
        {(statement) => <PartView part={statementView}>{({ StatementView }) => <StatementView statement={statement} />}</PartView>}
      </PersonalView>
    </section>
  );
}
