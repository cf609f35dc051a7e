import { Link } from "react-router";
import type { Route } from "./+types/home";
import { getWalletSummary, listWalletEntries } from "../api/wallet";
import { PartView } from "../components/part-view";
import { metaLanguage, useMessages } from "../i18n/messages";
import { pageMeta } from "../i18n/page-meta";
import { homeMessages } from "../messages/home";
import { loadPersonal } from "../personal/load-personal";
import { PersonalView, UntilSessionKnown } from "../personal/personal-view";
import { useSession } from "../session/session-state";
import { signedInPart } from "../startup/on-first-use";

const walletOverview = signedInPart("wallet-overview", () => import("../home/wallet-overview.client"));

export function meta({ matches }: Route.MetaArgs) {
  const text = homeMessages[metaLanguage(matches)];
  return pageMeta(text.title, text.description);
}

export async function clientLoader() {
  const overview = await loadPersonal(async (api) => {
    const [page, summary] = await Promise.all([listWalletEntries(api, 5), getWalletSummary(api)]);
    return { entries: page.entries, toDo: summary.claimsToSubmit, toCheck: summary.submissionsToCheck };
  });
  // Someone signed in sees their overview: it arrives with its data, not after it (if it
  // cannot, the render asks again, and the page explains a failure).
  if (overview.state === "ready") await walletOverview.prefetch();
  return overview;
}
clientLoader.hydrate = true as const;

export function HydrateFallback() {
  return <UntilSessionKnown signedOut={<Welcome />} />;
}

function Welcome() {
  const text = useMessages(homeMessages);
  return (
    <section className="hero" aria-labelledby="home-title">
      <h1 id="home-title">{text.heroTitle}</h1>
      <p>{text.heroLead}</p>
      <p className="actions">
        <Link className="button" to="/login">
          {text.signIn}
        </Link>
        <Link className="button button-secondary" to="/login?mode=register">
          {text.createAccount}
        </Link>
      </p>
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { user } = useSession();
  if (loaderData.state === "signed-out") return <Welcome />;
  return (
    <PersonalView result={loaderData} purpose="">
      {(overview) =>
        // Signed out since the data came (here or in another tab): nothing personal stays.
        user ? (
          <PartView part={walletOverview}>{({ WalletOverview }) => <WalletOverview overview={overview} user={user} />}</PartView>
        ) : (
          <Welcome />
        )
      }
    </PersonalView>
  );
}
