/**
 * This deploy's money limits on the pages (docs/decisions/053-deploy-limits.md): the edge
 * reads the deploy's `MONEY_LIMITS` into the public configuration, where they stay out when
 * they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { defaultLimits, type Limits, type MoneyRange } from "#contract/money-limits";
import { formatMoney } from "./i18n/format";
import type { Language } from "./i18n/languages";
import { currentDeploySetting, useDeploySetting } from "./deploy-settings";

export const useMoneyLimits = (): Limits => useDeploySetting("limits", defaultLimits);
export const currentMoneyLimits = (): Limits => currentDeploySetting("limits", defaultLimits);

/** A sentence about a range, its ends shown as the page shows money: `words("¥0.01", "¥50,000.00")`. */
export function sayRange(range: MoneyRange, language: Language, words: (min: string, max: string) => string): string {
  const { min, max } = rangeText(range, language);
  return words(min, max);
}

/** A range's ends as the page shows money ("¥0.01", "¥50,000.00"). */
export function rangeText(range: MoneyRange, language: Language): { min: string; max: string } {
  return { min: formatMoney(range.min, language), max: formatMoney(range.max, language) };
}
