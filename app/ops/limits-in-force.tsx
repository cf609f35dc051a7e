/*
 * The money limits the origin enforces, on the back office's overview, beside what the pages
 * state: one MONEY_LIMITS setting belongs on both workers, and a difference is shown here
 * rather than found by a customer (docs/decisions/053-deploy-limits.md).
 */
import type { Limits } from "#contract/money-limits";
import { Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { useMoneyLimits } from "../money-limits";
import { InForceCard, sameFigures } from "./in-force-card";

function Range({ min, max }: { min: number; max: number }) {
  return (
    <>
      <Money amount={min} /> – <Money amount={max} />
    </>
  );
}

/** `enforced` is null when the origin did not answer with its limits (it cannot read its setting, or has no such route). */
export function LimitsInForce({ enforced }: { enforced: Limits | null }) {
  const text = useMessages(opsMessages);
  const stated = useMoneyLimits();
  return (
    <InForceCard
      id="limits"
      title={text.limitsTitle}
      facts={
        enforced && [
          [text.limits.recharge, <Range key="recharge" {...enforced.recharge} />],
          [text.limits.transfer, <Range key="transfer" {...enforced.transfer} />],
          [text.limits.transferPerDay, <Money key="perDay" amount={enforced.transfer.perDay} />],
          [text.limits.taskReward, <Range key="taskReward" {...enforced.taskReward} />],
        ]
      }
      agreement={{ same: enforced !== null && sameFigures(stated, enforced), agree: text.limitsAgree, differ: text.limitsDiffer }}
      unreadable={text.limitsUnreadable}
    />
  );
}
