import { Button, Toast } from 'antd-mobile';
import { AddOutline, RightOutline } from 'antd-mobile-icons';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { PayoutAccount, WithdrawalTermsView } from '@pa/shared';
import { AmountInput } from '@/components/amount-input';
import { Field } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatMoney } from '@/lib/format';
import { amountStyle, minorToInputText } from '@/lib/money-input';
import { Link, navigate } from '@/lib/hash-router';
import { usePayoutAccounts } from '../api/payout-accounts';
import { useCreateWithdrawal, useWithdrawalTerms, withdrawalTermsQuery } from '../api/withdrawals';
import { MethodIcon } from '../components/method-icon';
import { accountLabel, feeRuleText } from '../lib/describe';
import { allAmount, attemptFor, blockingProblem, checkAmount, outcomeUnknown, summaryOf, type AmountCheck, type Attempt } from '../lib/withdraw-form';

const ADD_ACCOUNT = '/payout-accounts?return=withdraw&add=1';

/** The inline message for the typed amount: the error code's own words, then the figure that matters. */
function amountMessage(check: AmountCheck, terms: WithdrawalTermsView, submitted: boolean, t: TFunction, locale: string): string | undefined {
  const money = (minor: number) => formatMoney(minor, terms.currency, locale);
  const join = (code: string, detail: string) => t('withdraw.problemJoin', { error: t(`errors.${code}`), detail });
  switch (check.state) {
    case 'empty':
      return submitted ? t('fields.required') : undefined;
    case 'unreadable':
      if (check.error === 'required') return submitted ? t('fields.required') : undefined;
      if (check.error === 'decimals') return check.digits === 0 ? t('withdraw.problem.noDecimals') : t('withdraw.problem.decimals', { digits: check.digits });
      if (check.error === 'too_large') return join('WITHDRAWAL_ABOVE_MAXIMUM', t('withdraw.problem.maximum', { max: money(terms.max) }));
      return t('withdraw.problem.invalid');
    case 'problem':
      switch (check.problem) {
        case 'WITHDRAWAL_BELOW_MINIMUM':
          return check.amount >= terms.min
            ? join(check.problem, t('withdraw.problem.fee', { fee: money(check.fee) }))
            : join(check.problem, t('withdraw.problem.minimum', { min: money(terms.min) }));
        case 'WITHDRAWAL_ABOVE_MAXIMUM':
          return join(check.problem, t('withdraw.problem.maximum', { max: money(terms.max) }));
        case 'INSUFFICIENT_BALANCE':
          return join(check.problem, t('withdraw.problem.available', { available: money(Math.max(terms.available, 0)) }));
        default:
          return t(`errors.${check.problem}`);
      }
    default:
      return undefined;
  }
}

function AccountChoice({ accounts, value, onChange }: { accounts: PayoutAccount[]; value: string; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <div className="field">
      <span className="field-label" id="withdraw-account-label">{t('withdraw.account')}</span>
      <div className="account-choices" role="radiogroup" aria-labelledby="withdraw-account-label" data-testid="withdraw-account">
        {accounts.map((a) => (
          <label key={a.id} className={`account-choice${a.id === value ? ' account-choice-on' : ''}`} data-testid="withdraw-account-option" data-id={a.id}>
            <input type="radio" name="payout-account" value={a.id} checked={a.id === value} onChange={() => onChange(a.id)} />
            <MethodIcon method={a.method} />
            <span className="account-choice-text">
              <span className="account-choice-title">{accountLabel(a, t)}</span>
              <span className="account-choice-holder">{a.holderName}{a.isDefault ? ` · ${t('payoutAccounts.default')}` : ''}</span>
            </span>
          </label>
        ))}
      </div>
      <Link to={ADD_ACCOUNT} className="text-button" data-testid="withdraw-add-account"><AddOutline aria-hidden /> {t('withdraw.addAccount')}</Link>
    </div>
  );
}

function WithdrawForm({ terms, accounts }: { terms: WithdrawalTermsView; accounts: PayoutAccount[] }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const queryClient = useQueryClient();
  const create = useCreateWithdrawal();
  const [amountText, setAmountText] = useState('');
  const [chosen, setChosen] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // The attempt whose answer never arrived: retrying the same request reuses its key.
  const attempt = useRef<Attempt | null>(null);
  const money = (minor: number) => formatMoney(minor, terms.currency, locale);
  const { decimal } = amountStyle(terms.currency, locale);
  // The parser takes either separator; what the form writes itself follows the reader's locale.
  const inputText = (minor: number) => minorToInputText(minor, terms.currency).replace('.', decimal);

  const accountId = accounts.some((a) => a.id === chosen) ? chosen : (accounts.find((a) => a.isDefault) ?? accounts[0])?.id ?? '';
  const check = checkAmount(amountText, terms);
  const blocked = blockingProblem(terms);
  const message = amountMessage(check, terms, submitted, t, locale);
  const preview = summaryOf(check);
  const canSend = check.state === 'ok' && !!accountId && !blocked && !create.isPending;
  const left = Math.max(0, terms.perDay - terms.usedToday);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (check.state !== 'ok' || !accountId || create.isPending) return;
    const current = attemptFor(attempt.current, { amount: check.amount, payoutAccountId: accountId });
    attempt.current = current;
    try {
      const withdrawal = await create.mutateAsync({ amount: check.amount, payoutAccountId: accountId, idempotencyKey: current.key });
      attempt.current = null;
      Toast.show({ icon: 'success', content: t('withdraw.sent') });
      navigate(`/withdrawals/${encodeURIComponent(withdrawal.id)}`, { replace: true });
    } catch (error) {
      if (!(error instanceof ApiError) || !outcomeUnknown(error.status)) attempt.current = null;
      // The balance, today's count or the accounts changed meanwhile: show the server's view.
      void queryClient.invalidateQueries({ queryKey: withdrawalTermsQuery.queryKey });
      setFormError(error instanceof ApiError && outcomeUnknown(error.status) ? `${errorText(t, error)} ${t('withdraw.retrySafe')}` : errorText(t, error));
    }
  };

  return (
    <>
      <section className="balance-card withdraw-balance" aria-labelledby="withdraw-available-label">
        <p id="withdraw-available-label" className="balance-label">{t('withdraw.available')}</p>
        <p className="balance-value" data-testid="withdraw-available">{money(terms.available)}</p>
        <ul className="withdraw-rules">
          <li data-testid="withdraw-limits">{t('withdraw.limits', { min: money(terms.min), max: money(terms.max) })}</li>
          <li data-testid="withdraw-fee-rule">{t('withdraw.feeRule', { rule: feeRuleText(terms, t, locale) })}</li>
          <li data-testid="withdraw-remaining">{t('withdraw.remaining', { count: left, perDay: terms.perDay })}</li>
        </ul>
      </section>
      {blocked ? (
        <div className="notice withdraw-blocked" role="status" data-testid="withdraw-blocked">
          {blocked === 'NOTHING_AVAILABLE' ? t('withdraw.nothingAvailable', { min: money(terms.min) }) : t(`errors.${blocked}`)}
        </div>
      ) : null}
      <form className="form card withdraw-form" onSubmit={onSubmit} noValidate>
        <Field id="withdraw-amount" label={t('withdraw.amount')} errorText={message} help={t('withdraw.amountHelp')}>
          <div className="amount-row">
            <AmountInput
              id="withdraw-amount"
              currency={terms.currency}
              value={amountText}
              onChange={setAmountText}
              invalid={!!message}
              placeholder={t('withdraw.amountPlaceholder', { min: inputText(terms.min) })}
              disabled={!!blocked}
              inputTestId="withdraw-amount"
            />
            <Button
              size="small"
              fill="outline"
              color="primary"
              className="amount-all"
              disabled={!!blocked || allAmount(terms) <= 0}
              onClick={() => setAmountText(inputText(allAmount(terms)))}
              data-testid="withdraw-all"
            >
              {t('withdraw.all')}
            </Button>
          </div>
        </Field>
        {accounts.length > 0 ? <AccountChoice accounts={accounts} value={accountId} onChange={setChosen} /> : (
          <div className="field">
            <span className="field-label">{t('withdraw.account')}</span>
            <div className="notice no-account" data-testid="withdraw-no-account">
              <p>{t('withdraw.noAccount')}</p>
              <Button size="small" color="primary" onClick={() => navigate(ADD_ACCOUNT)} data-testid="withdraw-add-account">{t('withdraw.addAccount')}</Button>
            </div>
          </div>
        )}
        <dl className="withdraw-summary" aria-live="polite">
          <div>
            <dt>{t('withdraw.amount')}</dt>
            <dd data-testid="withdraw-gross">{preview ? money(preview.amount) : '—'}</dd>
          </div>
          <div>
            <dt>{t('withdraw.fee')}</dt>
            <dd data-testid="withdraw-fee">{preview ? money(preview.fee) : '—'}</dd>
          </div>
          <div className="withdraw-net-row">
            <dt>{t('withdraw.net')}</dt>
            <dd data-testid="withdraw-net">{preview && preview.net > 0 ? money(preview.net) : '—'}</dd>
          </div>
        </dl>
        {/* Next to the button that was just pressed, where the eye is. */}
        {formError ? <div className="form-error withdraw-error" role="alert" data-testid="form-error">{formError}</div> : null}
        <Button block type="submit" color="primary" size="large" disabled={!canSend} loading={create.isPending} data-testid="withdraw-submit">
          {check.state === 'ok' ? t('withdraw.submitAmount', { amount: money(check.amount) }) : t('withdraw.submit')}
        </Button>
        <p className="hint">{t('withdraw.processing')}</p>
      </form>
      <Link to="/withdrawals" className="wallet-action withdraw-history" data-testid="withdraw-history">
        <span>{t('withdraw.history')}</span> <RightOutline aria-hidden className="wallet-action-arrow" />
      </Link>
    </>
  );
}

export default function WithdrawPage() {
  const { t } = useTranslation();
  const terms = useWithdrawalTerms();
  const accounts = usePayoutAccounts();
  let body;
  if (terms.isError) body = <PageError error={terms.error} onRetry={() => terms.refetch()} />;
  else if (accounts.isError) body = <PageError error={accounts.error} onRetry={() => accounts.refetch()} />;
  else if (terms.isPending || accounts.isPending) body = <PageLoading />;
  else body = <WithdrawForm terms={terms.data} accounts={accounts.data} />;
  return (
    <div className="sub-page">
      <PageNav title={t('withdraw.title')} fallback="/wallet" />
      {body}
    </div>
  );
}
