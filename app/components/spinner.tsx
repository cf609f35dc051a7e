/** The one loading indicator: a spinner with a text alternative. */
export function Spinner({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner-wheel" aria-hidden="true" />
      <span className="spinner-label">{label}</span>
    </div>
  );
}
