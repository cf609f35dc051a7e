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
function rangeText(range: MoneyRange, language: Language): { min: string; max: string } {
  return { min: formatMoney(range.min, language), max: formatMoney(range.max, language) };
}

/** Every limit as the page shows it, for the help and terms pages' text. */
export type MoneyFigures = {
  recharge: { min: string; max: string };
  transfer: { min: string; max: string; perDay: string };
  taskReward: { min: string; max: string };
};

function moneyFigures(limits: Limits, language: Language): MoneyFigures {
  return {
    recharge: rangeText(limits.recharge, language),
    transfer: { ...rangeText(limits.transfer, language), perDay: formatMoney(limits.transfer.perDay, language) },
    taskReward: rangeText(limits.taskReward, language),
  };
}

/**
 * A page's text built from the deploy's money limits, in each language: built once per
 * isolate and limits, since one setting holds for every request of a deploy (an uncached
 * render of /help then costs what it did before the figures came from the setting).
 */
export function textWithFigures<T>(build: Record<Language, (figures: MoneyFigures) => T>): (limits: Limits, language: Language) => T {
  const built = new WeakMap<Limits, Map<Language, T>>();
  return (limits, language) => {
    let byLanguage = built.get(limits);
    if (!byLanguage) {
      byLanguage = new Map();
      built.set(limits, byLanguage);
    }
    let text = byLanguage.get(language);
    if (text === undefined) {
      text = build[language](moneyFigures(limits, language));
      byLanguage.set(language, text);
    }
    return text;
  };
}
