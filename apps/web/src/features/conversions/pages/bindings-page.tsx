import { Button, List, Tag, Toast } from 'antd-mobile';
import { LinkOutline } from 'antd-mobile-icons';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '@/components/data-table';
import { DateTimeText } from '@/components/date-time-text';
import { EmptyState } from '@/components/empty-state';
import { LiveSearch } from '@/components/live-search';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { campaignName } from '@/lib/campaign-name';
import { useDesk } from '@/lib/desk';
import { formatDateTime } from '@/lib/format';
import { Link, navigate, useLocation, useSearchParams } from '@/lib/hash-router';
import { useBindingAction, useBindings, useCampaignChoices, usePromoterName, type Binding, type BindingFilters } from '../api/conversions';
import { CorrectionSheet, PromoterFilter } from '../components/corrections';

const Q_MAX = 128;

/** The filters as the address keeps them (`?customer=&campaignId=&promoterId=&all=1`). */
function useBindingFilters(): [BindingFilters, (patch: Partial<BindingFilters>) => void] {
  const params = useSearchParams();
  const { pathname } = useLocation();
  const filters: BindingFilters = {
    customer: (params.get('customer') ?? '').trim().slice(0, Q_MAX),
    campaignId: params.get('campaignId') || null,
    promoterId: params.get('promoterId') || null,
    active: params.get('all') !== '1',
  };
  const set = useCallback((patch: Partial<BindingFilters>) => {
    const query = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (k === 'active') {
        if (v) query.delete('all');
        else query.set('all', '1');
      } else if (v) query.set(k, String(v));
      else query.delete(k);
    }
    const qs = query.toString();
    navigate(`${pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  }, [params, pathname]);
  return [filters, set];
}

function Filters({ f, set }: { f: BindingFilters; set: (patch: Partial<BindingFilters>) => void }) {
  const { t, i18n } = useTranslation();
  const campaigns = useCampaignChoices();
  const promoterName = usePromoterName(f.promoterId).data ?? null;
  return (
    <div className="corr-filters" role="search" aria-label={t('corrections.filter.label')} data-testid="bindings-filters">
      <div className="corr-filter corr-filter-search">
        <span className="corr-filter-label">{t('corrections.bindings.customer')}</span>
        <LiveSearch q={f.customer} onSearch={(customer) => set({ customer })} label={t('corrections.bindings.customerPlaceholder')} maxLength={Q_MAX} className="corr-search" delay={400} testId="bindings-search" />
      </div>
      <div className="corr-filter">
        <label htmlFor="bind-campaign">{t('corrections.filter.campaign')}</label>
        <select id="bind-campaign" className="corr-input" value={f.campaignId ?? ''} onChange={(e) => set({ campaignId: e.target.value || null })} data-testid="bindings-campaign">
          <option value="">{t('corrections.filter.anyCampaign')}</option>
          {(campaigns.data ?? []).map((c) => <option key={c.id} value={c.id}>{campaignName(c.names, i18n.language)}</option>)}
        </select>
      </div>
      <PromoterFilter id={f.promoterId} name={promoterName} onChange={(p) => set({ promoterId: p?.id ?? null })} testId="bindings-promoter" />
      <label className="corr-filter corr-filter-check">
        <input type="checkbox" checked={!f.active} onChange={(e) => set({ active: !e.target.checked })} data-testid="bindings-ended" />
        {t('corrections.bindings.showEnded')}
      </label>
    </div>
  );
}

/** How long it lasts: for the customer's lifetime, n months, or ended on a date. */
function Term({ b }: { b: Binding }) {
  const { t, i18n } = useTranslation();
  if (b.endedAt !== null) return <Tag color="default" fill="outline" data-testid={`binding-ended-${b.id}`}>{t('corrections.bindings.endedOn', { date: formatDateTime(b.endedAt, i18n.language) })}</Tag>;
  return <span className="corr-nowrap">{b.months === null ? t('corrections.bindings.lifetime') : t('corrections.bindings.months', { count: b.months })}</span>;
}

type Acting = { binding: Binding; action: 'end' | 'move' };

function Actions({ b, onAct }: { b: Binding; onAct: (a: Acting) => void }) {
  const { t } = useTranslation();
  if (b.endedAt !== null) return null;
  return (
    <span className="corr-row-end">
      <Button size="small" color="primary" fill="outline" onClick={() => onAct({ binding: b, action: 'move' })} data-testid={`binding-move-${b.id}`}>{t('corrections.bindings.move')}</Button>
      <Button size="small" color="danger" fill="outline" onClick={() => onAct({ binding: b, action: 'end' })} data-testid={`binding-end-${b.id}`}>{t('corrections.bindings.end')}</Button>
    </span>
  );
}

const promoterLink = (b: Binding) => <Link to={`/admin/promoters/${encodeURIComponent(b.promoterId)}`}>{b.promoterName ?? b.promoterId}</Link>;

/** `/admin/bindings` (staff): customers bound to a promoter on recurring and lifetime campaigns, ended or moved with a reason. */
export default function BindingsPage() {
  const { t, i18n } = useTranslation();
  const desk = useDesk();
  const [f, set] = useBindingFilters();
  const bindings = useBindings(f, i18n.language);
  const act = useBindingAction();
  const [acting, setActing] = useState<Acting | null>(null);
  const items = bindings.data?.pages.flatMap((p) => p.items) ?? [];
  const empty = <EmptyState icon={<LinkOutline />} title={f.customer || f.campaignId || f.promoterId ? t('corrections.filter.noMatch') : t('corrections.bindings.empty')} body={t('corrections.bindings.emptyBody')} />;
  const columns: Column<Binding>[] = [
    { key: 'customer', title: t('corrections.bindings.customer'), sortValue: (b) => b.customerExternalId, render: (b) => <code className="desk-code corr-nowrap">{b.customerExternalId}</code> },
    { key: 'campaign', title: t('console.col.campaign'), sortValue: (b) => b.campaignName, render: (b) => b.campaignName },
    { key: 'promoter', title: t('console.col.promoter'), sortValue: (b) => b.promoterName, render: promoterLink },
    { key: 'startedAt', priority: 'low', title: t('corrections.bindings.since'), sortValue: (b) => b.startedAt, render: (b) => <DateTimeText at={b.startedAt} locale={i18n.language} /> },
    { key: 'term', title: t('corrections.bindings.term'), render: (b) => <Term b={b} /> },
    { key: 'origin', priority: 'low', title: t('corrections.bindings.origin'), render: (b) => <Link to={`/admin/conversions/${encodeURIComponent(b.conversionId)}`}>{t('corrections.bindings.openConversion')}</Link> },
    { key: 'actions', title: <span className="visually-hidden">{t('corrections.bindings.actions')}</span>, align: 'end', render: (b) => <Actions b={b} onAct={setActing} /> },
  ];
  const b = acting?.binding;
  return (
    <div className={`sub-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('corrections.bindings.title')} fallback="/admin/conversions" />
      <p className="hint corr-intro">{t('corrections.bindings.intro')}</p>
      <Filters f={f} set={set} />
      {desk ? (
        bindings.isError ? <PageError error={bindings.error} onRetry={() => bindings.refetch()} /> : (
          <DataTable
            data-testid="bindings"
            caption={t('corrections.bindings.title')}
            rows={items}
            rowKey={(r) => r.id}
            rowTestId={(r) => `binding-row-${r.id}`}
            columns={columns}
            loading={bindings.isPending}
            pagination={bindings}
            empty={empty}
          />
        )
      ) : bindings.isPending ? <PageLoading /> : bindings.isError ? <PageError error={bindings.error} onRetry={() => bindings.refetch()} /> : items.length === 0 ? empty : (
        <>
          <List data-testid="bindings">
            {items.map((r) => (
              <List.Item
                key={r.id}
                data-testid={`binding-row-${r.id}`}
                description={
                  <>
                    <span className="console-line console-strong">{r.campaignName}</span>
                    <span className="console-line">{r.promoterName ?? r.promoterId}</span>
                    <span className="console-line">{t('corrections.bindings.sinceDate', { date: formatDateTime(r.startedAt, i18n.language) })} · <Term b={r} /></span>
                    <span className="corr-actions"><Actions b={r} onAct={setActing} /></span>
                  </>
                }
              >
                <code className="console-code">{r.customerExternalId}</code>
              </List.Item>
            ))}
          </List>
          <LoadMore query={bindings} />
        </>
      )}
      <CorrectionSheet
        id={acting?.action === 'move' ? 'move-binding' : 'end-binding'}
        visible={acting !== null}
        title={acting?.action === 'move' ? t('corrections.bindings.moveTitle') : t('corrections.bindings.endTitle')}
        intro={b ? t(acting?.action === 'move' ? 'corrections.bindings.moveIntro' : 'corrections.bindings.endIntro', { customer: b.customerExternalId, name: b.promoterName ?? b.promoterId }) : ''}
        warning={t('corrections.bindings.earnedStays')}
        action={acting?.action === 'move' ? t('corrections.bindings.moveSubmit') : t('corrections.bindings.endSubmit')}
        danger={acting?.action === 'end'}
        pickPromoter={acting?.action === 'move' ? { campaignId: b?.campaignId, exclude: b?.promoterId } : undefined}
        onClose={() => setActing(null)}
        run={async ({ reason, promoter }) => {
          await act.mutateAsync({ id: b!.id, reason, ...(acting?.action === 'move' ? { promoterId: promoter!.id } : {}) });
          Toast.show({ icon: 'success', content: acting?.action === 'move' ? t('corrections.bindings.moved', { name: promoter!.name }) : t('corrections.bindings.ended') });
        }}
      />
    </div>
  );
}
