/**
 * The product's time limits on orders, claims and sessions, and what one deploy sets of them
 * (docs/rules-and-limits.md, docs/decisions/055-deploy-time-limits.md,
 * docs/decisions/057-deploy-session-idle-days.md): how long an order may be paid, how long a
 * worker has to submit a claim, how long a poster has to check a submission before it is
 * approved for them, and how long a session may go unused. A deploy may shorten them with its
 * `TIME_LIMITS` setting, never lengthen one; the origin applies the deploy's, `GET
 * /api/time-limits` publishes them and the pages state them.
 *
 * Plain TypeScript, no zod: the edge reads the same setting for its pages.
 */
import { frozenParts, settingReader, shortenedPart } from "./deploy-setting";

export type TimeLimits = {
  /** An unpaid order closes this long after it was made. */
  order: { payMinutes: number };
  /** A claim lapses this long after it was made (or at the task's deadline, if sooner); a submission nobody checked is approved this long after it was sent. */
  claim: { submitHours: number; autoApproveHours: number };
  /** A session unused for this long has ended: its token no longer signs anyone in. */
  session: { idleDays: number };
};

/** Frozen, as every TimeLimits this module gives: one object is shared by every request of an isolate. */
export const defaultTimeLimits: TimeLimits = frozenParts({
  order: { payMinutes: 30 },
  claim: { submitHours: 24, autoApproveHours: 72 },
  session: { idleDays: 30 },
});

/**
 * The shortest a deploy may set. A person needs minutes to open WeChat and pay; a worker an
 * hour to do a task's work; a poster a day to check it (docs/decisions/055-deploy-time-limits.md);
 * someone who uses Paydesk daily should not have to sign in each time
 * (docs/decisions/057-deploy-session-idle-days.md).
 */
export const shortestTimeLimits: TimeLimits = frozenParts({
  order: { payMinutes: 5 },
  claim: { submitHours: 1, autoApproveHours: 24 },
  session: { idleDays: 1 },
});

const shortened = <Part extends keyof TimeLimits>(part: Part, configured: unknown): TimeLimits[Part] =>
  shortenedPart(
    `TIME_LIMITS.${part}`,
    { defaults: defaultTimeLimits[part], shortest: shortestTimeLimits[part] },
    configured,
    "minutes, hours or days",
  );

/**
 * The time limits a deploy's `TIME_LIMITS` setting sets: JSON such as
 * `{"order":{"payMinutes":15},"claim":{"autoApproveHours":48}}`; absent or blank, the
 * defaults. Anything else throws a DeploySettingError naming the figure.
 */
export const deployTimeLimits = settingReader({
  name: "TIME_LIMITS",
  defaults: defaultTimeLimits,
  example: '{"order":{"payMinutes":15}}',
  read: (parts): TimeLimits => ({
    order: shortened("order", parts.order),
    claim: shortened("claim", parts.claim),
    session: shortened("session", parts.session),
  }),
});

export const minutesMs = (minutes: number) => minutes * 60_000;
export const hoursMs = (hours: number) => hours * 3_600_000;
export const daysMs = (days: number) => hoursMs(days * 24);
