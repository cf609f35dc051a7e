import type { WalletMonths } from "#contract/wallet";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { walletMessages } from "../messages/wallet";

const width = 600;
const height = 160;

/**
 * Money in and out per month as plain SVG bars (no chart library: 24 bars need none), with a
 * text alternative, and the figures as a table for anyone who reads rather than looks.
 */
export function MonthsChart({ months }: { months: WalletMonths["months"] }) {
  const text = useMessages(walletMessages);
  const language = useLanguage();
  const highest = Math.max(1, ...months.flatMap((month) => [month.in, month.out]));
  const slot = width / months.length;
  const bar = (slot - 6) / 2;
  const barHeight = (amount: number) => (amount === 0 ? 0 : Math.max(2, Math.round((amount / highest) * (height - 8))));
  const totalIn = months.reduce((sum, month) => sum + month.in, 0);
  const totalOut = months.reduce((sum, month) => sum + month.out, 0);
  return (
    <section className="card" aria-labelledby="months-title">
      <h2 id="months-title">{text.monthsTitle}</h2>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="months-chart"
        role="img"
        aria-label={text.monthsChart(formatMoney(totalIn, language), formatMoney(totalOut, language))}
        data-testid="months-chart"
      >
        {months.map((month, index) => {
          const x = index * slot + 3;
          const inHeight = barHeight(month.in);
          const outHeight = barHeight(month.out);
          return (
            <g key={month.month}>
              <rect className="bar-in" x={x} y={height - inHeight} width={bar} height={inHeight}>
                <title>{`${month.month} ${text.moneyIn} ${formatMoney(month.in, language)}`}</title>
              </rect>
              <rect className="bar-out" x={x + bar} y={height - outHeight} width={bar} height={outHeight}>
                <title>{`${month.month} ${text.moneyOut} ${formatMoney(month.out, language)}`}</title>
              </rect>
            </g>
          );
        })}
      </svg>
      {/* Month labels as page text: inside the SVG they would shrink with it on a phone. */}
      <ol className="months-labels" aria-hidden="true">
        {months.map((month) => (
          <li key={month.month}>{month.month.slice(5)}</li>
        ))}
      </ol>
      <p className="chart-key">
        <span className="key-in">{text.moneyIn}</span> <span className="key-out">{text.moneyOut}</span>
      </p>
      <details>
        <summary>{text.monthsFigures}</summary>
        <table className="months-table">
          <thead>
            <tr>
              <th scope="col">{text.month}</th>
              <th scope="col">{text.moneyIn}</th>
              <th scope="col">{text.moneyOut}</th>
            </tr>
          </thead>
          <tbody>
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row">{month.month}</th>
                <td>{formatMoney(month.in, language)}</td>
                <td>{formatMoney(month.out, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
