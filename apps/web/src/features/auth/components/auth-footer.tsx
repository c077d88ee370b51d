import { useTranslation } from 'react-i18next';
import { Link } from '@/lib/hash-router';

/** Below the sign-in and register forms: why the password is safe, and the way to the other form. */
export function AuthFooter({ question, to, label }: { question: string; to: string; label: string }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="secure-note">{t('auth.secureNote')}</p>
      <p className="auth-switch">
        {question} <Link to={to}>{label}</Link>
      </p>
    </>
  );
}
