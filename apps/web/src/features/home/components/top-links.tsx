import { useTranslation } from 'react-i18next';
import type { StatsOverview } from '@pa/shared';
import { formatMoney, formatNumber } from '@/lib/format';
import { Link } from '@/lib/hash-router';

/** The range's best links (by earnings, then clicks); each opens the link's page. */
export function TopLinks({ links, currency }: { links: StatsOverview['topLinks']; currency: string }) {
  const { t, i18n } = useTranslation();
  const clicks = (n: number) => formatNumber(n, i18n.language);
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  if (links.length === 0) return <p className="hint" data-testid="top-links-empty">{t('stats.topLinksEmpty')}</p>;
  return (
    <>
      <div className="top-links-head" aria-hidden>
        <span>{t('stats.link')}</span>
        <span>{t('stats.kpi.clicks')}</span>
        <span>{t('stats.kpi.earnings')}</span>
      </div>
      <ol className="top-links" data-testid="top-links">
        {links.map((l) => (
          <li key={l.key}>
            <Link to={`/links/${encodeURIComponent(l.key)}`} className="top-link" data-testid={`top-link-${l.key}`}>
              <span className="top-link-name">
                <span className="top-link-code">{l.code}{l.label ? <span className="top-link-label"> · {l.label}</span> : null}</span>
                <span className="top-link-campaign">{l.name}</span>
              </span>
              <span className="top-link-clicks" aria-label={t('stats.valueLabel', { name: t('stats.kpi.clicks'), value: clicks(l.figures.clicks) })}>{clicks(l.figures.clicks)}</span>
              <span className="top-link-earnings" aria-label={t('stats.valueLabel', { name: t('stats.kpi.earnings'), value: money(l.figures.earnings) })}>{money(l.figures.earnings)}</span>
            </Link>
          </li>
        ))}
      </ol>
    </>
  );
}
