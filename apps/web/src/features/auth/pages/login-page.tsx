import { Button } from 'antd-mobile';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkAccount } from '@pa/shared/rules';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { Link, useNavigate, useSearchParams } from '@/lib/hash-router';
import { useForm } from '@/lib/use-form';
import { useAppStore } from '@/stores/app-store';
import { Field, TextInput } from '@/components/field';
import { PasswordInput } from '@/components/password-input';
import { AuthFooter } from '../components/auth-footer';
import { AuthLayout } from '../components/auth-layout';
import { useLogin } from '../api/login';

/** Only in-app paths are accepted as a return path (no open redirect through `next`). */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

const rules = {
  account: (v: string) => checkAccount(v),
  password: (v: string) => (v ? null : 'required' as const),
};

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useSearchParams();
  const login = useLogin();
  const draft = useAppStore((s) => s.drafts.login);
  const saveDraft = useAppStore((s) => s.saveDraft);
  const rememberAccount = useAppStore((s) => s.preferences.rememberAccount);
  const setPreference = useAppStore((s) => s.setPreference);
  const form = useForm({ account: draft?.account ?? '', password: '' }, rules);
  const [formError, setFormError] = useState<string | null>(params.get('expired') ? t('auth.sessionExpired') : null);
  const account = form.field('account');
  const password = form.field('password');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate()) return;
    try {
      await login.mutateAsync(form.values);
      if (!useAppStore.getState().preferences.rememberAccount) useAppStore.getState().clearDraft('login');
      navigate(safeNext(params.get('next')), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ACCOUNT_PENDING') {
        navigate('/pending', { replace: true });
        return;
      }
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  return (
    <AuthLayout title={t('auth.signInTitle')}>
      <form className="form" onSubmit={onSubmit} noValidate>
        {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
        <Field id="account" label={t('auth.account')} error={account.error}>
          <TextInput
            id="account"
            {...account}
            onChange={(v) => {
              account.onChange(v);
              if (rememberAccount) saveDraft('login', { account: v });
            }}
           
            placeholder={t('auth.accountPlaceholder')}
            autoComplete="username"
            inputMode="email"
            autoCapitalize="off"
          />
        </Field>
        <Field id="password" label={t('auth.password')} error={password.error}>
          <PasswordInput id="password" {...password} placeholder={t('auth.passwordPlaceholder')} autoComplete="current-password" />
        </Field>
        <p className="login-forgot">
          <Link to={form.values.account.trim() ? `/forgot-password?account=${encodeURIComponent(form.values.account.trim())}` : '/forgot-password'} data-testid="forgot-password">{t('auth.forgotPassword')}</Link>
        </p>
        <label className="check-row">
          <input
            type="checkbox"
            checked={rememberAccount}
            data-testid="remember-account"
            onChange={(e) => {
              setPreference('rememberAccount', e.target.checked);
              if (e.target.checked) saveDraft('login', { account: form.values.account });
              else useAppStore.getState().clearDraft('login');
            }}
          />
          <span>{t('auth.rememberAccount')}</span>
        </label>
        <Button block type="submit" color="primary" size="large" loading={login.isPending} data-testid="login-submit">
          {t('auth.signIn')}
        </Button>
      </form>
      <AuthFooter question={t('auth.noAccount')} to="/register" label={t('auth.createAccount')} />
    </AuthLayout>
  );
}
