/**
 * `#/verify-email?token=…` (public: the mail may be opened in another browser): uses the link
 * mailed by Me → E-mail address once, and says whether the address is now the person's.
 */
import { Button } from 'antd-mobile';
import { CheckCircleFill } from 'antd-mobile-icons';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_SLOT, withEmail } from '@/components/email-text';
import { errorText } from '@/lib/errors';
import { navigate, useSearchParams } from '@/lib/hash-router';
import { useAppStore } from '@/stores/app-store';
import { AuthLayout } from '../components/auth-layout';
import { useVerifyEmail } from '../api/verify-email';
import './reset-password.css';

export default function VerifyEmailPage() {
  const { t } = useTranslation();
  const token = (useSearchParams().get('token') ?? '').trim();
  const verify = useVerifyEmail();
  const asked = useRef(false);
  const signedIn = useAppStore((s) => s.user !== null);
  useEffect(() => {
    // Once (StrictMode mounts twice): the link works once.
    if (!token || asked.current) return;
    asked.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  const next = (
    <div className="form">
      <Button block color="primary" size="large" onClick={() => navigate(signedIn ? '/me' : '/login')} data-testid="verify-next">
        {t(signedIn ? 'verifyEmail.toMe' : 'resetPassword.toSignIn')}
      </Button>
    </div>
  );
  if (verify.isSuccess) {
    return (
      <AuthLayout title={t('verifyEmail.verifiedTitle')}>
        <div className="reset-done" data-testid="verify-done" role="status">
          <CheckCircleFill className="reset-done-icon" aria-hidden />
          <p>{withEmail(t('verifyEmail.verified', { email: EMAIL_SLOT }), verify.data.email)}</p>
        </div>
        {next}
      </AuthLayout>
    );
  }
  if (!token || verify.isError) {
    return (
      <AuthLayout title={t('verifyEmail.failedTitle')}>
        <div className="reset-invalid" data-testid="verify-invalid">
          <p className="form-error" role="alert">{token ? errorText(t, verify.error) : t('errors.RESET_TOKEN_INVALID')}</p>
          <p className="reset-hint">{t('verifyEmail.askAgain')}</p>
        </div>
        {next}
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('verifyEmail.verifying')}>
      <p className="reset-intro" role="status">{t('verifyEmail.verifying')}</p>
    </AuthLayout>
  );
}
