/** Work for when the browser has nothing better to do. Safari has no requestIdleCallback; a second is long enough for a page to settle. */
export function whenIdle(work: () => void): () => void {
  if ("requestIdleCallback" in window) {
    const handle = window.requestIdleCallback(work, { timeout: 5_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 1_000);
  return () => clearTimeout(timer);
}
