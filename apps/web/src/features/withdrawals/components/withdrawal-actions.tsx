import { Button, Dialog, Toast } from 'antd-mobile';
import { ExclamationTriangleOutline } from 'antd-mobile-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, TextInput } from '@/components/field';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatMoney } from '@/lib/format';
import { nextActions, REASON_MAX, REFERENCE_MAX, useWithdrawalAction, type AdminWithdrawal, type WithdrawalAction } from '../api/withdrawal-queue';
import { accountText } from '@/lib/payout-account';
import { TextArea } from '@/components/form-field';

/** The fraud hint: another promoter registered the same account number. */
export function SharedAccountFlag({ id, long }: { id: string; long?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className={`withdrawal-flag${long ? ' withdrawal-flag-long' : ''}`} role="note" data-testid={`shared-account-flag-${id}`}>
      <ExclamationTriangleOutline aria-hidden className="withdrawal-flag-icon" />
      <span>{t(long ? 'withdrawalsAdmin.sharedAccountLong' : 'withdrawalsAdmin.sharedAccount')}</span>
    </span>
  );
}

/** What the operator is about to do, with the input that action needs (reference or reason). */
function ActionDialog({ w, action, onClose }: { w: AdminWithdrawal; action: WithdrawalAction; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const run = useWithdrawalAction();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const money = (minor: number) => formatMoney(minor, w.currency, i18n.language);
  const values = { name: w.promoterName, amount: money(w.amount), net: money(w.net) };
  const input = action === 'pay' ? 'reference' : action === 'approve' ? null : 'reason';
  const id = input ? `withdrawal-${input}` : '';

  const confirm = async () => {
    const value = text.trim();
    if (input && !value) {
      setError(t(`withdrawalsAdmin.${input}Required`));
      return;
    }
    try {
      await run.mutateAsync({ id: w.id, action, text: input ? value : undefined });
      Toast.show({ icon: 'success', content: t(`withdrawalsAdmin.done.${action}`, values) });
      onClose();
    } catch (err) {
      // A field the server refused stays open to be corrected; anything else (e.g. another
      // operator moved it first: INVALID_STATE_TRANSITION) closes on the refetched state.
      if (err instanceof ApiError && err.code === 'VALIDATION_FAILED' && input && err.fields[input]) {
        setError(t(`fields.${err.fields[input]}`, { defaultValue: t('fields.invalid') }));
        return;
      }
      Toast.show({ content: errorText(t, err) });
      onClose();
    }
  };

  const danger = action === 'fail' || action === 'reject';
  return (
    <Dialog
      visible
      // Out of the row it was opened from: it must not take the row's muted colours.
      getContainer={() => document.body}
      title={t(`withdrawalsAdmin.dialog.${action}.title`)}
      onClose={onClose}
      content={
        <div className="withdrawal-dialog" data-testid="withdrawal-dialog">
          <dl className="withdrawal-summary">
            <div><dt>{t('withdrawalsAdmin.promoter')}</dt><dd>{w.promoterName}</dd></div>
            <div><dt>{t('withdrawalsAdmin.amount')}</dt><dd className="withdrawal-num">{money(w.amount)}</dd></div>
            <div><dt>{t('withdrawalsAdmin.net')}</dt><dd className="withdrawal-num withdrawal-strong">{money(w.net)}</dd></div>
            <div><dt>{t('withdrawalsAdmin.account')}</dt><dd>{accountText(t, w.account)}</dd></div>
          </dl>
          {w.sharedAccount && (action === 'approve' || action === 'pay') ? <SharedAccountFlag id={`${w.id}-dialog`} long /> : null}
          <p className="withdrawal-dialog-text">{t(`withdrawalsAdmin.dialog.${action}.body`, values)}</p>
          {input ? (
            <Field
              id={id}
              label={t(`withdrawalsAdmin.${input}Label`)}
              errorText={error}
              help={t(`withdrawalsAdmin.${input}Help`)}
            >
              {input === 'reference' ? (
                <TextInput
                  id={id}
                  data-testid={id}
                  value={text}
                  maxLength={REFERENCE_MAX}
                  autoComplete="off"
                  autoCapitalize="off"
                  spellCheck={false}
                  placeholder={t('withdrawalsAdmin.referencePlaceholder')}
                  invalid={!!error}
                  onChange={(v) => {
                    setText(v);
                    if (error && v.trim()) setError(undefined);
                  }}
                />
              ) : (
                <TextArea
                  id={id}
                  data-testid={id}
                  rows={3}
                  value={text}
                  maxLength={REASON_MAX}
                  placeholder={t(`withdrawalsAdmin.dialog.${action}.placeholder`)}
                  invalid={!!error}
                  onChange={(v) => {
                    setText(v);
                    if (error && v.trim()) setError(undefined);
                  }}
                />
              )}
            </Field>
          ) : null}
        </div>
      }
      actions={[[
        { key: 'cancel', text: t('app.cancel'), onClick: onClose },
        {
          key: 'confirm',
          text: <span data-testid="withdrawal-confirm">{t(`withdrawalsAdmin.actions.${action}`)}</span>,
          danger,
          bold: true,
          onClick: confirm,
        },
      ]]}
    />
  );
}

/** The buttons for what may happen next to a withdrawal (the shared transitions table) and the dialog each opens. */
export function WithdrawalActions({ w, className, children }: { w: AdminWithdrawal; className?: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<WithdrawalAction | null>(null);
  const actions = nextActions(w.status);
  if (actions.length === 0 && !children) return null;
  return (
    <span className={`row-actions ${className ?? ''}`}>
      {actions.map((action) => (
        <Button
          key={action}
          size="small"
          color={action === 'approve' || action === 'pay' ? 'primary' : 'danger'}
          fill={action === 'approve' || action === 'pay' ? 'solid' : 'outline'}
          onClick={() => setOpen(action)}
          data-testid={`withdrawal-${action}-${w.id}`}
        >
          {t(`withdrawalsAdmin.actions.${action}`)}
        </Button>
      ))}
      {children}
      {open ? <ActionDialog w={w} action={open} onClose={() => setOpen(null)} /> : null}
    </span>
  );
}
