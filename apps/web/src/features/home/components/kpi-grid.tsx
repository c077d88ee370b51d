import { useTranslation } from 'react-i18next';
import type { StatsFigures } from '@pa/shared';
import { changeOf, formatChange, formatKpi, KPIS, type Change, type Kpi } from '../lib/figures';

function ChangeBadge({ change }: { change: Change }) {
  const { t, i18n } = useTranslation();
  if (change.kind === 'none') return <span className="kpi-change kpi-change-none" data-change="none"><span aria-hidden>–</span><span className="visually-hidden">{t('stats.change.none')}</span></span>;
  if (change.kind === 'new') return <span className="kpi-change kpi-change-new" data-change="new">{t('stats.change.new')}</span>;
  const value = formatChange(change, i18n.language);
  const arrow = change.kind === 'up' ? '▲' : change.kind === 'down' ? '▼' : '';
  return (
    <span className={`kpi-change kpi-change-${change.kind}`} data-change={change.kind}>
      <span aria-hidden>{arrow ? `${arrow} ` : ''}{value}</span>
      <span className="visually-hidden">{t(`stats.change.${change.kind}`, { value })}</span>
    </span>
  );
}

/** The range's figures as tiles, each with its change against the previous period. */
export function KpiGrid({ current, previous, currency }: { current: StatsFigures; previous: StatsFigures; currency: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="kpi-grid" data-testid="kpi-grid">
      {KPIS.map((kpi: Kpi) => (
        <div key={kpi} className={`kpi-tile kpi-${kpi}`} data-testid={`kpi-${kpi}`}>
          <span className="kpi-label">{t(`stats.kpi.${kpi}`)}</span>
          <strong className="kpi-value" data-testid={`kpi-${kpi}-value`}>{formatKpi(kpi, current[kpi], currency, i18n.language)}</strong>
          <ChangeBadge change={changeOf(current[kpi], previous[kpi])} />
        </div>
      ))}
    </div>
  );
}
