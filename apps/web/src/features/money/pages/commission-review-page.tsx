import { Button, Dialog, List, Tabs, Toast } from 'antd-mobile';
import { CheckShieldOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { csvFilename, exportList, listPages } from '@/lib/csv-export';
import { commissionCsvColumns } from '../lib/commission-csv';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate, formatMoney, formatPercent } from '@/lib/format';
import { useAdminCommissions, useCommissionBulk, useCommissionDecision, type AdminCommission, type CommissionStatus } from '../api/commission-review';
import { CommissionStatusTag } from '@/components/commission-status-tag';
import { useCurrency } from '@/lib/currency';
import { TextArea } from '@/components/form-field';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';

const STATUSES: CommissionStatus[] = ['pending', 'approved', 'rejected', 'reversed'];
const REASON_MAX = 500;


/** Asks for the reason the promoter will see; one reason for one or many commissions. */
function RejectDialog({ title, onCancel, onConfirm }: { title: string; onCancel: () => void; onConfirm: (reason: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <Dialog
      visible
      title={title}
      onClose={onCancel}
      content={
        <div className={`field console-reject-field${missing ? ' field-invalid' : ''}`}>
          <label htmlFor="reject-reason">{t('moneyAdmin.commissions.reasonLabel')}</label>
          <TextArea
            id="reject-reason"
            data-testid="reject-reason"
            rows={3}
            value={reason}
            maxLength={REASON_MAX}
            placeholder={t('moneyAdmin.commissions.reasonPlaceholder')}
            invalid={missing}
            onChange={(v) => {
              setReason(v);
              if (missing && v.trim()) setMissing(false);
            }}
          />
          {missing ? (
            <p className="field-error" id="reject-reason-msg" data-testid="reject-reason-error">{t('moneyAdmin.commissions.reasonRequired')}</p>
          ) : (
            <p className="field-help" id="reject-reason-msg">{t('moneyAdmin.commissions.reasonHelp')}</p>
          )}
        </div>
      }
      actions={[[
        { key: 'cancel', text: t('app.cancel'), onClick: onCancel },
        {
          key: 'reject',
          text: <span data-testid="reject-confirm">{t('moneyAdmin.commissions.reject')}</span>,
          danger: true,
          bold: true,
          onClick: async () => {
            if (!reason.trim()) {
              setMissing(true);
              return;
            }
            await onConfirm(reason.trim());
          },
        },
      ]]}
    />
  );
}

interface RowProps {
  c: AdminCommission;
  currency: string;
  selectable: boolean;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onApprove: () => void;
  onReject: () => void;
  busy: boolean;
}

function CommissionRow({ c, currency, selectable, selected, onSelect, onApprove, onReject, busy }: RowProps) {
  const { t, i18n } = useTranslation();
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  return (
    <List.Item
      data-testid={`commission-row-${c.id}`}
      className={selected ? 'console-selected' : undefined}
      prefix={selectable ? (
        <label className="console-select">
          <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.target.checked)} aria-label={t('moneyAdmin.commissions.select', { name: c.promoterName })} data-testid={`select-${c.id}`} />
        </label>
      ) : null}
      description={
        <>
          <span className="console-line list-value">{c.promoterAccount}</span>
          <span className="console-line console-strong">{c.campaignName}</span>
          <span className="console-line">
            {t(`conversions.kind.${c.kind}`)} · {t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1')}
            {c.rateBps !== null ? ` · ${t('moneyAdmin.commissions.rate', { rate: formatPercent(c.rateBps, i18n.language), base: money(c.base) })}` : ''}
          </span>
          <span className="console-line">{t('moneyAdmin.commissions.availableFrom', { date: formatDate(c.availableAt, i18n.language) })}</span>
          {c.reason ? <span className="console-line console-reason">{t('moneyAdmin.commissions.reason', { reason: c.reason })}</span> : null}
          {c.status === 'pending' ? (
            <span className="row-actions console-row-actions">
              <Button size="small" color="primary" disabled={busy} onClick={onApprove} data-testid={`approve-commission-${c.id}`}>{t('moneyAdmin.commissions.approve')}</Button>
              <Button size="small" color="danger" fill="outline" disabled={busy} onClick={onReject} data-testid={`reject-commission-${c.id}`}>{t('moneyAdmin.commissions.reject')}</Button>
            </span>
          ) : null}
        </>
      }
      extra={
        <span className="console-amount-col">
          <span className="console-amount">{money(c.amount)}</span>
          {c.reversedAmount > 0 ? <span className="console-reversed">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
          <CommissionStatusTag desk status={c.status} />
        </span>
      }
    >
      <span className="console-row-name">{c.promoterName}</span>
    </List.Item>
  );
}

/** What the reject dialog is for: one commission or every selected one. */
type Rejecting = { ids: string[]; name?: string };

function CommissionQueue({ status }: { status: CommissionStatus }) {
  const { t, i18n } = useTranslation();
  const commissions = useAdminCommissions(status, i18n.language);
  const { currency } = useCurrency();
  const decide = useCommissionDecision();
  const bulk = useCommissionBulk();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rejecting, setRejecting] = useState<Rejecting | null>(null);
  if (commissions.isPending || !currency) return <PageLoading />;
  if (commissions.isError) return <PageError error={commissions.error} onRetry={() => commissions.refetch()} />;
  const items = commissions.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState icon={<CheckShieldOutline />} title={t(`moneyAdmin.commissions.empty.${status}`)} body={t(`moneyAdmin.commissions.emptyBody.${status}`)} />;

  const selectable = status === 'pending';
  // Only what is still listed counts (a refresh may have moved some out of this tab).
  const chosen = selectable ? items.filter((c) => selected.has(c.id)).map((c) => c.id) : [];
  const allChosen = chosen.length === items.length;
  const busy = decide.isPending || bulk.isPending;
  const select = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const approveOne = async (c: AdminCommission) => {
    try {
      await decide.mutateAsync({ id: c.id, action: 'approve' });
      select(c.id, false);
      Toast.show({ icon: 'success', content: t('moneyAdmin.commissions.approved', { name: c.promoterName }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const runBulk = async (ids: string[], action: 'approve' | 'reject', reason?: string) => {
    try {
      const { changed, skipped } = await bulk.mutateAsync({ ids, action, reason });
      setSelected(new Set());
      const done = t(`moneyAdmin.commissions.bulkDone.${action}`, { changed: String(changed.length) });
      Toast.show({ icon: skipped.length ? undefined : 'success', content: skipped.length ? t('moneyAdmin.commissions.bulkSkipped', { done, skipped: String(skipped.length) }) : done });
      return true;
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
      return false;
    }
  };

  const reject = async (target: Rejecting, reason: string) => {
    if (target.name !== undefined) {
      try {
        await decide.mutateAsync({ id: target.ids[0]!, action: 'reject', reason });
        select(target.ids[0]!, false);
        Toast.show({ icon: 'success', content: t('moneyAdmin.commissions.rejected', { name: target.name }) });
      } catch (error) {
        Toast.show({ content: errorText(t, error) });
      }
    } else {
      await runBulk(target.ids, 'reject', reason);
    }
    setRejecting(null);
  };

  return (
    <>
      {selectable ? (
        <label className="check-row console-select-all">
          <input type="checkbox" checked={allChosen} onChange={(e) => setSelected(new Set(e.target.checked ? items.map((c) => c.id) : []))} data-testid="select-all" />
          <span>{t('moneyAdmin.commissions.selectAll', { n: String(items.length) })}</span>
        </label>
      ) : null}
      <List data-testid={`commissions-${status}`}>
        {items.map((c) => (
          <CommissionRow
            key={c.id}
            c={c}
            currency={currency}
            selectable={selectable}
            selected={selected.has(c.id)}
            onSelect={(on) => select(c.id, on)}
            onApprove={() => void approveOne(c)}
            onReject={() => setRejecting({ ids: [c.id], name: c.promoterName })}
            busy={busy}
          />
        ))}
      </List>
      <LoadMore query={commissions} />
      {chosen.length > 0 ? (
        <>
          <div className="console-bulk-spacer" aria-hidden />
          <div className="console-bulk-bar" data-testid="bulk-bar">
            <span className="console-bulk-count">{t('moneyAdmin.commissions.selected', { n: String(chosen.length) })}</span>
            <div className="console-bulk-actions">
              <Button size="small" color="danger" fill="outline" disabled={busy} onClick={() => setRejecting({ ids: chosen })} data-testid="bulk-reject">
                {t('moneyAdmin.commissions.rejectN', { n: String(chosen.length) })}
              </Button>
              <Button size="small" color="primary" loading={bulk.isPending} disabled={busy} onClick={() => void runBulk(chosen, 'approve')} data-testid="bulk-approve">
                {t('moneyAdmin.commissions.approveN', { n: String(chosen.length) })}
              </Button>
            </div>
          </div>
        </>
      ) : null}
      {rejecting ? (
        <RejectDialog
          title={rejecting.name !== undefined ? t('moneyAdmin.commissions.rejectTitle', { name: rejecting.name }) : t('moneyAdmin.commissions.rejectTitleN', { n: String(rejecting.ids.length) })}
          onCancel={() => setRejecting(null)}
          onConfirm={(reason) => reject(rejecting, reason)}
        />
      ) : null}
    </>
  );
}

/** At desk: the review queue as a table; pending rows selectable to approve or reject many in one call. */
function CommissionsDesk({ status, onStatus }: { status: CommissionStatus; onStatus: (s: CommissionStatus) => void }) {
  const { t, i18n } = useTranslation();
  const commissions = useAdminCommissions(status, i18n.language);
  const { currency } = useCurrency();
  const decide = useCommissionDecision();
  const bulk = useCommissionBulk();
  const [selected, setSelected] = useState<string[]>([]);
  const [rejecting, setRejecting] = useState<Rejecting | null>(null);
  const pending = status === 'pending';
  const busy = decide.isPending || bulk.isPending;
  const money = (minor: number) => (currency ? formatMoney(minor, currency, i18n.language) : '');
  const level = (c: AdminCommission) => t(c.level === 2 ? 'moneyAdmin.commissions.level2' : 'moneyAdmin.commissions.level1');

  const approveOne = async (c: AdminCommission) => {
    try {
      await decide.mutateAsync({ id: c.id, action: 'approve' });
      setSelected((keys) => keys.filter((k) => k !== c.id));
      Toast.show({ icon: 'success', content: t('moneyAdmin.commissions.approved', { name: c.promoterName }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const runBulk = async (ids: string[], action: 'approve' | 'reject', reason?: string) => {
    try {
      const { changed, skipped } = await bulk.mutateAsync({ ids, action, reason });
      setSelected([]);
      const done = t(`moneyAdmin.commissions.bulkDone.${action}`, { changed: String(changed.length) });
      Toast.show({ icon: skipped.length ? undefined : 'success', content: skipped.length ? t('moneyAdmin.commissions.bulkSkipped', { done, skipped: String(skipped.length) }) : done });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const reject = async (target: Rejecting, reason: string) => {
    if (target.name !== undefined) {
      try {
        await decide.mutateAsync({ id: target.ids[0]!, action: 'reject', reason });
        setSelected((keys) => keys.filter((k) => k !== target.ids[0]));
        Toast.show({ icon: 'success', content: t('moneyAdmin.commissions.rejected', { name: target.name }) });
      } catch (error) {
        Toast.show({ content: errorText(t, error) });
      }
    } else {
      await runBulk(target.ids, 'reject', reason);
    }
    setRejecting(null);
  };

  const columns: Column<AdminCommission>[] = [
    // Kind and rate sit under the campaign and the amount they explain: two columns fewer, so the
    // review buttons stay in sight at 1024 px in every language.
    { key: 'promoter', title: t('console.col.promoter'), sortValue: (c) => c.promoterName, render: (c) => <><span className="data-table-strong">{c.promoterName}</span><AccountText account={c.promoterAccount} className="data-table-sub" /></> },
    { key: 'campaign', title: t('console.col.campaign'), sortValue: (c) => c.campaignName, render: (c) => <>{c.campaignName}<span className="data-table-sub">{t(`conversions.kind.${c.kind}`)} · {level(c)}</span></> },
    {
      key: 'amount', title: t('console.col.amount'), align: 'end', sortValue: (c) => c.amount,
      render: (c) => (
        <>
          <span className="data-table-num data-table-strong">{money(c.amount)}</span>
          {c.rateBps !== null ? <span className="data-table-sub">{t('moneyAdmin.commissions.rate', { rate: formatPercent(c.rateBps, i18n.language), base: money(c.base) })}</span> : null}
          {c.reversedAmount > 0 ? <span className="data-table-sub console-reversed">{t('moneyAdmin.commissions.reversedAmount', { amount: money(c.reversedAmount) })}</span> : null}
        </>
      ),
    },
    { key: 'availableAt', title: t('console.col.availableAt'), sortValue: (c) => c.availableAt, render: (c) => <span className="data-table-nowrap">{formatDate(c.availableAt, i18n.language)}</span> },
    ...(pending ? [] : [{ key: 'status', title: t('console.col.status'), render: (c: AdminCommission) => <CommissionStatusTag desk status={c.status} /> }]),
    ...(status === 'rejected' || status === 'reversed' ? [{ key: 'reason', title: t('console.col.reason'), sortValue: (c: AdminCommission) => c.reason, render: (c: AdminCommission) => (c.reason ? <span className="desk-clip console-reason">{c.reason}</span> : null) }] : []),
    ...(pending ? [{
      key: 'actions',
      title: <span className="visually-hidden">{t('console.col.actions')}</span>,
      align: 'end' as const,
      render: (c: AdminCommission) => (
        <span className="data-table-actions">
          <Button size="small" color="primary" disabled={busy} onClick={() => void approveOne(c)} data-testid={`approve-commission-${c.id}`}>{t('moneyAdmin.commissions.approve')}</Button>
          <Button size="small" color="danger" fill="outline" disabled={busy} onClick={() => setRejecting({ ids: [c.id], name: c.promoterName })} data-testid={`reject-commission-${c.id}`}>{t('moneyAdmin.commissions.reject')}</Button>
        </span>
      ),
    }] : []),
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminCommission>({
    filename: csvFilename(`commissions-${status}`),
    fetchPage: listPages('admin/commissions', { status }),
    onProgress,
    ...commissionCsvColumns(t, currency ?? 'XXX'),
  });

  if (commissions.isError) return <PageError error={commissions.error} onRetry={() => commissions.refetch()} />;
  const items = commissions.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <DataTable
        data-testid={`commissions-${status}`}
        caption={t('console.nav.commissions')}
        rows={items}
        rowKey={(c) => c.id}
        rowTestId={(c) => `commission-row-${c.id}`}
        rowLabel={(c) => c.promoterName}
        columns={columns}
        loading={commissions.isPending || !currency}
        pagination={commissions}
        empty={<EmptyState icon={<CheckShieldOutline />} title={t(`moneyAdmin.commissions.empty.${status}`)} body={t(`moneyAdmin.commissions.emptyBody.${status}`)} />}
        selected={pending ? selected : undefined}
        onSelectedChange={pending ? setSelected : undefined}
        bulkActions={(ids) => (
          <>
            <Button size="small" color="primary" loading={bulk.isPending} disabled={busy} onClick={() => void runBulk(ids, 'approve')} data-testid="bulk-approve">{t('moneyAdmin.commissions.approveN', { n: String(ids.length) })}</Button>
            <Button size="small" color="danger" fill="outline" disabled={busy} onClick={() => setRejecting({ ids })} data-testid="bulk-reject">{t('moneyAdmin.commissions.rejectN', { n: String(ids.length) })}</Button>
          </>
        )}
        toolbar={
          <DeskToolbar
            filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={onStatus} options={STATUSES.map((s) => ({ value: s, label: t(`commissions.filter.${s}`) }))} testId="commissions-filter" />}
            actions={<ExportButton run={exportCsv} />}
          />
        }
      />
      {rejecting ? (
        <RejectDialog
          title={rejecting.name !== undefined ? t('moneyAdmin.commissions.rejectTitle', { name: rejecting.name }) : t('moneyAdmin.commissions.rejectTitleN', { n: String(rejecting.ids.length) })}
          onCancel={() => setRejecting(null)}
          onConfirm={(reason) => reject(rejecting, reason)}
        />
      ) : null}
    </>
  );
}

/** `/admin/commissions` (staff): the review queue, one by one or in bulk. */
export default function CommissionsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [status, setStatus] = useUrlFilter<CommissionStatus>('status', STATUSES, 'pending');
  return (
    <div className={`sub-page${desk ? ' desk-page' : ' console-queue-page'}`}>
      <PageNav title={t('console.nav.commissions')} fallback="/me" />
      {desk ? <CommissionsDesk key={status} status={status} onStatus={setStatus} /> : (
        <>
          <Tabs activeKey={status} onChange={(key) => setStatus(key as CommissionStatus)}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`commission-tab-${s}`}>{t(`commissions.filter.${s}`)}</span>} />)}
          </Tabs>
          <CommissionQueue key={status} status={status} />
        </>
      )}
    </div>
  );
}
