import { useLayoutMessages } from "../i18n/layout-messages";

/** The one loading indicator: a spinner with a text alternative. */
export function Spinner({ label }: { label?: string }) {
  const text = useLayoutMessages();
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span className="spinner-label">{label ?? text.loading}</span>
    </div>
  );
}
