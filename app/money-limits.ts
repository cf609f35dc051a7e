/**
 * This deploy's money limits on the pages (docs/decisions/053-deploy-limits.md): the edge
 * reads the deploy's `MONEY_LIMITS` into the public configuration, where they stay out when
 * they are the product's own, so a deploy at the defaults sends the same pages as before.
 */
import { useRouteLoaderData } from "react-router";
import { defaultLimits, type Limits, type MoneyRange } from "#contract/money-limits";
import { formatMoney } from "./i18n/format";
import type { Language } from "./i18n/languages";
import { type PublicConfig, readPublicConfig } from "./startup/public-config";

/** For a screen: from the root route's data. */
export function useMoneyLimits(): Limits {
  const root = useRouteLoaderData("root") as { config?: PublicConfig } | undefined;
  return root?.config?.limits ?? defaultLimits;
}

/** For a client action, outside React: from the document's configuration block. */
export function currentMoneyLimits(): Limits {
  return typeof document === "undefined" ? defaultLimits : (readPublicConfig(document).limits ?? defaultLimits);
}

/** A sentence about a range, its ends shown as the page shows money: `words("¥0.01", "¥50,000.00")`. */
export function sayRange(range: MoneyRange, language: Language, words: (min: string, max: string) => string): string {
  const { min, max } = rangeText(range, language);
  return words(min, max);
}

/** A range's ends as the page shows money ("¥0.01", "¥50,000.00"). */
export function rangeText(range: MoneyRange, language: Language): { min: string; max: string } {
  return { min: formatMoney(range.min, language), max: formatMoney(range.max, language) };
}
