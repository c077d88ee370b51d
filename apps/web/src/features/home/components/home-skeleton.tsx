import { useTranslation } from 'react-i18next';

/**
 * A grey placeholder block, animated as antd-mobile's Skeleton (same look and the same --width,
 * --height and --border-radius variables), without another file to load before Home shows.
 */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`home-sk${className ? ` ${className}` : ''}`} aria-hidden />;
}

/** The shape of the figure tiles while the first answer for a range loads. */
export function FiguresSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="home-skeleton" role="status" data-testid="home-skeleton">
      <span className="visually-hidden">{t('app.loading')}</span>
      <div className="kpi-grid">
        {Array.from({ length: 7 }, (_, i) => <Skeleton key={i} className={`skeleton-tile${i === 0 ? ' kpi-earnings' : ''}`} />)}
      </div>
    </div>
  );
}
