import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { appName } from '@/i18n';
import type { Locale } from '@pa/shared/locales';
import { LanguageQuickSwitch } from './language-quick-switch';

export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  return (
    <main className="auth-page">
      <header className="auth-brand">
        <LanguageQuickSwitch />
        <img src="./icon.svg" alt="" width={56} height={56} />
        <p className="auth-app-name">{appName(i18n.language as Locale)}</p>
        <p className="auth-tagline">{t('auth.tagline')}</p>
      </header>
      <section className="auth-card">
        <h1>{title}</h1>
        {children}
      </section>
    </main>
  );
}
