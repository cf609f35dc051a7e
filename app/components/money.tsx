/** Money is an integer count of minor units (fen); shown with two decimals. */
export function formatMoney(minorUnits: number, currency = "CNY", locale = "en"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency, minimumFractionDigits: 2 }).format(minorUnits / 100);
}

export function Money({ amount, currency = "CNY" }: { amount: number; currency?: string }) {
  return <span className="money">{formatMoney(amount, currency)}</span>;
}
