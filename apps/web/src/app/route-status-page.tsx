/**
 * What an address shows when it leads to no page, or to a page the reader's role cannot open
 * (staff pages for a promoter, admin pages for an operator): said plainly, with a way back,
 * rather than quietly showing Home as if the link had worked. Loaded on demand (app/routes.tsx,
 * app/guards/require-role.tsx): sign-in does not need it.
 */
import { Button } from 'antd-mobile';
import { LockOutline, QuestionCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { navigate, useLocation } from '../lib/hash-router';

function RouteStatusPage({ kind }: { kind: 'not-found' | 'not-allowed' }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const notFound = kind === 'not-found';
  return (
    <main className="route-status" data-testid={kind}>
      <div className="route-status-icon" aria-hidden>{notFound ? <QuestionCircleOutline /> : <LockOutline />}</div>
      <h1>{t(notFound ? 'app.notFoundTitle' : 'app.notAllowedTitle')}</h1>
      <p>{t(notFound ? 'app.notFoundBody' : 'app.notAllowedBody', { path: `#${pathname}` })}</p>
      <Button block color="primary" size="large" onClick={() => navigate('/')} data-testid="route-status-home">{t('app.backHome')}</Button>
    </main>
  );
}

export const NotFoundPage = () => <RouteStatusPage kind="not-found" />;
export const NotAllowedPage = () => <RouteStatusPage kind="not-allowed" />;
