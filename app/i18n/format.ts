import type { Language } from "./languages";

const moneyFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Money is an integer count of minor units (fen), shown with two decimals and "¥". */
export function formatMoney(minorUnits: number, language: Language, currency = "CNY"): string {
  const key = `${language}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: "currency", currency, currencyDisplay: "narrowSymbol", minimumFractionDigits: 2 });
    moneyFormats.set(key, format);
  }
  return format.format(minorUnits / 100);
}

/** A signed amount: "+¥1.00" for money in, "−¥1.00" for money out. */
export function formatSignedMoney(minorUnits: number, language: Language, currency = "CNY"): string {
  const amount = formatMoney(Math.abs(minorUnits), language, currency);
  return minorUnits < 0 ? `−${amount}` : `+${amount}`;
}

/**
 * The zone Paydesk counts days in (docs/rules-and-limits.md): statement days, daily limits and
 * the CSV's times are China Standard Time, so every time shown is too, and the statement's
 * lines fall on the days they are listed under.
 */
const appTimeZone = "Asia/Shanghai";
const appOffsetMinutes = 8 * 60;

/** The day (YYYY-MM-DD) a moment falls on in China Standard Time, as the origin counts days. */
export function chinaDayOf(ms: number): string {
  return new Date(ms + appOffsetMinutes * 60_000).toISOString().slice(0, 10);
}

/**
 * A moment in China Standard Time. A reader whose own clock is elsewhere at that moment
 * also reads the zone's name ("GMT+8"), so a time is never taken for their own.
 * (Personal data renders in the browser only, so the reader's zone is known.)
 */
export function formatDateTime(iso: string, language: Language, readerOffsetMinutes?: number): string {
  const moment = new Date(iso);
  const elsewhere = (readerOffsetMinutes ?? -moment.getTimezoneOffset()) !== appOffsetMinutes;
  const key = `${language}:${elsewhere}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      year: "numeric",
      month: "short",
      day: "numeric",
      // As each language's short time style writes the hour: "4:05 PM", "16:05" and "00:05".
      hour: language === "en" ? "numeric" : "2-digit",
      minute: "2-digit",
      timeZone: appTimeZone,
      ...(elsewhere ? { timeZoneName: "short" } : {}),
    });
    dateFormats.set(key, format);
  }
  return format.format(moment);
}

/** The yuan a person types ("12", "12.5", "12.34") as fen; null when it is not such an amount. */
export function parseYuan(text: string): number | null {
  const match = /^\s*(\d{1,10})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(fen) ? fen : null;
}
