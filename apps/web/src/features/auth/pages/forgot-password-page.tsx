/**
 * `#/forgot-password` (public): asks for the account and has a one-time link e-mailed to it. The
 * answer is the same whether or not the account exists (nobody learns who has one); accounts
 * registered with a phone number get no mail and are told to ask the program's operator.
 */
import { Button } from 'antd-mobile';
import { MailOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAccount } from '@pa/shared/rules';
import { Field, TextInput } from '@/components/field';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { Link, useSearchParams } from '@/lib/hash-router';
import { useForm, type Rules } from '@/lib/use-form';
import { useAppStore } from '@/stores/app-store';
import { AuthLayout } from '../components/auth-layout';
import { useForgotPassword } from '../api/forgot-password';
import './reset-password.css';

interface Values { account: string }
const rules: Rules<Values> = { account: (v) => checkAccount(v) };

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const params = useSearchParams();
  // The account typed on the sign-in form (it passes it along), else the one remembered there.
  const form = useForm<Values>({ account: params.get('account') ?? useAppStore.getState().drafts.login?.account ?? '' }, rules);
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const account = form.field('account');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate() || forgot.isPending) return;
    try {
      await forgot.mutateAsync({ account: form.values.account.trim() });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  if (sent) {
    return (
      <AuthLayout title={t('forgotPassword.sentTitle')}>
        <div className="reset-done" data-testid="forgot-sent" role="status">
          <MailOutline className="reset-done-icon forgot-icon" aria-hidden />
          <p>{t('forgotPassword.sent')}</p>
          <p className="reset-hint">{t('forgotPassword.sentHint')}</p>
          <p className="reset-hint">{t('forgotPassword.phoneHint')}</p>
        </div>
        <div className="forgot-links">
          <Link to="/login" className="reset-link" data-testid="forgot-to-sign-in">{t('resetPassword.toSignIn')}</Link>
          <button type="button" className="text-button" onClick={() => setSent(false)} data-testid="forgot-again">{t('forgotPassword.again')}</button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('forgotPassword.title')}>
      <form className="form" onSubmit={onSubmit} noValidate>
        <p className="reset-intro">{t('forgotPassword.intro')}</p>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
        <Field id="account" label={t('auth.account')} error={account.error}>
          <TextInput id="account" {...account} placeholder={t('auth.accountPlaceholder')} autoComplete="username" inputMode="email" autoCapitalize="off" spellCheck={false} />
        </Field>
        <p className="reset-hint">{t('forgotPassword.phoneHint')}</p>
        <Button block type="submit" color="primary" size="large" loading={forgot.isPending} data-testid="forgot-submit">{t('forgotPassword.submit')}</Button>
      </form>
      <p className="auth-switch">
        <Link to="/login" data-testid="forgot-back">{t('auth.backToSignIn')}</Link>
      </p>
    </AuthLayout>
  );
}
