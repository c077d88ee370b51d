import { NavBar } from 'antd-mobile';
import { useNavigate } from '../lib/router';
import { useTranslation } from 'react-i18next';

/** The top bar of a sub-page: title and a back arrow (to `fallback` when there is no history). */
export function PageNav({ title, fallback = '/' }: { title: string; fallback?: string }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (
    <NavBar
      className="page-nav"
      backIcon
      back={null}
      backArrow
      onBack={() => (window.history.length > 1 ? navigate(-1) : navigate(fallback))}
      aria-label={t('app.back')}
    >
      <h1 className="page-nav-title">{title}</h1>
    </NavBar>
  );
}
