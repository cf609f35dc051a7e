/**
 * The product's money limits and what one deploy sets of them (docs/rules-and-limits.md,
 * docs/decisions/053-deploy-limits.md). The defaults are the contract: its schemas, the
 * published document and the database's CHECKs hold them. A deploy may tighten any of them
 * with its `MONEY_LIMITS` setting, never loosen one; the origin and the pages then check the
 * deploy's figures on top of the contract's, and `GET /api/limits` publishes them.
 *
 * Plain TypeScript, no zod: the edge reads the same setting for its pages, and the edge
 * carries no zod (docs/decisions/034-lighter-edge.md).
 */
import { DeploySettingError, frozenParts, partFigures, settingReader } from "./deploy-setting";

/** An inclusive range of amounts in minor units (fen). */
export type MoneyRange = { min: number; max: number };

export type Limits = {
  /** One online recharge order. */
  recharge: MoneyRange;
  /** One transfer, and what one person may send in a China Standard Time day. */
  transfer: MoneyRange & { perDay: number };
  /** A task's reward per completion. */
  taskReward: MoneyRange;
};

/** Frozen, as every Limits this module gives: one object is shared by every request of an isolate. */
export const defaultLimits: Limits = frozenParts({
  recharge: { min: 100, max: 500_000 },
  transfer: { min: 1, max: 5_000_000, perDay: 10_000_000 },
  taskReward: { min: 10, max: 100_000 },
});

/**
 * Reads one part of the setting (`recharge`, `transfer` or `taskReward`) over its default.
 * A figure may only move inward: a minimum up to the maximum, a maximum or a daily total
 * down to the minimum.
 */
function tightened<T extends Record<string, number>>(part: string, defaults: T, configured: unknown): T {
  if (configured === undefined) return defaults;
  const merged: Record<string, number> = partFigures(`MONEY_LIMITS.${part}`, defaults, configured, "fen");
  const min = merged.min ?? 0;
  for (const [name, value] of Object.entries(merged)) {
    const outermost = defaults[name] ?? 0;
    const loosened = name === "min" ? value < outermost : value > outermost;
    if (loosened)
      throw new DeploySettingError(`MONEY_LIMITS.${part}.${name} may only tighten the product's ${outermost}, not loosen it to ${value}.`);
    if (name !== "min" && value < min)
      throw new DeploySettingError(`MONEY_LIMITS.${part}.${name} (${value}) is below ${part}.min (${min}).`);
  }
  // A day that allows less than one transfer may send would make the form promise what the
  // origin refuses at the confirmation: the maximum must come down with it.
  const { max = 0, perDay } = merged;
  if (perDay !== undefined && perDay < max)
    throw new DeploySettingError(`MONEY_LIMITS.${part}.perDay (${perDay}) is below ${part}.max (${max}): set max to at most perDay too.`);
  return merged as T;
}

/**
 * The limits a deploy's `MONEY_LIMITS` setting sets: JSON such as
 * `{"transfer":{"max":1000000,"perDay":2000000}}`; absent or blank, the defaults. Anything
 * else throws a DeploySettingError naming the figure: a deploy that cannot say its limits
 * must not move money under guessed ones.
 */
export const deployLimits = settingReader({
  name: "MONEY_LIMITS",
  defaults: defaultLimits,
  example: '{"transfer":{"max":1000000,"perDay":2000000}}',
  read: (parts): Limits => ({
    recharge: tightened("recharge", defaultLimits.recharge, parts.recharge),
    transfer: tightened("transfer", defaultLimits.transfer, parts.transfer),
    taskReward: tightened("taskReward", defaultLimits.taskReward, parts.taskReward),
  }),
});

/** How the contract refuses an amount past a bound (its schemas and a deploy's ranges alike), in yuan: "5000.00". */
export const amountAtLeast = (fen: number) => `The amount must be at least ${(fen / 100).toFixed(2)}.`;
export const amountAtMost = (fen: number) => `The amount must be at most ${(fen / 100).toFixed(2)}.`;

/**
 * What is wrong with an amount the contract's schema accepted but the deploy's range does
 * not, worded as the schema words its own bounds (contract/money.ts); null when it is inside.
 */
export function outsideRange(amount: number, range: MoneyRange): string | null {
  if (amount < range.min) return amountAtLeast(range.min);
  if (amount > range.max) return amountAtMost(range.max);
  return null;
}
