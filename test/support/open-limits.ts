/**
 * The browser tests and the benches send far more than one person would, from one address
 * (loopback), within minutes. Their private copy of the built origin's config opens every
 * limit (README, Limits) while keeping its machinery: each burst binding still counts (with
 * a limit nobody reaches) and each daily counter is still written (with a cap nobody
 * reaches). The limits themselves are tested in workers/origin/src/limits/.
 */
import { doors } from "../../workers/origin/src/limits/doors.ts";

type RateLimitConfig = { name: string; namespace_id: string; simple: { limit: number; period: number } };
type OriginConfig = { ratelimits?: RateLimitConfig[]; vars?: Record<string, string> };

const unreachable = 1_000_000_000;

export function withOpenLimits<T extends OriginConfig>(config: T): T {
  const perDay = Object.fromEntries(
    Object.entries(doors).map(([name, door]) => [
      name,
      Object.fromEntries(Object.keys("perDay" in door ? door.perDay : {}).map((by) => [by, unreachable])),
    ]),
  );
  return {
    ...config,
    ratelimits: (config.ratelimits ?? []).map((binding) => ({ ...binding, simple: { ...binding.simple, limit: unreachable } })),
    vars: { ...config.vars, LIMITS_PER_DAY: JSON.stringify(perDay) },
  };
}
