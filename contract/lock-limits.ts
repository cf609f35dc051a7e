/**
 * The locks that stop guessing, and what one deploy sets of them (docs/rules-and-limits.md,
 * docs/decisions/054-deploy-locks.md): a handle's sign-in after too many failed passwords or
 * recovery codes, and a person's redeeming after too many wrong prepaid codes. A deploy may
 * tighten them with its `LOCKS` setting, never loosen one; the origin enforces the deploy's,
 * `GET /api/locks` publishes them and /help states them.
 *
 * Plain TypeScript, no zod: the edge reads the same setting for /help.
 */
import { DeploySettingError, frozenParts, partFigures, settingReader } from "./deploy-setting";

/** `failures` within `windowMinutes` lock for `lockMinutes`. */
export type LockRule = { failures: number; windowMinutes: number; lockMinutes: number };

export type Locks = {
  /** Per handle: failed passwords and recovery codes. */
  signIn: LockRule;
  /** Per person: codes that are no code. */
  redeem: LockRule;
};

/** Frozen, as every Locks this module gives: one object is shared by every request of an isolate. */
export const defaultLocks: Locks = frozenParts({
  signIn: { failures: 10, windowMinutes: 15, lockMinutes: 15 },
  redeem: { failures: 5, windowMinutes: 10, lockMinutes: 10 },
});

/**
 * How far a deploy may tighten. Fewer than three failures would let one typo and one
 * stranger's guess lock a person out; past a day, a window or a lock stops being a pause and
 * becomes a way for anyone to keep a handle shut (docs/decisions/054-deploy-locks.md).
 */
const lockBounds = { fewestFailures: 3, longestMinutes: 24 * 60 } as const;

/** One lock over its default: fewer failures, a longer window, a longer lock, within the bounds. */
function tightened(part: keyof Locks, configured: unknown): LockRule {
  const defaults = defaultLocks[part];
  if (configured === undefined) return defaults;
  const path = `LOCKS.${part}`;
  const rule = partFigures(path, defaults, configured, "failures or minutes");
  if (rule.failures > defaults.failures)
    throw new DeploySettingError(
      `${path}.failures may only tighten the product's ${defaults.failures}, not loosen it to ${rule.failures}.`,
    );
  if (rule.failures < lockBounds.fewestFailures)
    throw new DeploySettingError(`${path}.failures (${rule.failures}) is below ${lockBounds.fewestFailures}, the fewest a lock may count.`);
  for (const name of ["windowMinutes", "lockMinutes"] as const) {
    if (rule[name] < defaults[name])
      throw new DeploySettingError(`${path}.${name} may only tighten the product's ${defaults[name]}, not loosen it to ${rule[name]}.`);
    if (rule[name] > lockBounds.longestMinutes)
      throw new DeploySettingError(`${path}.${name} (${rule[name]}) is past ${lockBounds.longestMinutes}, a day.`);
  }
  return rule;
}

/**
 * The locks a deploy's `LOCKS` setting sets: JSON such as
 * `{"signIn":{"failures":5,"lockMinutes":60}}`; absent or blank, the defaults. Anything else
 * throws a DeploySettingError naming the figure.
 */
export const deployLocks = settingReader({
  name: "LOCKS",
  defaults: defaultLocks,
  example: '{"signIn":{"failures":5,"lockMinutes":60}}',
  read: (parts): Locks => ({ signIn: tightened("signIn", parts.signIn), redeem: tightened("redeem", parts.redeem) }),
});
