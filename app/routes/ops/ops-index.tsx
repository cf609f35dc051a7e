import type { Route } from "./+types/ops-index";
import type { Overview } from "#contract/ops-overview";
import type { Locks } from "#contract/lock-limits";
import type { Limits } from "#contract/money-limits";
import type { TaskLimits } from "#contract/task-limits";
import type { TextLimits } from "#contract/text-limits";
import type { TimeLimits } from "#contract/time-limits";
import { ApiFailure } from "../../api/client";
import { getLocks, getMoneyLimits, getOverview, getTaskLimits, getTextLimits, getTimeLimits } from "../../api/ops";
import { Link } from "react-router";
import { DateTime, Money } from "../../components/money";
import { useMessages } from "../../i18n/messages";
import { opsMessages } from "../../messages/ops";
import { OpsView } from "../../ops/ops-view";
import { LimitsInForce } from "../../ops/limits-in-force";
import { LocksInForce, TaskLimitsInForce, TextLimitsInForce, TimeLimitsInForce } from "../../ops/rules-in-force";
import { VolumeChart } from "../../ops/volume-chart";
import { loadPersonal } from "../../personal/load-personal";

export async function clientLoader() {
  return loadPersonal(async (api) => {
    // An origin that cannot read a setting (500), or one deployed before it (404), still
    // leaves the overview standing: that setting's card says its figures are not known.
    const [overview, limits, locks, times, tasks, texts] = await Promise.all([
      getOverview(api),
      getMoneyLimits(api).catch(limitsNotGiven),
      getLocks(api).catch(limitsNotGiven),
      getTimeLimits(api).catch(limitsNotGiven),
      getTaskLimits(api).catch(limitsNotGiven),
      getTextLimits(api).catch(limitsNotGiven),
    ]);
    return { overview, limits, locks, times, tasks, texts };
  });
}

function limitsNotGiven(error: unknown): null {
  if (error instanceof ApiFailure && error.code !== "UNAUTHENTICATED") return null;
  throw error;
}

function byKind(volume: Overview["dailyVolume"]): [string, number][] {
  const totals = new Map<string, number>();
  for (const row of volume) totals.set(row.kind, (totals.get(row.kind) ?? 0) + row.amount);
  return [...totals.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function OverviewView({
  overview,
  limits,
  locks,
  times,
  tasks,
  texts,
}: {
  overview: Overview;
  limits: Limits | null;
  locks: Locks | null;
  times: TimeLimits | null;
  tasks: TaskLimits | null;
  texts: TextLimits | null;
}) {
  const text = useMessages(opsMessages);
  const moneyKeys = ["walletsAvailable", "walletsHeld", "taskEscrow", "wechatClearing", "world", "paydeskCovered"] as const;
  const pendingKeys = [
    "wechatPayments",
    "wechatRefunds",
    "wechatRefundsStuck",
    "refundApprovals",
    "codeBatchApprovals",
    "recoveryLinkApprovals",
    "roleApprovals",
  ] as const;
  const ticketKeys = ["underADay", "oneToThreeDays", "olderThanThreeDays"] as const;
  return (
    <div className="ops-grid">
      <section aria-labelledby="ops-money-title" className="card">
        <h2 id="ops-money-title">{text.moneyNow}</h2>
        <dl className="ops-facts" data-testid="ops-money">
          {moneyKeys.map((key) => (
            <div key={key} className="ops-fact">
              <dt>{text.money[key]}</dt>
              <dd>
                <Money amount={overview.money[key]} />
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="ops-ledger-title" className="card">
        <h2 id="ops-ledger-title">{text.ledgerCheck}</h2>
        <p role="status" data-testid="ops-ledger" className={overview.ledger.violations > 0 ? "form-error" : undefined}>
          {overview.ledger.violations === 0 ? text.ledgerWhole : text.ledgerBroken(overview.ledger.violations)}
        </p>
        <p className="item-meta">
          {text.ledgerCheckedAt} <DateTime iso={overview.ledger.checkedAt} /> · <Link to="/ops/ledger">{text.ledgerCheckNow}</Link>
        </p>
        <h2>{text.pendingTitle}</h2>
        <dl className="ops-facts">
          {pendingKeys.map((key) => (
            <div key={key} className="ops-fact">
              <dt>{text.pending[key]}</dt>
              <dd>{overview.pending[key]}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="ops-volume-title" className="card">
        <h2 id="ops-volume-title">{text.volumeTitle}</h2>
        {overview.dailyVolume.length === 0 ? (
          <p>{text.noVolume}</p>
        ) : (
          <>
            <VolumeChart volume={overview.dailyVolume} />
            <h3>{text.volumeByKind}</h3>
            <dl className="ops-facts">
              {byKind(overview.dailyVolume).map(([kind, amount]) => (
                <div key={kind} className="ops-fact">
                  <dt>{text.journalKind[kind] ?? kind}</dt>
                  <dd>
                    <Money amount={amount} />
                  </dd>
                </div>
              ))}
            </dl>
          </>
        )}
      </section>
      <section aria-labelledby="ops-tickets-title" className="card">
        <h2 id="ops-tickets-title">{text.ticketsTitle}</h2>
        <dl className="ops-facts">
          {ticketKeys.map((key) => (
            <div key={key} className="ops-fact">
              <dt>{text.tickets[key]}</dt>
              <dd>{overview.openTickets[key]}</dd>
            </div>
          ))}
        </dl>
      </section>
      <LimitsInForce enforced={limits} />
      <LocksInForce enforced={locks} />
      <TimeLimitsInForce enforced={times} />
      <TaskLimitsInForce enforced={tasks} />
      <TextLimitsInForce enforced={texts} />
    </div>
  );
}

export default function OpsIndex({ loaderData }: Route.ComponentProps) {
  const text = useMessages(opsMessages);
  return (
    <section aria-labelledby="ops-overview-title">
      <h1 id="ops-overview-title">{text.overviewTitle}</h1>
      <OpsView result={loaderData}>{(loaded) => <OverviewView {...loaded} />}</OpsView>
    </section>
  );
}
