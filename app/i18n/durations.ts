import type { Language } from "./languages";

/**
 * A rule's length as the pages write it: whole hours in hours, the rest in minutes ("15
 * minutes", "1 hour", "15 分钟", "72 小时"). Used by /help and /tos on the server and by the back
 * office's overview in the browser.
 */
export function sayMinutes(minutes: number, language: Language): string {
  const hours = minutes >= 60 && minutes % 60 === 0 ? minutes / 60 : null;
  if (language === "zh-CN") return hours === null ? `${minutes} 分钟` : `${hours} 小时`;
  if (hours === null) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

/** A rule's length in whole days, as /help writes a session's: "30 days", "1 day", "30 天". */
export function sayDays(days: number, language: Language): string {
  if (language === "zh-CN") return `${days} 天`;
  return `${days} day${days === 1 ? "" : "s"}`;
}
