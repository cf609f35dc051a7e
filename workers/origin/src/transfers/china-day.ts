const chinaStandardTimeMs = 8 * 60 * 60 * 1000;

/** The calendar day in China Standard Time (UTC+8, no daylight saving), as YYYY-MM-DD. */
export function chinaDay(at: number): string {
  return new Date(at + chinaStandardTimeMs).toISOString().slice(0, 10);
}
