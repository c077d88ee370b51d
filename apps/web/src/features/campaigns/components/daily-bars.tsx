import { useTranslation } from 'react-i18next';
import type { LinkStats } from '@pa/shared';
import { formatDay, formatNumber } from '@/lib/format';

/** Per-day clicks as bars (unique clicks as the darker part), then the last days in figures. */
export function DailyBars({ stats }: { stats: LinkStats }) {
  const { t, i18n } = useTranslation();
  const max = Math.max(1, ...stats.days.map((d) => d.clicks));
  const recent = [...stats.days].reverse().slice(0, 7);
  return (
    <>
      <div className="bars" role="img" aria-label={t('links.chartLabel', { from: formatDay(stats.from, i18n.language, 'numeric'), to: formatDay(stats.to, i18n.language, 'numeric') })}>
        {stats.days.map((d) => (
          <div key={d.day} className="bar" title={`${d.day}: ${d.clicks} / ${d.uniqueClicks}`}>
            <div className="bar-total" style={{ height: `${(d.clicks / max) * 100}%` }}>
              <div className="bar-unique" style={{ height: d.clicks ? `${(d.uniqueClicks / d.clicks) * 100}%` : 0 }} />
            </div>
          </div>
        ))}
      </div>
      <div className="bars-axis" aria-hidden>
        <span>{formatDay(stats.from, i18n.language, 'numeric')}</span>
        <span>{formatDay(stats.to, i18n.language, 'numeric')}</span>
      </div>
      <p className="bars-legend"><span className="legend-dot legend-total" /> {t('links.clicks')} <span className="legend-dot legend-unique" /> {t('links.unique')}</p>
      <table className="day-table" data-testid="day-table">
        <caption>{t('links.last7')}</caption>
        <thead>
          <tr><th scope="col">{t('links.day')}</th><th scope="col">{t('links.clicks')}</th><th scope="col">{t('links.unique')}</th></tr>
        </thead>
        <tbody>
          {recent.map((d) => (
            <tr key={d.day} data-testid={`day-${d.day}`}>
              <td>{formatDay(d.day, i18n.language, 'weekday')}</td>
              <td>{formatNumber(d.clicks, i18n.language)}</td>
              <td>{formatNumber(d.uniqueClicks, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
