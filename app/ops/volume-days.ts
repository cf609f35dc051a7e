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
 * where nothing moved: each bar stands over its own date, so a quiet day is a gap. The window
 * ends today by this clock, or on the origin's newest day if this clock is behind.
 */
export function volumeByDay(volume: Overview["dailyVolume"], nowMs: number): { day: string; amount: number }[] {
  const moved = new Map<string, number>();
  for (const row of volume) moved.set(row.day, (moved.get(row.day) ?? 0) + row.amount);
  const newest = [...moved.keys()].reduce((latest, day) => (day > latest ? day : latest), chinaDayOf(nowMs));
  // Whole dates, counted back as UTC midnights: no time zone comes into it.
  const end = Date.parse(newest);
  return Array.from({ length: volumeWindowDays }, (_, index) => {
    const day = new Date(end - (volumeWindowDays - 1 - index) * dayMs).toISOString().slice(0, 10);
    return { day, amount: moved.get(day) ?? 0 };
  });
}
