import { formatDateTime, formatMoney, formatSignedMoney } from "../i18n/format";
import { useLanguage } from "../i18n/messages";

/** Money is an integer count of minor units (fen); shown with two decimals. */
export function Money({ amount, currency = "CNY", signed = false }: { amount: number; currency?: string; signed?: boolean }) {
  const language = useLanguage();
  const text = signed ? formatSignedMoney(amount, language, currency) : formatMoney(amount, language, currency);
  return <span className={signed ? `money ${amount < 0 ? "money-out" : "money-in"}` : "money"}>{text}</span>;
}

export function DateTime({ iso }: { iso: string }) {
  const language = useLanguage();
  return <time dateTime={iso}>{formatDateTime(iso, language)}</time>;
}
