import { Button, Dialog, List, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageNav } from '../../../components/page-nav';
import { PageError, PageLoading } from '../../../components/page-status';
import { ApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { formatDate } from '../../../lib/format';
import { useEnrollmentAction, useEnrollments, useSetCoupon, type AdminEnrollment, type EnrollmentAction, type EnrollmentStatus } from '../api/enrollments';
import { LoadMore } from '../../../components/load-more';

const STATUSES: EnrollmentStatus[] = ['pending', 'approved', 'rejected'];

function EnrollmentList({ status }: { status: EnrollmentStatus }) {
  const { t, i18n } = useTranslation();
  const enrollments = useEnrollments(status, i18n.language);
  const act = useEnrollmentAction();
  const setCoupon = useSetCoupon();
  if (enrollments.isPending) return <PageLoading />;
  if (enrollments.isError) return <PageError error={enrollments.error} onRetry={() => enrollments.refetch()} />;
  const items = enrollments.data.pages.flatMap((p) => p.items);
  if (items.length === 0) return <EmptyState title={t(`campaignAdmin.enrollments.empty.${status}`)} body={t('campaignAdmin.enrollments.emptyBody')} />;

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
                <span className="ca-enrollment-campaign">{e.campaignName}</span>
                <br />
                <span>{t('campaignAdmin.enrollments.requested', { date: formatDate(e.createdAt, i18n.language) })}</span>
                {e.couponCode ? <><br /><span>{t('campaignAdmin.enrollments.couponLabel')} </span><strong className="ca-coupon-code" data-testid={`coupon-${e.id}`}>{e.couponCode}</strong></> : null}
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
              <div className="row-actions ca-coupon">
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

export default function EnrollmentsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<EnrollmentStatus>('pending');
  return (
    <div className="sub-page">
      <PageNav title={t('campaignAdmin.enrollments.title')} fallback="/me" />
      <Tabs activeKey={status} onChange={(key) => setStatus(key as EnrollmentStatus)}>
        {STATUSES.map((s) => <Tabs.Tab key={s} title={<span data-testid={`enrollment-tab-${s}`}>{t(`campaignAdmin.enrollments.status.${s}`)}</span>} />)}
      </Tabs>
      <EnrollmentList key={status} status={status} />
    </div>
  );
}
