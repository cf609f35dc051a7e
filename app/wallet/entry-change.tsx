import type { WalletEntry } from "#contract/wallet";
import { Money } from "../components/money";

/**
 * What a wallet entry changed: the available balance, or, for an entry that only moved held
 * money (a task's budget held, a reward paid from its escrow), the held amount marked with
 * `heldLabel`, rather than a bare "+¥0.00". The label comes from the screen's own words.
 */
export function EntryChange({ entry, heldLabel }: { entry: Pick<WalletEntry, "amount" | "held">; heldLabel: string }) {
  if (entry.amount === 0 && entry.held !== 0) {
    return (
      <span>
        <Money amount={entry.held} signed /> <span className="item-meta">{heldLabel}</span>
      </span>
    );
  }
  return <Money amount={entry.amount} signed />;
}
