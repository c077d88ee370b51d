/**
 * What the commission review does in both of its layouts (the phone's list, the desk's table):
 * approve one, approve or reject many in one call, and the dialog that asks for the reason of a
 * rejection. The page keeps the selection; it is told which ids left it after a decision.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TextArea } from '@/components/form-field';
import { errorText } from '@/lib/errors';
import { useCommissionBulk, useCommissionDecision, type AdminCommission } from '../api/commission-review';

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

/** What the reject dialog is for: one commission (named) or every selected one. */
type Rejecting = { ids: string[]; name?: string };

export interface CommissionReview {
  /** A decision is on its way: every decision button waits. */
  busy: boolean;
  /** A bulk decision is on its way (its button shows the spinner). */
  bulkPending: boolean;
  approve: (c: AdminCommission) => void;
  reject: (c: AdminCommission) => void;
  approveMany: (ids: string[]) => void;
  rejectMany: (ids: string[]) => void;
  /** The reject dialog while one is open, else null: render it anywhere on the page. */
  dialog: ReactNode;
}

/** `unselect(ids)`: those ids were decided and leave the selection; `unselect(null)`: all of it. */
export function useCommissionReview(unselect: (ids: string[] | null) => void): CommissionReview {
  const { t } = useTranslation();
  const decide = useCommissionDecision();
  const bulk = useCommissionBulk();
  const [rejecting, setRejecting] = useState<Rejecting | null>(null);

  const decideOne = async (id: string, name: string, action: 'approve' | 'reject', reason?: string) => {
    try {
      await decide.mutateAsync({ id, action, reason });
      unselect([id]);
      Toast.show({ icon: 'success', content: t(action === 'approve' ? 'moneyAdmin.commissions.approved' : 'moneyAdmin.commissions.rejected', { name }) });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const decideMany = async (ids: string[], action: 'approve' | 'reject', reason?: string) => {
    try {
      const { changed, skipped } = await bulk.mutateAsync({ ids, action, reason });
      unselect(null);
      const done = t(`moneyAdmin.commissions.bulkDone.${action}`, { changed: String(changed.length) });
      Toast.show({ icon: skipped.length ? undefined : 'success', content: skipped.length ? t('moneyAdmin.commissions.bulkSkipped', { done, skipped: String(skipped.length) }) : done });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };

  const confirmReject = async (target: Rejecting, reason: string) => {
    if (target.name !== undefined) await decideOne(target.ids[0]!, target.name, 'reject', reason);
    else await decideMany(target.ids, 'reject', reason);
    setRejecting(null);
  };

  return {
    busy: decide.isPending || bulk.isPending,
    bulkPending: bulk.isPending,
    approve: (c) => void decideOne(c.id, c.promoterName, 'approve'),
    reject: (c) => setRejecting({ ids: [c.id], name: c.promoterName }),
    approveMany: (ids) => void decideMany(ids, 'approve'),
    rejectMany: (ids) => setRejecting({ ids }),
    dialog: rejecting ? (
      <RejectDialog
        title={rejecting.name !== undefined ? t('moneyAdmin.commissions.rejectTitle', { name: rejecting.name }) : t('moneyAdmin.commissions.rejectTitleN', { n: String(rejecting.ids.length) })}
        onCancel={() => setRejecting(null)}
        onConfirm={(reason) => confirmReject(rejecting, reason)}
      />
    ) : null,
  };
}

/** Approve and reject for one pending commission (a list row's or a table row's). */
export function DecisionButtons({ review, c }: { review: CommissionReview; c: AdminCommission }) {
  const { t } = useTranslation();
  return (
    <>
      <Button size="small" color="primary" disabled={review.busy} onClick={() => review.approve(c)} data-testid={`approve-commission-${c.id}`}>{t('moneyAdmin.commissions.approve')}</Button>
      <Button size="small" color="danger" fill="outline" disabled={review.busy} onClick={() => review.reject(c)} data-testid={`reject-commission-${c.id}`}>{t('moneyAdmin.commissions.reject')}</Button>
    </>
  );
}

/** Approve and reject for every selected commission; `approveLast` puts approve at the end (the phone's bottom bar, under the thumb). */
export function BulkDecisionButtons({ review, ids, approveLast }: { review: CommissionReview; ids: string[]; approveLast?: boolean }) {
  const { t } = useTranslation();
  const n = String(ids.length);
  const approve = (
    <Button key="approve" size="small" color="primary" loading={review.bulkPending} disabled={review.busy} onClick={() => review.approveMany(ids)} data-testid="bulk-approve">
      {t('moneyAdmin.commissions.approveN', { n })}
    </Button>
  );
  const reject = (
    <Button key="reject" size="small" color="danger" fill="outline" disabled={review.busy} onClick={() => review.rejectMany(ids)} data-testid="bulk-reject">
      {t('moneyAdmin.commissions.rejectN', { n })}
    </Button>
  );
  return <>{approveLast ? [reject, approve] : [approve, reject]}</>;
}
