import { defaultLimits } from "#contract/money-limits";
import { formatMoney } from "../../i18n/format";
import type { Language } from "../../i18n/languages";
import { readPublicConfig } from "../../startup/public-config";

/**
 * The day's transfer limit as a catalogue's `{dailyLimit}` reads it: this deploy's, from the
 * page's configuration (app/money-limits.ts, docs/decisions/053-deploy-limits.md), which the
 * confirmation step does not otherwise show. Fetched with the first refusal that names it,
 * not with the page (app/messages/errors.ts).
 */
export function dailyLimitText(language: Language): string {
  const limits = typeof document === "undefined" ? undefined : readPublicConfig(document).limits;
  return formatMoney((limits ?? defaultLimits).transfer.perDay, language);
}
