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

/** A moment in the reader's own time zone (personal data renders in the browser only). */
export function formatDateTime(iso: string, language: Language): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" });
    dateFormats.set(language, format);
  }
  return format.format(new Date(iso));
}

/** The yuan a person types ("12", "12.5", "12.34") as fen; null when it is not such an amount. */
export function parseYuan(text: string): number | null {
  const match = /^\s*(\d{1,10})(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(fen) ? fen : null;
}
