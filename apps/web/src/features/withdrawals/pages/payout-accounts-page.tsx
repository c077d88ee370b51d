import { Button, Dialog, Toast } from 'antd-mobile';
import { AddOutline, BankcardOutline } from 'antd-mobile-icons';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PayoutAccount } from '@pa/shared';
import { checkHolderName, checkPayoutNumber, HOLDER_NAME_MAX, PAYOUT_METHODS, shownPayoutNumber, type PayoutMethod } from '@pa/shared/rules';
import { EmptyState } from '@/components/empty-state';
import { Field, TextInput } from '@/components/field';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { useForm, type Rules } from '@/lib/use-form';
import { useCreatePayoutAccount, useDeletePayoutAccount, usePayoutAccounts, useSetDefaultPayoutAccount } from '../api/payout-accounts';
import { MethodIcon } from '../components/method-icon';
import { accountLabel } from '../lib/describe';

interface Values {
  method: PayoutMethod;
  holderName: string;
  accountNumber: string;
}

const INPUT_MODE: Record<PayoutMethod, 'text' | 'email'> = { bank: 'text', alipay: 'text', paypal: 'email', other: 'text' };

function AddForm({ first, onDone, onCancel }: { first: boolean; onDone: (account: PayoutAccount) => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const create = useCreatePayoutAccount();
  const rules = useMemo<Rules<Values>>(() => ({
    holderName: (v) => checkHolderName(v),
    accountNumber: (v, all) => checkPayoutNumber(all.method, v),
  }), []);
  const form = useForm<Values>({ method: 'bank', holderName: '', accountNumber: '' }, rules);
  const [isDefault, setIsDefault] = useState(first);
  const [formError, setFormError] = useState<string | null>(null);
  const method = form.values.method;
  const holder = form.field('holderName');
  const number = form.field('accountNumber');

  const setMethod = (next: PayoutMethod) => {
    form.setValues((v) => ({ ...v, method: next }));
    // The same number may be fine for one method and not another: check it again at once.
    if (form.values.accountNumber.trim()) form.setErrors((e) => ({ ...e, accountNumber: checkPayoutNumber(next, form.values.accountNumber) ?? undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate()) return;
    try {
      const account = await create.mutateAsync({ ...form.values, isDefault: first || isDefault });
      Toast.show({ icon: 'success', content: t('payoutAccounts.added') });
      onDone(account);
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  // A bad number gets a message that says what this method expects.
  const numberError = number.error === 'invalid' ? t(`payoutAccounts.numberInvalid.${method}`) : undefined;
  return (
    <form className="form card payout-form" onSubmit={onSubmit} noValidate data-testid="payout-form">
      <h2>{t('payoutAccounts.addTitle')}</h2>
      {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
      <Field id="payout-method" label={t('payoutAccounts.methodLabel')}>
        <select id="payout-method" className="text-input" value={method} onChange={(e) => setMethod(e.target.value as PayoutMethod)} data-testid="payout-method">
          {PAYOUT_METHODS.map((m) => <option key={m} value={m}>{t(`payoutAccounts.method.${m}`)}</option>)}
        </select>
      </Field>
      <Field id="payout-holder" label={t('payoutAccounts.holder')} error={holder.error} help={t('payoutAccounts.holderHelp')}>
        <TextInput id="payout-holder" {...holder} autoComplete="name" maxLength={HOLDER_NAME_MAX + 16} data-testid="payout-holder" />
      </Field>
      <Field id="payout-number" label={t(`payoutAccounts.numberLabel.${method}`)} error={number.error} errorText={numberError} help={t(`payoutAccounts.numberHelp.${method}`)}>
        <TextInput
          id="payout-number"
          {...number}
          inputMode={INPUT_MODE[method]}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={300}
          placeholder={t(`payoutAccounts.numberPlaceholder.${method}`)}
          data-testid="payout-number"
        />
      </Field>
      {first ? null : (
        <label className="check-row">
          <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} data-testid="payout-default" />
          <span>{t('payoutAccounts.makeDefault')}</span>
        </label>
      )}
      <p className="hint payout-secure">{t('payoutAccounts.secureNote')}</p>
      <Button block type="submit" color="primary" size="large" loading={create.isPending} data-testid="payout-save">{t('payoutAccounts.save')}</Button>
      {onCancel ? <Button block fill="none" onClick={onCancel} data-testid="payout-cancel">{t('app.cancel')}</Button> : null}
    </form>
  );
}

function AccountItem({ account }: { account: PayoutAccount }) {
  const { t } = useTranslation();
  const setDefault = useSetDefaultPayoutAccount();
  const remove = useDeletePayoutAccount();
  const hintId = `payout-in-use-${account.id}`;
  const onDelete = async () => {
    const ok = await Dialog.confirm({
      title: t('payoutAccounts.deleteTitle'),
      content: t('payoutAccounts.deleteConfirm', { account: accountLabel(account, t) }),
      confirmText: t('payoutAccounts.delete'),
      cancelText: t('app.cancel'),
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(account.id);
      Toast.show({ icon: 'success', content: t('payoutAccounts.deleted') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  const onSetDefault = async () => {
    try {
      await setDefault.mutateAsync(account.id);
      Toast.show({ icon: 'success', content: t('payoutAccounts.defaultSet') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    }
  };
  return (
    <li className="payout-item" data-testid="payout-item" data-id={account.id} data-default={account.isDefault || undefined}>
      <div className="payout-item-main">
        <MethodIcon method={account.method} />
        <div className="payout-item-text">
          <span className="payout-item-title">
            {t(`payoutAccounts.method.${account.method}`)}
            {account.isDefault ? <span className="current-tag" data-testid="payout-default-tag">{t('payoutAccounts.default')}</span> : null}
          </span>
          <span className="payout-item-holder">{account.holderName}</span>
          <span className="payout-item-number" data-testid="payout-last4">{shownPayoutNumber(account.last4)}</span>
        </div>
      </div>
      <div className="row-actions payout-item-actions">
        {account.isDefault ? null : (
          <Button size="small" fill="outline" color="primary" loading={setDefault.isPending} onClick={onSetDefault} data-testid="payout-set-default">{t('payoutAccounts.setDefault')}</Button>
        )}
        <Button size="small" fill="outline" color="danger" disabled={account.inUse} loading={remove.isPending} onClick={onDelete} aria-describedby={account.inUse ? hintId : undefined} data-testid="payout-delete">
          {t('payoutAccounts.delete')}
        </Button>
      </div>
      {account.inUse ? <p className="hint payout-in-use" id={hintId}>{t('payoutAccounts.inUse')}</p> : null}
    </li>
  );
}

export default function PayoutAccountsPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  // Opened from the withdrawal form: go back there once an account exists.
  const returnTo = params.get('return') === 'withdraw' ? '/withdraw' : null;
  const accounts = usePayoutAccounts();
  const [adding, setAdding] = useState(params.get('add') === '1');

  const done = () => {
    setAdding(false);
    // Back to the form it came from (it refetches the accounts), or to it afresh when opened directly.
    if (returnTo) {
      if (window.history.length > 1) navigate(-1);
      else navigate(returnTo, { replace: true });
    }
  };

  const addButton = (
    <Button color="primary" fill="outline" className="empty-action" onClick={() => setAdding(true)} data-testid="payout-add">
      <AddOutline aria-hidden /> {t('payoutAccounts.add')}
    </Button>
  );
  let body;
  if (accounts.isPending) body = <PageLoading />;
  else if (accounts.isError) body = <PageError error={accounts.error} onRetry={() => accounts.refetch()} />;
  else {
    const first = accounts.data.length === 0;
    body = (
      <>
        {first ? (
          <EmptyState icon={<BankcardOutline />} title={t('payoutAccounts.emptyTitle')} body={t('payoutAccounts.emptyBody')} action={adding ? undefined : addButton} />
        ) : (
          <ul className="card payout-list" data-testid="payout-list">
            {accounts.data.map((a) => <AccountItem key={a.id} account={a} />)}
          </ul>
        )}
        {adding ? <AddForm first={first} onDone={done} onCancel={() => setAdding(false)} /> : first ? null : <div className="page-actions payout-add-row">{addButton}</div>}
      </>
    );
  }
  return (
    <div className="sub-page">
      <PageNav title={t('payoutAccounts.title')} fallback={returnTo ?? '/me'} />
      {body}
    </div>
  );
}
