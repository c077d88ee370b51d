import { Button, Dialog, List, Tabs, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { AccountText } from '@/components/account-text';
import { DataTable, type Column } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { csvId } from '@pa/shared/csv';
import { csvFilename, csvTime, exportList, listPages } from '@/lib/csv-export';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useEnrollmentAction, useEnrollments, useSetCoupon, type AdminEnrollment, type EnrollmentAction, type EnrollmentStatus } from '../api/enrollments';
import { LoadMore } from '@/components/load-more';
import { DeskToolbar, ExportButton, StatusFilter, useApproveRejectBulk } from '@/components/desk-toolbar';
import { useUrlFilter } from '@/lib/url-filter';

const STATUSES: EnrollmentStatus[] = ['pending', 'approved', 'rejected'];

/** Approve or reject one (rejecting asks first), and the coupon dialog: shared by the phone list and the desk table. */
function useEnrollmentActions() {
  const { t } = useTranslation();
  const act = useEnrollmentAction();
  const setCoupon = useSetCoupon();

  const run = async (e: AdminEnrollment, action: EnrollmentAction) => {
    const values = { name: e.promoterName, campaign: e.campaignName };
    if (action === 'reject' && !(await Dialog.confirm({ content: t('campaignAdmin.enrollments.confirmReject', values), confirmText: t('campaignAdmin.enrollments.reject'), cancelText: t('app.cancel') }))) return;
    try {
      await act.mutateAsync({ id: e.id, action });
      Toast.show({ icon: 'success', content: t(`campaignAdmin.enrollments.done.${action}`, values) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  /** Asks for the code in a dialog; empty removes it. Server errors (taken, invalid) come back as toasts. */
  const editCoupon = async (e: AdminEnrollment) => {
    let value = e.couponCode ?? '';
    const confirmed = await Dialog.confirm({
      title: t('campaignAdmin.enrollments.couponTitle', { name: e.promoterName }),
      content: (
        <div className="field">
          <input className="text-input" defaultValue={value} maxLength={32} autoCapitalize="characters" aria-label={t('campaignAdmin.enrollments.coupon')} onChange={(ev) => { value = ev.target.value; }} data-testid="coupon-input" />
          <p className="field-help">{t('campaignAdmin.enrollments.couponHelp')}</p>
        </div>
      ),
      confirmText: t('app.save'),
      cancelText: t('app.cancel'),
    });
    if (!confirmed) return;
    try {
      await setCoupon.mutateAsync({ id: e.id, couponCode: value.trim() ? value.trim() : null });
      Toast.show({ icon: 'success', content: t('app.saved') });
    } catch (error) {
      const taken = error instanceof ApiError && error.fields.couponCode === 'taken';
      Toast.show({ content: taken ? t('campaignAdmin.enrollments.couponTaken') : errorText(t, error) });
    }
  };

  return { run, editCoupon, act };
}

function EnrollmentList({ status }: { status: EnrollmentStatus }) {
  const { t, i18n } = useTranslation();
  const enrollments = useEnrollments(status, i18n.language);
  const { run, editCoupon } = useEnrollmentActions();
  if (enrollments.isPending) return <PageLoading />;
  if (enrollments.isError) return <PageError error={enrollments.error} onRetry={() => enrollments.refetch()} />;
  const items = enrollments.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title={t(`campaignAdmin.enrollments.empty.${status}`)} body={t('campaignAdmin.enrollments.emptyBody')} />;

  return (
    <>
      <List data-testid={`enrollments-${status}`}>
        {items.map((e) => (
          <List.Item
            key={e.id}
            data-testid={`enrollment-${e.id}`}
            description={
              <>
                <span className="list-value">{e.promoterAccount}</span>
                <br />
                <span className="console-enrollment-campaign">{e.campaignName}</span>
                <br />
                <span>{t('campaignAdmin.enrollments.requested', { date: formatDate(e.createdAt, i18n.language) })}</span>
                {e.couponCode ? <><br /><span>{t('campaignAdmin.enrollments.couponLabel')} </span><strong className="console-coupon-code" data-testid={`coupon-${e.id}`}>{e.couponCode}</strong></> : null}
              </>
            }
            extra={status === 'pending' ? (
              <div className="row-actions">
                <Button size="small" color="primary" onClick={() => void run(e, 'approve')} data-testid={`approve-enrollment-${e.id}`}>
                  {t('campaignAdmin.enrollments.approve')}
                </Button>
                <Button size="small" color="danger" fill="outline" onClick={() => void run(e, 'reject')} data-testid={`reject-enrollment-${e.id}`}>
                  {t('campaignAdmin.enrollments.reject')}
                </Button>
              </div>
            ) : status === 'approved' ? (
              <div className="row-actions console-coupon">
                <Button size="small" fill="outline" onClick={() => void editCoupon(e)} data-testid={`edit-coupon-${e.id}`}>
                  {e.couponCode ? t('campaignAdmin.enrollments.changeCoupon') : t('campaignAdmin.enrollments.addCoupon')}
                </Button>
              </div>
            ) : null}
          >
            {e.promoterName}
          </List.Item>
        ))}
      </List>
      <LoadMore query={enrollments} />
    </>
  );
}

/** At desk: the join requests as a table; pending ones selectable to approve or reject many at once. */
function EnrollmentsDesk({ status, onStatus }: { status: EnrollmentStatus; onStatus: (s: EnrollmentStatus) => void }) {
  const { t, i18n } = useTranslation();
  const enrollments = useEnrollments(status, i18n.language);
  const { run, editCoupon, act } = useEnrollmentActions();
  const { selected, setSelected, busy, bulkActions } = useApproveRejectBulk((id, action) => act.mutateAsync({ id, action }), t('campaignAdmin.enrollments.reject'));
  const pending = status === 'pending';

  const columns: Column<AdminEnrollment>[] = [
    { key: 'promoter', title: t('console.col.promoter'), sortValue: (e) => e.promoterName, render: (e) => <><span className="data-table-strong">{e.promoterName}</span><AccountText account={e.promoterAccount} className="data-table-sub" /></> },
    { key: 'campaign', title: t('console.col.campaign'), sortValue: (e) => e.campaignName, render: (e) => e.campaignName },
    { key: 'requested', title: t('console.col.requested'), sortValue: (e) => e.createdAt, render: (e) => <span className="data-table-nowrap">{formatDate(e.createdAt, i18n.language)}</span> },
    ...(status === 'approved' ? [{ key: 'coupon', title: t('console.col.coupon'), sortValue: (e: AdminEnrollment) => e.couponCode, render: (e: AdminEnrollment) => (e.couponCode ? <strong className="console-coupon-code" data-testid={`coupon-${e.id}`}>{e.couponCode}</strong> : <span className="data-table-muted">—</span>) }] : []),
    {
      key: 'actions',
      title: <span className="visually-hidden">{t('console.col.actions')}</span>,
      align: 'end',
      render: (e) => pending ? (
        <span className="data-table-actions">
          <Button size="small" color="primary" disabled={busy} onClick={() => void run(e, 'approve')} data-testid={`approve-enrollment-${e.id}`}>{t('campaignAdmin.enrollments.approve')}</Button>
          <Button size="small" color="danger" fill="outline" disabled={busy} onClick={() => void run(e, 'reject')} data-testid={`reject-enrollment-${e.id}`}>{t('campaignAdmin.enrollments.reject')}</Button>
        </span>
      ) : status === 'approved' ? (
        <span className="data-table-actions">
          <Button size="small" fill="outline" onClick={() => void editCoupon(e)} data-testid={`edit-coupon-${e.id}`}>
            {e.couponCode ? t('campaignAdmin.enrollments.changeCoupon') : t('campaignAdmin.enrollments.addCoupon')}
          </Button>
        </span>
      ) : null,
    },
  ];

  const exportCsv = (onProgress: (rows: number) => void) => exportList<AdminEnrollment>({
    filename: csvFilename(`enrollments-${status}`),
    fetchPage: listPages('admin/enrollments', { status }),
    onProgress,
    csv: 'enrollments',
    columns: {
      promoter_name: (e) => e.promoterName,
      promoter_account: (e) => csvId(e.promoterAccount),
      campaign: (e) => e.campaignName,
      status: (e) => t(`campaignAdmin.enrollments.status.${e.status}`),
      requested_at: (e) => csvTime(e.createdAt),
      coupon_code: (e) => csvId(e.couponCode),
      id: (e) => csvId(e.id),
    },
  });

  if (enrollments.isError) return <PageError error={enrollments.error} onRetry={() => enrollments.refetch()} />;
  const items = enrollments.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <DataTable
      data-testid={`enrollments-${status}`}
      caption={t('campaignAdmin.enrollments.title')}
      rows={items}
      rowKey={(e) => e.id}
      rowTestId={(e) => `enrollment-${e.id}`}
      rowLabel={(e) => `${e.promoterName} · ${e.campaignName}`}
      columns={columns}
      loading={enrollments.isPending}
      pagination={enrollments}
      empty={<EmptyState title={t(`campaignAdmin.enrollments.empty.${status}`)} body={t('campaignAdmin.enrollments.emptyBody')} />}
      selected={pending ? selected : undefined}
      onSelectedChange={pending ? setSelected : undefined}
      bulkActions={bulkActions}
      toolbar={
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={onStatus} options={STATUSES.map((s) => ({ value: s, label: t(`campaignAdmin.enrollments.status.${s}`) }))} testId="enrollments-filter" />}
          actions={<ExportButton run={exportCsv} />}
        />
      }
    />
  );
}

export default function EnrollmentsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [status, setStatus] = useUrlFilter<EnrollmentStatus>('status', STATUSES, 'pending');
  return (
    <div className={`sub-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('campaignAdmin.enrollments.title')} fallback="/me" />
      {desk ? <EnrollmentsDesk key={status} status={status} onStatus={setStatus} /> : (
        <>
          <Tabs activeKey={status} onChange={(key) => setStatus(key as EnrollmentStatus)}>
            {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`enrollment-tab-${s}`}>{t(`campaignAdmin.enrollments.status.${s}`)}</span>} />)}
          </Tabs>
          <EnrollmentList key={status} status={status} />
        </>
      )}
    </div>
  );
}
