import type { Overview } from "#contract/ops-overview";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";

const width = 600;
const height = 160;

/**
 * Money moved per day as plain SVG bars (no chart library: thirty bars need none). The
 * picture has a text alternative; the table beside it gives the figures by kind.
 */
export function VolumeChart({ volume }: { volume: Overview["dailyVolume"] }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const byDay = new Map<string, number>();
  for (const row of volume) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.amount);
  const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b));
  const highest = Math.max(1, ...days.map(([, amount]) => amount));
  const total = days.reduce((sum, [, amount]) => sum + amount, 0);
  const slot = width / 30;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className="ops-chart"
      role="img"
      aria-label={text.volumeChart(days.length, formatMoney(total, language))}
      data-testid="ops-volume-chart"
    >
      {days.map(([day, amount], index) => {
        const barHeight = Math.max(2, Math.round((amount / highest) * (height - 10)));
        return (
          <rect key={day} x={(30 - days.length + index) * slot + 2} y={height - barHeight} width={slot - 4} height={barHeight} rx={2}>
            <title>{`${day}: ${formatMoney(amount, language)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
