import { Button, DotLoading } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/errors';

export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="page-loading" role="status">
      <DotLoading color="primary" />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}

export function PageError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="page-error" role="alert">
      <p>{errorText(t, error)}</p>
      <Button size="small" onClick={onRetry}>{t('app.retry')}</Button>
    </div>
  );
}
