/**
 * The figures /help and /tos state, as the page shows them: the deploy's money limits
 * (docs/decisions/053-deploy-limits.md) and locks (docs/decisions/054-deploy-locks.md). The
 * edge fills them in on the server; the text is built once per isolate, setting and language.
 */
import { defaultLocks, type LockRule, type Locks } from "#contract/lock-limits";
import type { Limits } from "#contract/money-limits";
import { formatMoney } from "../i18n/format";
import type { Language } from "../i18n/languages";
import { rangeText } from "../money-limits";

/** Every money limit as the page shows it ("¥0.01", "¥50,000.00"). */
export type MoneyFigures = {
  recharge: { min: string; max: string };
  transfer: { min: string; max: string; perDay: string };
  taskReward: { min: string; max: string };
};

/** A lock as the page says it: "10", "15 minutes", "1 hour". */
type LockFigures = { failures: string; window: string; lock: string };

export type PageFigures = MoneyFigures & { locks: { signIn: LockFigures; redeem: LockFigures } };

function moneyFigures(limits: Limits, language: Language): MoneyFigures {
  return {
    recharge: rangeText(limits.recharge, language),
    transfer: { ...rangeText(limits.transfer, language), perDay: formatMoney(limits.transfer.perDay, language) },
    taskReward: rangeText(limits.taskReward, language),
  };
}

/** Whole hours in hours, the rest in minutes, as the pages always wrote them ("15 minutes", "15 分钟"). */
function sayMinutes(minutes: number, language: Language): string {
  const hours = minutes >= 60 && minutes % 60 === 0 ? minutes / 60 : null;
  if (language === "zh-CN") return hours === null ? `${minutes} 分钟` : `${hours} 小时`;
  if (hours === null) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${hours} hour${hours === 1 ? "" : "s"}`;
}

function lockFigures(rule: LockRule, language: Language): LockFigures {
  return {
    failures: String(rule.failures),
    window: sayMinutes(rule.windowMinutes, language),
    lock: sayMinutes(rule.lockMinutes, language),
  };
}

/**
 * A page's text built from the deploy's figures, in each language: built once per isolate,
 * setting and language, since one setting holds for every request of a deploy (an uncached
 * render of /help then costs what it did before the figures came from settings). A page that
 * states no lock leaves `locks` out and is built with the product's.
 */
export function textWithFigures<T>(
  build: Record<Language, (figures: PageFigures) => T>,
): (limits: Limits, language: Language, locks?: Locks) => T {
  const built = new WeakMap<Limits, WeakMap<Locks, Map<Language, T>>>();
  return (limits, language, locks = defaultLocks) => {
    let byLocks = built.get(limits);
    if (!byLocks) {
      byLocks = new WeakMap();
      built.set(limits, byLocks);
    }
    let byLanguage = byLocks.get(locks);
    if (!byLanguage) {
      byLanguage = new Map();
      byLocks.set(locks, byLanguage);
    }
    let text = byLanguage.get(language);
    if (text === undefined) {
      const figures = {
        ...moneyFigures(limits, language),
        locks: { signIn: lockFigures(locks.signIn, language), redeem: lockFigures(locks.redeem, language) },
      };
      text = build[language](figures);
      byLanguage.set(language, text);
    }
    return text;
  };
}
