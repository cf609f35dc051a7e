import { useMessages } from "../i18n/messages";
import { layoutMessages } from "../messages/layout";

/** The one loading indicator: a spinner with a text alternative. */
export function Spinner({ label }: { label?: string }) {
  const text = useMessages(layoutMessages);
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span className="spinner-label">{label ?? text.loading}</span>
    </div>
  );
}
