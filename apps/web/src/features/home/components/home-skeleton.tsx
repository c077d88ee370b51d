import { Skeleton } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

/** The shape of the figure tiles while the first answer for a range loads. */
export function FiguresSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="home-skeleton" role="status" data-testid="home-skeleton">
      <span className="visually-hidden">{t('app.loading')}</span>
      <div className="kpi-grid">
        {Array.from({ length: 7 }, (_, i) => <Skeleton key={i} animated className={`sk-tile${i === 0 ? ' kpi-earnings' : ''}`} />)}
      </div>
    </div>
  );
}
