import { Button } from 'antd-mobile';
import { CheckCircleOutline, ExclamationCircleOutline } from 'antd-mobile-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedgerCheck } from '@pa/shared';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { api } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';

/** Runs the ledger check (the same as `npm run ledger:check`) and shows the verdict and any breach. */
export default function LedgerCheckPage() {
  const { t, i18n } = useTranslation();
  const check = useQuery({
    queryKey: ['admin', 'ledger-check'] as const,
    queryFn: ({ signal }) => api<LedgerCheck>('GET', 'admin/ledger/check', undefined, { signal }),
    staleTime: 0,
  });
  return (
    <div className="sub-page">
      <PageNav title={t('moneyAdmin.ledgerCheck.title')} fallback="/me" />
      {check.isPending ? <PageLoading /> : check.isError ? <PageError error={check.error} onRetry={() => check.refetch()} /> : (
        <section className="card console-ledger-check" data-testid="ledger-check">
          {check.data.ok ? (
            <p className="console-ledger-ok"><CheckCircleOutline aria-hidden /> {t('moneyAdmin.ledgerCheck.ok')}</p>
          ) : (
            <>
              <p className="console-ledger-bad"><ExclamationCircleOutline aria-hidden /> {t('moneyAdmin.ledgerCheck.bad', { count: check.data.breaches.length })}</p>
              <ul className="console-breaches">
                {check.data.breaches.map((b) => <li key={`${b.kind}-${b.ref}`}><code>{b.kind}</code> {b.ref}: {b.detail}</li>)}
              </ul>
            </>
          )}
          <p className="hint">{t('moneyAdmin.ledgerCheck.what')}</p>
          <p className="hint">{t('moneyAdmin.ledgerCheck.checkedAt', { time: formatDateTime(check.dataUpdatedAt, i18n.language) })}</p>
          <Button block onClick={() => void check.refetch()} loading={check.isFetching} data-testid="ledger-recheck">{t('moneyAdmin.ledgerCheck.again')}</Button>
        </section>
      )}
    </div>
  );
}
