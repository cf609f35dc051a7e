import Bowser from "bowser";

/**
 * "Chrome on Android", "Safari on iOS": how a person recognises one of their sessions. Read
 * from the user agent the session signed in with; null when there was none or nothing in it
 * is known, so the page says "an unknown device" rather than guess.
 */
export function deviceLabel(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os } = Bowser.parse(userAgent);
  const label = [browser.name, os.name].filter(Boolean).join(" on ");
  return label ? label.slice(0, 120) : null;
}
