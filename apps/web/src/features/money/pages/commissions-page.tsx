import { List } from 'antd-mobile';
import { BillOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { CommissionStatus } from '@pa/shared';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { formatDate } from '@/lib/format';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { useCommissions, useWallet, type CommissionFilters } from '../api/wallet';
import { Money } from '../components/money';
import { CommissionStatusTag } from '@/components/commission-status-tag';
import { commissionTitle } from '../lib/describe';
import { LoadMore } from '@/components/load-more';

const STATUSES: (CommissionStatus | 'all')[] = ['all', 'pending', 'approved', 'reversed', 'rejected'];
const PERIODS = ['all', 'month', '30d'] as const;
type Period = (typeof PERIODS)[number];

const localDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function periodRange(period: Period, now = new Date()): Pick<CommissionFilters, 'from' | 'to'> {
  if (period === 'month') return { from: localDay(new Date(now.getFullYear(), now.getMonth(), 1)), to: localDay(now) };
  if (period === '30d') return { from: localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29)), to: localDay(now) };
  return {};
}

export default function CommissionsPage() {
  const { t, i18n } = useTranslation();
  const params = useSearchParams();
  const status = (STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as CommissionStatus | 'all') : 'all';
  const period = (PERIODS as readonly string[]).includes(params.get('period') ?? '') ? (params.get('period') as Period) : 'all';
  const filters: CommissionFilters = { ...(status !== 'all' ? { status } : {}), ...periodRange(period) };
  const list = useCommissions(i18n.language, filters);
  const wallet = useWallet();
  const setFilter = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'all') next.delete(key);
    else next.set(key, value);
    const qs = next.toString();
    navigate(`/commissions${qs ? `?${qs}` : ''}`, { replace: true });
  };
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const currency = wallet.data?.currency;
  return (
    <div className="sub-page">
      <PageNav title={t('commissions.title')} fallback="/wallet" />
      <div className="filter-bar" role="group" aria-label={t('commissions.filterStatus')}>
        {STATUSES.map((s) => (
          <button key={s} type="button" className={`chip${s === status ? ' chip-on' : ''}`} aria-pressed={s === status} onClick={() => setFilter('status', s)} data-testid={`filter-${s}`}>
            {s === 'all' ? t('commissions.all') : t(`commissions.filter.${s}`)}
          </button>
        ))}
      </div>
      <div className="filter-bar" role="group" aria-label={t('commissions.filterPeriod')}>
        {PERIODS.map((p) => (
          <button key={p} type="button" className={`chip${p === period ? ' chip-on' : ''}`} aria-pressed={p === period} onClick={() => setFilter('period', p)} data-testid={`period-${p}`}>
            {t(`commissions.period.${p}`)}
          </button>
        ))}
      </div>
      {list.isPending || !currency ? <PageLoading /> : list.isError ? <PageError error={list.error} onRetry={() => list.refetch()} /> : items.length === 0 ? (
        <EmptyState icon={<BillOutline />} title={t('commissions.emptyTitle')} body={status === 'all' && period === 'all' ? t('commissions.emptyBody') : t('commissions.emptyFiltered')} />
      ) : (
        <>
          <List data-testid="commission-list">
            {items.map((c) => (
              <List.Item
                key={c.id}
                onClick={() => navigate(`/commissions/${encodeURIComponent(c.id)}`)}
                data-testid={`commission-${c.id}`}
                description={<>{commissionTitle(c, t)}{c.sourceName ? ` · ${t('commissions.fromMember', { name: c.sourceName })}` : ''} · <span className="keep-together">{formatDate(c.occurredAt, i18n.language)}</span></>}
                extra={
                  <span className="commission-figures">
                    <Money minor={c.amount - c.reversedAmount} currency={currency} locale={i18n.language} className="commission-amount" />
                    <CommissionStatusTag status={c.status} />
                  </span>
                }
              >
                {/* What was promoted leads; the kind of commission and the date follow. */}
                {c.campaignName}
              </List.Item>
            ))}
          </List>
          <LoadMore query={list} />
        </>
      )}
    </div>
  );
}
