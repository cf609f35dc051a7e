import type { WalletEntry } from "#contract/wallet";
import { Money } from "../components/money";
import { useMessages } from "../i18n/messages";
import { walletMessages } from "../messages/wallet";

/**
 * What a wallet entry changed: the available balance, or, for an entry that only moved held
 * money (a task's budget held, a reward paid from its escrow), the held amount so marked,
 * rather than a bare "+¥0.00".
 */
export function EntryChange({ entry }: { entry: Pick<WalletEntry, "amount" | "held"> }) {
  const text = useMessages(walletMessages);
  if (entry.amount === 0 && entry.held !== 0) {
    return (
      <span>
        <Money amount={entry.held} signed /> <span className="item-meta">{text.heldChange}</span>
      </span>
    );
  }
  return <Money amount={entry.amount} signed />;
}
