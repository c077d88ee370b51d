/**
 * The manual adjustment (admin): credit or debit the promoter's available balance with a reason
 * the promoter will read. A centred dialog at desk width, a bottom sheet on a phone. The amount
 * is typed in the currency's unit and sent as exact minor units; one Idempotency-Key per attempt,
 * reused when the same attempt is retried after no answer.
 */
import { Button, CenterPopup, Popup, Toast } from 'antd-mobile';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ADJUSTMENT_REASON_MAX } from '@pa/shared';
import { AmountInput } from '@/components/amount-input';
import { Field } from '@/components/field';
import { SegmentedSwitch } from '@/components/segmented-switch';
import { ApiError } from '@/lib/api-client';
import { useDesk } from '@/lib/desk';
import { errorText, fieldErrors } from '@/lib/errors';
import { formatMoney, minorUnitDigits } from '@/lib/format';
import { amountStyle } from '@/lib/money-input';
import { useAdjustBalance } from '../api/promoters';
import {
  attemptFor, goesNegative, outcomeUnknown, parseAdjustmentAmount, reasonError, splitSign, type AdjustmentAttempt, type Direction,
} from '../lib/adjust-form';
import { TextArea } from '@/components/form-field';

interface Props {
  promoterId: string;
  name: string;
  currency: string;
  available: number;
  onClose: () => void;
}

function AdjustForm({ promoterId, name, currency, available, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const adjust = useAdjustBalance();
  const [direction, setDirection] = useState<Direction>('credit');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [allowNegative, setAllowNegative] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [serverFields, setServerFields] = useState<Record<string, string>>({});
  const attempt = useRef<AdjustmentAttempt | null>(null);
  const money = (minor: number) => formatMoney(minor, currency, locale);

  const parsed = parseAdjustmentAmount(amountText, direction, currency);
  const reasonProblem = reasonError(reason);
  const negative = parsed.ok && goesNegative(available, parsed.amount);

  let amountMessage: string | undefined;
  if (!parsed.ok && (submitted || (parsed.error !== 'required' && parsed.error !== 'zero'))) {
    amountMessage = parsed.error === 'decimals'
      ? (parsed.digits === 0 ? t('promotersAdmin.adjust.noDecimals') : t('promotersAdmin.adjust.decimals', { digits: parsed.digits }))
      : parsed.error === 'required' ? t('fields.required') : t(`promotersAdmin.adjust.amountError.${parsed.error}`);
  }
  amountMessage ??= serverFields.amount;
  let reasonMessage: string | undefined;
  if (reasonProblem === 'too_long') reasonMessage = t('promotersAdmin.adjust.reasonTooLong', { max: ADJUSTMENT_REASON_MAX });
  else if (reasonProblem === 'required' && submitted) reasonMessage = t('promotersAdmin.adjust.reasonRequired');
  reasonMessage ??= serverFields.reason;

  const onAmount = (value: string) => {
    // A typed sign picks the direction, so what the form sends is always what the switch shows.
    const { direction: typed, rest } = splitSign(value);
    if (typed) setDirection(typed);
    setAmountText(rest);
    setServerFields({});
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (!parsed.ok || reasonProblem || adjust.isPending) return;
    if (negative && !allowNegative) return;
    const request = { promoterId, amount: parsed.amount, reason: reason.trim(), allowNegative: negative && allowNegative };
    const current = attemptFor(attempt.current, request);
    attempt.current = current;
    try {
      const result = await adjust.mutateAsync({ ...request, idempotencyKey: current.key });
      attempt.current = null;
      Toast.show({
        icon: 'success',
        content: t(parsed.amount > 0 ? 'promotersAdmin.adjust.doneCredit' : 'promotersAdmin.adjust.doneDebit', { amount: money(Math.abs(parsed.amount)), name, available: money(result.available) }),
      });
      onClose();
    } catch (error) {
      const unknown = error instanceof ApiError && outcomeUnknown(error.status);
      if (!unknown) attempt.current = null;
      setServerFields(fieldErrors(t, error));
      setFormError(unknown ? `${errorText(t, error)} ${t('promotersAdmin.adjust.retrySafe')}` : errorText(t, error));
    }
  };

  const digits = minorUnitDigits(currency);
  const placeholder = digits ? `0${amountStyle(currency, locale).decimal}${'0'.repeat(digits)}` : '0';
  const after = parsed.ok ? available + parsed.amount : null;
  return (
    <form className="adjust-form" onSubmit={onSubmit} noValidate data-testid="adjust-form">
      <h2 className="adjust-title" id="adjust-title">{t('promotersAdmin.adjust.title')}</h2>
      <p className="adjust-intro">{t('promotersAdmin.adjust.intro', { name })}</p>
      <div className="field">
        <span className="field-label" id="adjust-direction-label">{t('promotersAdmin.adjust.direction')}</span>
        <SegmentedSwitch
          label={t('promotersAdmin.adjust.direction')}
          value={direction}
          block
          onChange={(d) => { setDirection(d); setServerFields({}); }}
          options={[
            { value: 'credit', label: t('promotersAdmin.adjust.credit'), testId: 'adjust-credit' },
            { value: 'debit', label: t('promotersAdmin.adjust.debit'), testId: 'adjust-debit' },
          ]}
        />
      </div>
      <Field id="adjust-amount-input" label={t('promotersAdmin.adjust.amount')} errorText={amountMessage} help={t(direction === 'credit' ? 'promotersAdmin.adjust.amountHelpCredit' : 'promotersAdmin.adjust.amountHelpDebit')}>
        <AmountInput
          id="adjust-amount-input"
          currency={currency}
          value={amountText}
          onChange={onAmount}
          invalid={!!amountMessage}
          placeholder={placeholder}
          sign={<span className={`adjust-sign adjust-sign-${direction}`} aria-hidden>{direction === 'credit' ? '+' : '\u2212'}</span>}
          boxTestId="adjust-amount"
        />
      </Field>
      <div className={`field${reasonMessage ? ' field-invalid' : ''}`} data-testid="adjust-reason">
        <label htmlFor="adjust-reason-input">{t('promotersAdmin.adjust.reason')}</label>
        <TextArea
          id="adjust-reason-input"
          rows={3}
          value={reason}
          maxLength={ADJUSTMENT_REASON_MAX + 50}
          placeholder={t('promotersAdmin.adjust.reasonPlaceholder')}
          invalid={!!reasonMessage}
          onChange={(v) => { setReason(v); setServerFields({}); }}
        />
        {reasonMessage
          ? <p className="field-error" id="adjust-reason-input-msg" data-testid="adjust-reason-error">{reasonMessage}</p>
          : <p className="field-help" id="adjust-reason-input-msg">{t('promotersAdmin.adjust.reasonHelp')}</p>}
      </div>
      <dl className="adjust-preview" aria-live="polite" data-testid="adjust-preview">
        <div><dt>{t('promotersAdmin.adjust.availableNow')}</dt><dd>{money(available)}</dd></div>
        <div><dt>{t('promotersAdmin.adjust.availableAfter')}</dt><dd className={after !== null && after < 0 ? 'promoter-negative' : undefined}>{after === null ? '—' : money(after)}</dd></div>
      </dl>
      {negative ? (
        <label className={`adjust-negative${submitted && !allowNegative ? ' adjust-negative-needed' : ''}`} data-testid="adjust-allow-negative">
          <input type="checkbox" checked={allowNegative} onChange={(e) => setAllowNegative(e.target.checked)} />
          <span>
            <span className="adjust-negative-title">{t('promotersAdmin.adjust.allowNegative')}</span>
            <span className="adjust-negative-help">{submitted && !allowNegative ? t('errors.INSUFFICIENT_BALANCE') : t('promotersAdmin.adjust.allowNegativeHelp')}</span>
          </span>
        </label>
      ) : null}
      {formError ? <p className="notice adjust-error" role="alert" data-testid="adjust-error">{formError}</p> : null}
      <div className="adjust-actions">
        <Button type="button" fill="outline" onClick={onClose} disabled={adjust.isPending} data-testid="adjust-cancel">{t('app.cancel')}</Button>
        <Button type="submit" color={direction === 'debit' ? 'danger' : 'primary'} loading={adjust.isPending} disabled={adjust.isPending} data-testid="adjust-submit">
          {t(direction === 'credit' ? 'promotersAdmin.adjust.submitCredit' : 'promotersAdmin.adjust.submitDebit')}
        </Button>
      </div>
    </form>
  );
}

/** The adjustment form in a dialog (desk) or a bottom sheet (phone). */
export function AdjustDialog(props: Props & { visible: boolean }): ReactNode {
  const desk = useDesk();
  const { visible, ...rest } = props;
  // A fresh form (and a fresh attempt) each time it opens.
  const body = visible ? <div role="dialog" aria-modal="true" aria-labelledby="adjust-title"><AdjustForm {...rest} /></div> : null;
  return desk ? (
    <CenterPopup visible={visible} onMaskClick={props.onClose} className="adjust-popup" destroyOnClose>
      {body}
    </CenterPopup>
  ) : (
    <Popup visible={visible} onMaskClick={props.onClose} position="bottom" className="adjust-popup adjust-sheet" destroyOnClose>
      {body}
    </Popup>
  );
}
