/**
 * The trend chart: one figure per day as bars, drawn as plain SVG (no chart library). Part of
 * Home's file (a few KB): as a file of its own it was only asked for once Home had rendered, one
 * more round trip before the chart showed. Tapping a day shows its value; the same values are in
 * a visually hidden table for screen readers.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatsOverview } from '@pa/shared';
import { formatDay, formatMoney, formatNumber, minorUnitDigits, numberFormat, withCurrencyMark } from '@/lib/format';
import { axisTicks, barLayout, labelIndexes } from '@/lib/chart-scale';

export type TrendMetric = 'earnings' | 'clicks';

const WIDTH = 320;
const PLOT_TOP = 8;
const PLOT_HEIGHT = 128;
const AXIS_HEIGHT = 20;

/** Axis money: whole amounts without decimals ("CN¥30"), large ones compact ("CN¥12K", "CN¥1.2万"). */
function axisMoney(minor: number, currency: string, locale: string) {
  const unit = 10 ** minorUnitDigits(currency);
  if (minor % unit !== 0) return formatMoney(minor, currency, locale);
  const major = minor / unit; // exact: a whole number of major units
  return withCurrencyMark(numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0, notation: major >= 10_000 ? 'compact' : 'standard' }), major, currency);
}

export default function TrendChart({ series, metric, currency }: { series: StatsOverview['series']; metric: TrendMetric; currency: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [picked, setPicked] = useState<number | null>(null);
  const selected = picked !== null && picked < series.length ? picked : series.length - 1;
  const values = series.map((d) => d[metric]);
  // Nothing to draw: no value axis (a "CN¥0.01" scale over empty days says nothing), a line that says so.
  const empty = values.every((v) => v <= 0);
  const ticks = empty ? [0] : axisTicks(Math.max(0, ...values));
  const top = ticks[ticks.length - 1]!;
  const bars = barLayout(values, WIDTH, PLOT_HEIGHT, top);
  const labels = labelIndexes(series.length, series.length <= 7 ? 7 : 5);
  const format = (v: number) => (metric === 'earnings' ? formatMoney(v, currency, locale) : formatNumber(v, locale));
  const tickText = (v: number) => (metric === 'earnings' ? axisMoney(v, currency, locale) : formatNumber(v, locale));
  const metricName = t(metric === 'earnings' ? 'stats.kpi.earnings' : 'stats.kpi.clicks');
  const first = series[0];
  const last = series[series.length - 1];
  if (!first || !last) return null;
  const slot = WIDTH / series.length;
  const day = series[selected]!;

  return (
    <div className="trend-chart" data-testid="trend-chart" data-metric={metric}>
      {empty ? <p className="trend-chart-picked trend-chart-empty" data-testid="trend-empty">{t('stats.chartEmpty')}</p> : (
        <p className="trend-chart-picked" aria-live="polite" data-testid="trend-picked">
          <span>{formatDay(day.day, locale, 'weekday')}</span> <strong>{format(day[metric])}</strong>
        </p>
      )}
      <svg
        viewBox={`0 0 ${WIDTH} ${PLOT_TOP + PLOT_HEIGHT + AXIS_HEIGHT}`}
        width="100%"
        role="img"
        aria-label={t('stats.chartLabel', { metric: metricName, from: formatDay(first.day, locale, 'weekday'), to: formatDay(last.day, locale, 'weekday') })}
      >
        <g transform={`translate(0 ${PLOT_TOP})`}>
          {ticks.map((v) => {
            const y = PLOT_HEIGHT - (top > 0 ? (v / top) * PLOT_HEIGHT : 0);
            return <line key={`g${v}`} x1={0} x2={WIDTH} y1={y} y2={y} className="trend-grid" />;
          })}
          {bars.map((b, i) => (
            <rect key={series[i]!.day} x={b.x} y={b.y} width={b.width} height={b.height} rx={Math.min(3, b.width / 3)} className={`trend-bar trend-bar-${metric}${i === selected ? ' is-picked' : ''}`} />
          ))}
          {ticks.slice(1).map((v) => {
            const y = PLOT_HEIGHT - (v / top) * PLOT_HEIGHT;
            return <text key={`t${v}`} x={2} y={y + 12} className="trend-tick">{tickText(v)}</text>;
          })}
          {series.map((d, i) => (
            // Transparent full-height targets: a thin bar is still easy to tap.
            <rect key={`hit${d.day}`} x={i * slot} y={0} width={slot} height={PLOT_HEIGHT + AXIS_HEIGHT} className="trend-hit" onClick={() => setPicked(i)} />
          ))}
        </g>
        <g transform={`translate(0 ${PLOT_TOP + PLOT_HEIGHT + 14})`} aria-hidden>
          {labels.map((i) => {
            // On a long series the first and last labels hug the edges instead of centring on their bar.
            const edges = labels.length > 1 && series.length > 7;
            const anchor = edges && i === labels[0] ? 'start' : edges && i === labels[labels.length - 1] ? 'end' : 'middle';
            const x = anchor === 'start' ? i * slot : anchor === 'end' ? (i + 1) * slot : i * slot + slot / 2;
            return <text key={series[i]!.day} x={x} textAnchor={anchor} className="trend-axis">{formatDay(series[i]!.day, locale, 'numeric')}</text>;
          })}
        </g>
      </svg>
      <table className="visually-hidden">
        <caption>{metricName}</caption>
        <tbody>
          {series.map((d) => <tr key={d.day}><th scope="row">{formatDay(d.day, locale, 'weekday')}</th><td>{format(d[metric])}</td></tr>)}
        </tbody>
      </table>
    </div>
  );
}
