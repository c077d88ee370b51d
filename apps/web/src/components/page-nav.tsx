import { LeftOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { navigate } from '../lib/hash-router';

/** The top bar of a sub-page: a back button (to `fallback` when there is no history) and the title. */
export function PageNav({ title, fallback = '/' }: { title: string; fallback?: string }) {
  const { t } = useTranslation();
  return (
    <header className="page-nav">
      <button type="button" className="page-nav-back" aria-label={t('app.back')} data-testid="nav-back" onClick={() => (window.history.length > 1 ? navigate(-1) : navigate(fallback))}>
        <LeftOutline aria-hidden />
      </button>
      <h1 className="page-nav-title">{title}</h1>
      <span className="page-nav-spacer" aria-hidden />
    </header>
  );
}
