/**
 * `#/reset-password?token=…` (public): sets a password with a one-time link made by staff (a
 * password reset for a promoter, or the invitation of a new operator or admin). The rules are the
 * register page's; on success every other device is signed out and the sign-in form is filled in
 * with the account. A missing, used or expired link says so, offers a new one by e-mail (forgot
 * password) and says who to ask when the account is a phone number.
 */
import { Button } from 'antd-mobile';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPassword } from '@pa/shared/rules';
import { Field } from '@/components/field';
import { PasswordInput } from '@/components/password-input';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { Link, navigate, useSearchParams } from '@/lib/hash-router';
import { useForm, type Rules } from '@/lib/use-form';
import { useAppStore } from '@/stores/app-store';
import { AuthLayout } from '../components/auth-layout';
import { useResetPassword } from '../api/reset-password';
import './reset-password.css';

interface Values {
  password: string;
  confirm: string;
}

const rules: Rules<Values> = {
  password: (v) => checkPassword(v),
  confirm: (v, all) => (!v ? 'required' : v === all.password ? null : 'mismatch'),
};

function InvalidLink({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div className="reset-invalid" data-testid="reset-invalid">
      <p className="form-error" role="alert">{message}</p>
      {/* A used or expired link: a new one can be e-mailed straight away (the forgot-password page). */}
      <Link to="/forgot-password" className="reset-link" data-testid="reset-forgot">{t('resetPassword.newLink')}</Link>
      <p className="reset-hint">{t('resetPassword.askHint')}</p>
      <Link to="/login" className="reset-link">{t('resetPassword.toSignIn')}</Link>
    </div>
  );
}

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const params = useSearchParams();
  const token = (params.get('token') ?? '').trim();
  const reset = useResetPassword();
  const form = useForm<Values>({ password: '', confirm: '' }, useMemo(() => rules, []));
  const [formError, setFormError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [done, setDone] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    if (!form.validate() || reset.isPending) return;
    try {
      const { account } = await reset.mutateAsync({ token, password: form.values.password });
      // The sign-in form opens with the account filled in.
      useAppStore.getState().saveDraft('login', { account });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'RESET_TOKEN_INVALID') {
        setInvalid(true);
        return;
      }
      if (error instanceof ApiError) form.setErrors(error.fields);
      setFormError(errorText(t, error));
    }
  };

  if (done) {
    return (
      <AuthLayout title={t('resetPassword.doneTitle')}>
        <div className="reset-done" data-testid="reset-done" role="status">
          <CheckCircleFill className="reset-done-icon" aria-hidden />
          <p>{t('resetPassword.done')}</p>
          <p className="reset-hint">{t('resetPassword.signedOut')}</p>
        </div>
        <div className="form">
          <Button block color="primary" size="large" onClick={() => navigate('/login')} data-testid="reset-sign-in">{t('resetPassword.signIn')}</Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t(!token || invalid ? 'resetPassword.invalidTitle' : 'resetPassword.title')}>
      {!token || invalid ? <InvalidLink message={t('errors.RESET_TOKEN_INVALID')} /> : (
        <form className="form" onSubmit={onSubmit} noValidate>
          <p className="reset-intro">{t('resetPassword.intro')}</p>
          {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
          <div data-testid="reset-password">
            <Field id="reset-new" label={t('resetPassword.password')} error={form.errors.password} help={t('auth.passwordHint')}>
              <PasswordInput id="reset-new" {...form.field('password')} placeholder={t('auth.newPasswordPlaceholder')} autoComplete="new-password" />
            </Field>
          </div>
          <div data-testid="reset-confirm">
            <Field id="reset-repeat" label={t('resetPassword.confirm')} error={form.errors.confirm}>
              <PasswordInput id="reset-repeat" {...form.field('confirm')} autoComplete="new-password" />
            </Field>
          </div>
          <Button block type="submit" color="primary" size="large" loading={reset.isPending} data-testid="reset-submit">{t('resetPassword.submit')}</Button>
        </form>
      )}
    </AuthLayout>
  );
}
