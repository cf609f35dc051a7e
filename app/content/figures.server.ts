/**
 * The figures /help and /tos state, as the page shows them: the deploy's money limits
 * (docs/decisions/053-deploy-limits.md), locks (docs/decisions/054-deploy-locks.md), time
 * limits (docs/decisions/055-deploy-time-limits.md) and task limits
 * (docs/decisions/058-deploy-task-limits.md). The edge fills them in on the server; the
 * text is built once per isolate, settings and language.
 */
import { defaultLocks, type LockRule, type Locks } from "#contract/lock-limits";
import type { Limits } from "#contract/money-limits";
import { defaultTaskLimits, type TaskLimits } from "#contract/task-limits";
import { defaultTextLimits, type TextLimits } from "#contract/text-limits";
import { defaultTimeLimits, type TimeLimits } from "#contract/time-limits";
import { sayDays, sayMinutes } from "../i18n/durations";
import { formatMoney } from "../i18n/format";
import type { Language } from "../i18n/languages";
import { rangeText } from "../money-limits";
import { taskLimitWords } from "../task-limits";
import { sayLength } from "../text-limits";

/** Every money limit as the page shows it ("¥0.01", "¥50,000.00"). */
type MoneyFigures = {
  recharge: { min: string; max: string };
  transfer: { min: string; max: string; perDay: string };
  taskReward: { min: string; max: string };
};

/** A lock as the page says it: "10", "15 minutes", "1 hour". */
type LockFigures = { failures: string; window: string; lock: string };

/** The time limits as the page says them: "30 minutes", "24 hours", "72 小时", "30 days". */
type TimeFigures = { orderPay: string; claimSubmit: string; autoApprove: string; sessionIdle: string };

/** A task's bounds as the page says them: "1,000", "1 hour", "30 days". */
type TaskFigures = { slotsMax: string; soonest: string; latest: string };

export type PageFigures = MoneyFigures & {
  locks: { signIn: LockFigures; redeem: LockFigures };
  times: TimeFigures;
  tasks: TaskFigures;
  /** A transfer's note's length, as the page writes it: "140". */
  noteLength: string;
};

function moneyFigures(limits: Limits, language: Language): MoneyFigures {
  return {
    recharge: rangeText(limits.recharge, language),
    transfer: { ...rangeText(limits.transfer, language), perDay: formatMoney(limits.transfer.perDay, language) },
    taskReward: rangeText(limits.taskReward, language),
  };
}

function lockFigures(rule: LockRule, language: Language): LockFigures {
  return {
    failures: String(rule.failures),
    window: sayMinutes(rule.windowMinutes, language),
    lock: sayMinutes(rule.lockMinutes, language),
  };
}

/** The deploy's settings a page's text states; a page that states no lock or time leaves them out and is built with the product's. */
export type StatedSettings = { limits: Limits; locks?: Locks; times?: TimeLimits; tasks?: TaskLimits; texts?: TextLimits };

/**
 * A page's text built from the deploy's figures, in each language: built once per isolate,
 * settings and language, since one setting holds for every request of a deploy (an uncached
 * render of /help then costs what it did before the figures came from settings). The settings'
 * readers give the same objects while a setting holds, so the last ones are the key.
 */
export function textWithFigures<T>(
  build: Record<Language, (figures: PageFigures) => T>,
): (settings: StatedSettings, language: Language) => T {
  type Built = Required<StatedSettings> & { byLanguage: Map<Language, T> };
  let built: Built | undefined;
  return ({ limits, locks = defaultLocks, times = defaultTimeLimits, tasks = defaultTaskLimits, texts = defaultTextLimits }, language) => {
    if (built?.limits !== limits || built.locks !== locks || built.times !== times || built.tasks !== tasks || built.texts !== texts) {
      built = { limits, locks, times, tasks, texts, byLanguage: new Map() };
    }
    let text = built.byLanguage.get(language);
    if (text === undefined) {
      text = build[language]({
        ...moneyFigures(limits, language),
        locks: { signIn: lockFigures(locks.signIn, language), redeem: lockFigures(locks.redeem, language) },
        times: {
          orderPay: sayMinutes(times.order.payMinutes, language),
          claimSubmit: sayMinutes(times.claim.submitHours * 60, language),
          autoApprove: sayMinutes(times.claim.autoApproveHours * 60, language),
          sessionIdle: sayDays(times.session.idleDays, language),
        },
        tasks: taskLimitWords(tasks, language),
        noteLength: sayLength(texts.transfer.note),
      });
      built.byLanguage.set(language, text);
    }
    return text;
  };
}
