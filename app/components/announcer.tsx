import { useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation } from "react-router";

let message = "";
const listeners = new Set<() => void>();

/** Says something to screen-reader users (the result of an action whose button went away). */
function announce(text: string): void {
  // Clear first so the same words said twice are announced twice.
  message = "";
  for (const listener of listeners) listener();
  setTimeout(() => {
    message = text;
    for (const listener of listeners) listener();
  }, 50);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Announces `text` when a form's answer is a success. */
export function useAnnounceSuccess(result: { ok: boolean } | undefined, text: string): void {
  useEffect(() => {
    if (result?.ok) announce(text);
  }, [result, text]);
}

/** The layout's one polite live region, present from the first render so it is heard. */
export function Announcer() {
  const current = useSyncExternalStore(
    subscribe,
    () => message,
    () => "",
  );
  return (
    <div className="visually-hidden" role="status" aria-live="polite">
      {current}
    </div>
  );
}

/**
 * After a client-side navigation, focus moves to the new page's heading, as a page load
 * would start reading it; the first render leaves focus where the browser put it.
 */
export function useFocusOnNavigation(): void {
  const location = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the location is the trigger: each navigation moves focus, though the effect reads the DOM, not the location.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    focusPageHeading();
  }, [location.pathname, location.search]);
}

/**
 * Focus on the page's own heading: after a navigation, or when what held focus went away.
 * A page still waiting for its data has none yet; the main region stands in for it.
 */
export function focusPageHeading(): void {
  const target = document.querySelector<HTMLElement>("#main h1") ?? document.getElementById("main");
  if (!target) return;
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: false });
}
