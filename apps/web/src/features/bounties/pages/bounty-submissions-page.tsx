/**
 * `#/admin/bounties/submissions` (staff; issue 31 item 5): proof sent for submission bounties,
 * by status (pending first), optionally of one bounty (`?bountyId=`). Each card shows the proof —
 * the words, the link, the image — with approve (a commission of kind `bounty` is made) and
 * reject with a reason the promoter reads.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { CheckShieldOutline, LinkOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BountySubmission, SubmissionStatus } from '@pa/shared';
import { DeskToolbar, StatusFilter } from '@/components/desk-toolbar';
import { EmptyState } from '@/components/empty-state';
import { TextArea } from '@/components/form-field';
import { LoadMore } from '@/components/load-more';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { useDesk } from '@/lib/desk';
import { errorText } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { navigate, useLocation, useSearchParams } from '@/lib/hash-router';
import { useUrlFilter } from '@/lib/url-filter';
import { useBountySubmissions, useSubmissionDecision } from '../api/admin-bounties';
import { SubmissionStatusTag } from '../components/bounty-tags';
import '@/components/desk.css';
import '../bounties.css';

const STATUSES: SubmissionStatus[] = ['pending', 'approved', 'rejected'];
const REASON_MAX = 500;
type QueueItem = BountySubmission;

function RejectDialog({ name, onCancel, onConfirm }: { name: string; onCancel: () => void; onConfirm: (reason: string) => Promise<void> }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  return (
    <Dialog
      visible
      title={t('bountiesAdmin.review.rejectTitle', { name })}
      onClose={onCancel}
      content={
        <div className={`field console-reject-field${missing ? ' field-invalid' : ''}`}>
          <label htmlFor="bounty-reject-reason">{t('bountiesAdmin.review.reasonLabel')}</label>
          <TextArea id="bounty-reject-reason" data-testid="bounty-reject-reason" rows={3} value={reason} maxLength={REASON_MAX} invalid={missing}
            onChange={(v) => {
              setReason(v);
              if (missing && v.trim()) setMissing(false);
            }}
          />
          {missing ? <p className="field-error" id="bounty-reject-reason-msg">{t('bountiesAdmin.review.reasonRequired')}</p> : <p className="field-help" id="bounty-reject-reason-msg">{t('bountiesAdmin.review.reasonHelp')}</p>}
        </div>
      }
      actions={[[
        { key: 'cancel', text: t('app.cancel'), onClick: onCancel },
        {
          key: 'reject', danger: true, bold: true,
          text: <span data-testid="bounty-reject-confirm">{t('bountiesAdmin.review.reject')}</span>,
          onClick: async () => {
            if (!reason.trim()) return setMissing(true);
            await onConfirm(reason.trim());
          },
        },
      ]]}
    />
  );
}

function SubmissionCard({ s, busy, onApprove, onReject }: { s: QueueItem; busy: boolean; onApprove: () => void; onReject: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="submission-card" data-testid={`submission-row-${s.id}`}>
      <div className="submission-card-head">
        <span className="submission-card-who">
          <span className="data-table-strong">{s.promoterName}</span>
          <span className="submission-card-bounty" data-testid={`submission-bounty-${s.id}`}>{`${s.bountyName} · ${s.campaignName}`}</span>
          <span className="submission-card-date">{t('bountiesAdmin.review.sentAt', { date: formatDateTime(s.createdAt, i18n.language) })}</span>
        </span>
        <SubmissionStatusTag status={s.status} label={t(`bountiesAdmin.review.status.${s.status}`)} />
      </div>
      <div className="submission-proof">
        <p className="submission-text" data-testid="submission-text">{s.text}</p>
        {s.url ? (
          <a className="submission-link" href={s.url} target="_blank" rel="noopener noreferrer nofollow" data-testid="submission-url">
            <LinkOutline aria-hidden /> <span>{s.url}</span>
          </a>
        ) : null}
        {s.imageUrl ? (
          <a className="submission-image" href={s.imageUrl} target="_blank" rel="noopener noreferrer" aria-label={t('bountiesAdmin.review.openImage')} data-testid="submission-image">
            <img src={s.imageUrl} alt={t('bountiesAdmin.review.imageAlt', { name: s.promoterName })} loading="lazy" />
          </a>
        ) : null}
      </div>
      {s.status === 'rejected' && s.reason ? <p className="submission-reason">{t('bountiesAdmin.review.reason', { reason: s.reason })}</p> : null}
      {s.status === 'approved' && s.decidedAt ? <p className="submission-decided">{t('bountiesAdmin.review.approvedAt', { date: formatDateTime(s.decidedAt, i18n.language) })}</p> : null}
      {s.status === 'pending' ? (
        <div className="submission-actions">
          <Button color="danger" fill="outline" disabled={busy} onClick={onReject} data-testid={`submission-reject-${s.id}`}>{t('bountiesAdmin.review.reject')}</Button>
          <Button color="primary" disabled={busy} onClick={onApprove} data-testid={`submission-approve-${s.id}`}>{t('bountiesAdmin.review.approve')}</Button>
        </div>
      ) : null}
    </li>
  );
}

export default function BountySubmissionsPage() {
  const { t } = useTranslation();
  const desk = useDesk();
  const [status, setStatus] = useUrlFilter<SubmissionStatus>('status', STATUSES, 'pending');
  const params = useSearchParams();
  const { pathname } = useLocation();
  const bountyId = params.get('bountyId') || null;
  const submissions = useBountySubmissions(status, bountyId);
  const decide = useSubmissionDecision();
  const [rejecting, setRejecting] = useState<QueueItem | null>(null);

  const approve = async (s: QueueItem) => {
    try {
      await decide.mutateAsync({ id: s.id, action: 'approve' });
      Toast.show({ icon: 'success', content: t('bountiesAdmin.review.approved', { name: s.promoterName }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  const reject = async (s: QueueItem, reason: string) => {
    try {
      await decide.mutateAsync({ id: s.id, action: 'reject', reason });
      Toast.show({ icon: 'success', content: t('bountiesAdmin.review.rejected', { name: s.promoterName }) });
      setRejecting(null);
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  const allBounties = () => {
    const query = new URLSearchParams(params);
    query.delete('bountyId');
    const qs = query.toString();
    navigate(`${pathname}${qs ? `?${qs}` : ''}`, { replace: true });
  };

  const items: QueueItem[] = submissions.data?.pages.flatMap((p) => p.items) ?? [];
  const one = bountyId ? items.find((s) => s.bountyName)?.bountyName : undefined;
  return (
    <div className={`sub-page bounty-submissions-page${desk ? ' desk-page' : ''}`}>
      <PageNav title={t('bountiesAdmin.review.title')} fallback="/admin" />
      <div className="submission-toolbar">
        <DeskToolbar
          filters={<StatusFilter label={t('console.filter.status')} value={status} onChange={setStatus} options={STATUSES.map((s) => ({ value: s, label: t(`bountiesAdmin.review.filter.${s}`) }))} testId="submissions-filter" />}
          actions={bountyId ? (
            <Button fill="outline" onClick={allBounties} data-testid="submissions-all">{one ? t('bountiesAdmin.review.onlyOneNamed', { name: one }) : t('bountiesAdmin.review.onlyOne')}</Button>
          ) : null}
        />
      </div>
      <p className="bounty-lead submission-lead">{t('bountiesAdmin.review.lead')}</p>
      {submissions.isPending ? <PageLoading /> : submissions.isError ? <PageError error={submissions.error} onRetry={() => void submissions.refetch()} /> : items.length === 0 ? (
        <EmptyState icon={<CheckShieldOutline />} title={t(`bountiesAdmin.review.empty.${status}`)} body={t('bountiesAdmin.review.emptyBody')} />
      ) : (
        <>
          <ul className="submission-list" data-testid={`submissions-${status}`}>
            {items.map((s) => <SubmissionCard key={s.id} s={s} busy={decide.isPending} onApprove={() => void approve(s)} onReject={() => setRejecting(s)} />)}
          </ul>
          <LoadMore query={submissions} />
        </>
      )}
      {rejecting ? <RejectDialog name={rejecting.promoterName} onCancel={() => setRejecting(null)} onConfirm={(reason) => reject(rejecting, reason)} /> : null}
    </div>
  );
}
