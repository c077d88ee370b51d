/**
 * The overview's trend: one bar per day of the period for the figure picked, as plain SVG drawn at
 * the box's real width (text stays its size from a phone to a desk), with the scales of Home's
 * chart (features/home/lib/chart-scale.ts). Tapping or hovering a day shows its value; the same
 * values are in a visually hidden table for screen readers.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminOverview } from '@pa/shared';
import { formatDay, formatMoney, formatNumber, minorUnitDigits, numberFormat, withCurrencyMark } from '@/lib/format';
import { axisTicks, barLayout } from '@/lib/chart-scale';
import { evenLabels, isMoneyMetric, type TrendMetric } from '../lib/overview';

const PLOT_TOP = 8;
const PLOT_HEIGHT = 160;
const AXIS_HEIGHT = 22;
/** Room for the value axis' labels on the start side. */
const GUTTER = 56;

/** Axis money: whole amounts without decimals, large ones compact ("CN¥12K", "CN¥1.2万"). */
function axisMoney(minor: number, currency: string, locale: string) {
  const unit = 10 ** minorUnitDigits(currency);
  if (minor % unit !== 0) return formatMoney(minor, currency, locale);
  const major = minor / unit;
  return withCurrencyMark(numberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0, notation: major >= 10_000 ? 'compact' : 'standard' }), major, currency);
}

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export function OverviewTrend({ trend, metric, metricName, currency }: { trend: AdminOverview['trend']; metric: TrendMetric; metricName: string; currency: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [ref, boxWidth] = useWidth();
  const [picked, setPicked] = useState<number | null>(null);
  const money = isMoneyMetric(metric);
  const values = trend.map((d) => d[metric]);
  const empty = values.every((v) => v <= 0);
  const ticks = empty ? [0] : axisTicks(Math.max(0, ...values), 4);
  const top = ticks[ticks.length - 1]!;
  const format = (v: number) => (money ? formatMoney(v, currency, locale) : formatNumber(v, locale));
  const tickText = (v: number) => (money ? axisMoney(v, currency, locale) : formatNumber(v, locale));
  const first = trend[0];
  const last = trend[trend.length - 1];
  const selected = picked !== null && picked < trend.length ? picked : trend.length - 1;
  const day = trend[selected];
  const plotWidth = Math.max(0, boxWidth - GUTTER);
  const bars = barLayout(values, plotWidth, PLOT_HEIGHT, top);
  const slot = trend.length > 0 ? plotWidth / trend.length : 0;
  const labels = evenLabels(trend.length, plotWidth);

  return (
    <div className="overview-trend" data-testid="overview-trend" data-metric={metric}>
      {empty || !day ? null : (
        <p className="overview-trend-picked" aria-live="polite">
          <span>{formatDay(day.day, locale, 'weekday')}</span> <strong>{format(day[metric])}</strong>
        </p>
      )}
      {/* The box stays mounted (it measures the width); with nothing to draw it holds a short note instead of an empty plot. */}
      <div ref={ref} className={`overview-trend-box${empty || !day ? ' is-empty' : ''}`}>
        {empty || !day ? (
          <>
            <p className="overview-trend-none" data-testid="overview-trend-empty">{t('overview.trend.empty')}</p>
            <p className="overview-trend-none-hint">{t('overview.trend.emptyHint')}</p>
          </>
        ) : boxWidth > 0 && first && last ? (
          <svg
            width={boxWidth}
            height={PLOT_TOP + PLOT_HEIGHT + AXIS_HEIGHT}
            role="img"
            aria-label={t('stats.chartLabel', { metric: metricName, from: formatDay(first.day, locale, 'weekday'), to: formatDay(last.day, locale, 'weekday') })}
            onMouseLeave={() => setPicked(null)}
          >
            <g transform={`translate(0 ${PLOT_TOP})`}>
              {ticks.map((v) => {
                const y = PLOT_HEIGHT - (top > 0 ? (v / top) * PLOT_HEIGHT : 0);
                return (
                  <g key={v}>
                    <line x1={GUTTER} x2={boxWidth} y1={y} y2={y} className="overview-trend-grid" />
                    {empty ? null : <text x={GUTTER - 8} y={y + 4} textAnchor="end" className="overview-trend-tick">{tickText(v)}</text>}
                  </g>
                );
              })}
              <g transform={`translate(${GUTTER} 0)`}>
                {bars.map((b, i) => (
                  <rect key={trend[i]!.day} x={b.x} y={b.y} width={b.width} height={b.height} rx={Math.min(3, b.width / 3)} className={`overview-trend-bar${i === selected ? ' is-picked' : ''}`} />
                ))}
                {trend.map((d, i) => (
                  <rect key={`hit${d.day}`} x={i * slot} y={0} width={slot} height={PLOT_HEIGHT + AXIS_HEIGHT} className="overview-trend-hit" onClick={() => setPicked(i)} onMouseEnter={() => setPicked(i)} />
                ))}
              </g>
            </g>
            <g transform={`translate(${GUTTER} ${PLOT_TOP + PLOT_HEIGHT + 16})`} aria-hidden>
              {labels.map((i) => {
                // The first and last days hug the plot's edges when their bars are too thin to centre on.
                const edges = slot < 36;
                const anchor = edges && i === 0 ? 'start' : edges && i === trend.length - 1 ? 'end' : 'middle';
                const x = anchor === 'start' ? i * slot : anchor === 'end' ? (i + 1) * slot : i * slot + slot / 2;
                return <text key={trend[i]!.day} x={x} textAnchor={anchor} className="overview-trend-axis">{formatDay(trend[i]!.day, locale, 'numeric')}</text>;
              })}
            </g>
          </svg>
        ) : null}
      </div>
      <table className="visually-hidden">
        <caption>{metricName}</caption>
        <tbody>
          {trend.map((d) => <tr key={d.day}><th scope="row">{formatDay(d.day, locale, 'weekday')}</th><td>{format(d[metric])}</td></tr>)}
        </tbody>
      </table>
    </div>
  );
}
