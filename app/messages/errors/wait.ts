import type { Language } from "../../i18n/languages";

const later: Record<Language, string> = { en: "later", "zh-CN": "稍后" };

/**
 * A wait an answer named (its `Retry-After`, in seconds) as a catalogue's `{wait}` reads it:
 * "in 3 minutes", "3分钟后"; "later" when it named none. Fetched with the first refusal that
 * has a wait, not with the page (app/messages/errors.ts).
 */
export function waitText(seconds: number | undefined, language: Language): string {
  if (seconds === undefined) return later[language];
  const relative = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  if (seconds < 60) return relative.format(Math.max(1, Math.ceil(seconds)), "second");
  // A daily limit waits until the next day in China: hours read better than 1,380 minutes.
  if (seconds < 2 * 3600) return relative.format(Math.ceil(seconds / 60), "minute");
  return relative.format(Math.ceil(seconds / 3600), "hour");
}
