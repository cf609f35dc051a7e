import type { OrderDetail } from "#contract/orders";
import { DateTime } from "../components/money";
import { useMessages } from "../i18n/messages";
import { orderMessages } from "../messages/orders";

/** An order's status changes, oldest first, each with why it closed in the reader's words. */
export function OrderHistory({ history, className }: { history: OrderDetail["history"]; className?: string }) {
  const text = useMessages(orderMessages);
  return (
    <ol className={className}>
      {history.map((entry) => (
        <li key={`${entry.status}-${entry.at}`}>
          <DateTime iso={entry.at} /> — {text.historyStatus[entry.status] ?? entry.status}
          {entry.reason && entry.reason in text.closeReason
            ? text.aside(text.closeReason[entry.reason as keyof typeof text.closeReason])
            : null}
        </li>
      ))}
    </ol>
  );
}
