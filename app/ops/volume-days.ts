import type { Overview } from "#contract/ops-overview";
import { chinaDayOf } from "../i18n/format";

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The overview's days: from 30 days before today through today, in China Standard Time, as
 * the origin counts them (workers/origin/src/ops/overview-routes.ts).
 */
export const volumeWindowDays = 31;

/**
 * Every day of the window in order, with the money moved that day (all kinds together), 0
 * where nothing moved: each bar stands over its own date, so a quiet day is a gap.
 */
export function volumeByDay(volume: Overview["dailyVolume"], nowMs: number): { day: string; amount: number }[] {
  const moved = new Map<string, number>();
  for (const row of volume) moved.set(row.day, (moved.get(row.day) ?? 0) + row.amount);
  return Array.from({ length: volumeWindowDays }, (_, index) => {
    const day = chinaDayOf(nowMs - (volumeWindowDays - 1 - index) * dayMs);
    return { day, amount: moved.get(day) ?? 0 };
  });
}
