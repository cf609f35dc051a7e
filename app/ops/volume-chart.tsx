import type { Overview } from "#contract/ops-overview";
import { formatMoney } from "../i18n/format";
import { useLanguage, useMessages } from "../i18n/messages";
import { opsMessages } from "../messages/ops";
import { volumeByDay } from "./volume-days";

const width = 620;
const height = 160;

/**
 * Money moved per day as plain SVG bars (no chart library: thirty bars need none), each over
 * its own date. The picture has a text alternative; the table beside it gives the figures
 * by kind.
 */
export function VolumeChart({ volume }: { volume: Overview["dailyVolume"] }) {
  const text = useMessages(opsMessages);
  const language = useLanguage();
  const days = volumeByDay(volume, Date.now());
  const highest = Math.max(1, ...days.map(({ amount }) => amount));
  // Said of every row the origin sent, as the table by kind beside it sums them.
  const total = volume.reduce((sum, { amount }) => sum + amount, 0);
  const moving = new Set(volume.map(({ day }) => day)).size;
  const slot = width / days.length;
  return (
    <>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="ops-chart"
        role="img"
        aria-label={text.volumeChart(moving, formatMoney(total, language))}
        data-testid="ops-volume-chart"
      >
        <line className="ops-chart-base" x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} />
        {days.map(({ day, amount }, index) => {
          if (amount === 0) return null;
          const barHeight = Math.max(2, Math.round((amount / highest) * (height - 10)));
          return (
            <rect key={day} data-day={day} x={index * slot + 2} y={height - barHeight} width={slot - 4} height={barHeight} rx={2}>
              <title>{`${day}: ${formatMoney(amount, language)}`}</title>
            </rect>
          );
        })}
      </svg>
      {/* The window's ends as page text: inside the SVG they would shrink with it on a phone. */}
      <p className="ops-chart-ends" aria-hidden="true">
        <span>{days[0]?.day.slice(5)}</span>
        <span>{days.at(-1)?.day.slice(5)}</span>
      </p>
    </>
  );
}
