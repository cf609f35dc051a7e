/*
 * The locks against guessing and the time limits the origin applies, on the back office's
 * overview (docs/decisions/054-deploy-locks.md, docs/decisions/055-deploy-time-limits.md,
 * docs/decisions/057-deploy-session-idle-days.md), the bounds on a task
 * (docs/decisions/058-deploy-task-limits.md) and the longest texts
 * (docs/decisions/059-deploy-text-limits.md): what an operator answers "why was I locked for
 * an hour?", "why did my order close?", "why must I sign in again?" or "why can't my task
 * run for a month?" from.
 * The time limits are compared with what the pages state; the locks are stated by /help
 * alone, rendered on the server, so the card reminds where they belong.
 */
import type { LockRule, Locks } from "#contract/lock-limits";
import type { TaskLimits } from "#contract/task-limits";
import type { TextLimits } from "#contract/text-limits";
import type { TimeLimits } from "#contract/time-limits";
import { sayDays, sayMinutes } from "../i18n/durations";
import { useLanguage, useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { taskLimitWords, useTaskLimits } from "../task-limits";
import { sayLength, useTextLimits } from "../text-limits";
import { useTimeLimits } from "../time-limits";
import { InForceCard, sameFigures } from "./in-force-card";

/** An origin deployed before sessions' idle days were set per deploy answers without them: they then differ. */
type EnforcedTimes = Omit<TimeLimits, "session"> & Partial<Pick<TimeLimits, "session">>;

/** `enforced` is null when the origin did not answer with its locks. */
export function LocksInForce({ enforced }: { enforced: Locks | null }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const rule = ({ failures, windowMinutes, lockMinutes }: LockRule) =>
    text.lockRule(failures, sayMinutes(windowMinutes, language), sayMinutes(lockMinutes, language));
  return (
    <InForceCard
      id="locks"
      title={text.locksTitle}
      facts={
        enforced && [
          [text.locks.signIn, rule(enforced.signIn)],
          [text.locks.redeem, rule(enforced.redeem)],
        ]
      }
      agreement={{ note: text.locksNote }}
      unreadable={text.locksUnreadable}
    />
  );
}

/** `enforced` is null when the origin did not answer with its time limits. */
export function TimeLimitsInForce({ enforced }: { enforced: EnforcedTimes | null }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const stated = useTimeLimits();
  return (
    <InForceCard
      id="times"
      title={text.timesTitle}
      facts={
        enforced && [
          [text.times.orderPay, sayMinutes(enforced.order.payMinutes, language)],
          [text.times.claimSubmit, sayMinutes(enforced.claim.submitHours * 60, language)],
          [text.times.autoApprove, sayMinutes(enforced.claim.autoApproveHours * 60, language)],
          ...(enforced.session ? [[text.times.sessionIdle, sayDays(enforced.session.idleDays, language)] satisfies [string, string]] : []),
        ]
      }
      agreement={{ same: enforced !== null && sameFigures(stated, enforced), agree: text.timesAgree, differ: text.timesDiffer }}
      unreadable={text.timesUnreadable}
    />
  );
}

/** `enforced` is null when the origin did not answer with its bounds on a task. */
export function TaskLimitsInForce({ enforced }: { enforced: TaskLimits | null }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const stated = useTaskLimits();
  const words = enforced && taskLimitWords(enforced, language);
  return (
    <InForceCard
      id="tasks"
      title={text.tasksTitle}
      facts={
        words && [
          [text.tasks.slots, text.tasks.slotsRange(words.slotsMax)],
          [text.tasks.deadline, text.tasks.deadlineRange(words.soonest, words.latest)],
        ]
      }
      agreement={{ same: enforced !== null && sameFigures(stated, enforced), agree: text.tasksAgree, differ: text.tasksDiffer }}
      unreadable={text.tasksUnreadable}
    />
  );
}

/** `enforced` is null when the origin did not answer with its longest texts. */
export function TextLimitsInForce({ enforced }: { enforced: TextLimits | null }) {
  const text = useMessages(opsMessages);
  const stated = useTextLimits();
  return (
    <InForceCard
      id="texts"
      title={text.textsTitle}
      facts={
        enforced && [
          [text.texts.taskTitle, text.texts.characters(sayLength(enforced.task.title))],
          [text.texts.taskDescription, text.texts.characters(sayLength(enforced.task.description))],
          [text.texts.proof, text.texts.characters(sayLength(enforced.proof.text))],
          [text.texts.transferNote, text.texts.characters(sayLength(enforced.transfer.note))],
          [text.texts.supportMessage, text.texts.characters(sayLength(enforced.support.message))],
        ]
      }
      agreement={{ same: enforced !== null && sameFigures(stated, enforced), agree: text.textsAgree, differ: text.textsDiffer }}
      unreadable={text.textsUnreadable}
    />
  );
}
