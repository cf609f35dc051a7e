/**
 * WeChat Pay's times: RFC 3339 with seconds and an offset, written in China Standard Time
 * (`2026-11-21T20:30:00+08:00`), as its documentation and answers show them.
 */
const cstOffsetMs = 8 * 60 * 60 * 1000;

/** The instant, truncated to the second (never later than `at`), in UTC+08:00. */
export function formatWechatTime(at: number): string {
  const shifted = new Date(Math.floor(at / 1000) * 1000 + cstOffsetMs);
  return `${shifted.toISOString().slice(0, 19)}+08:00`;
}

/** Milliseconds since the epoch, or null for anything that is not RFC 3339 with an offset. */
export function parseWechatTime(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}
