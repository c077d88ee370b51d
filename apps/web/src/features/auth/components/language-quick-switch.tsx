import { GlobalOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@pa/shared/locales';
import { useChangeLocale } from '@/lib/locale';

/** Language picker on the sign-in screens, before anyone has an account. */
export function LanguageQuickSwitch() {
  const { t, i18n } = useTranslation();
  const change = useChangeLocale();
  return (
    <label className="lang-switch">
      <GlobalOutline aria-hidden />
      <span className="visually-hidden">{t('app.language')}</span>
      <select value={i18n.language} onChange={(e) => change.mutate(e.target.value as Locale)} data-testid="auth-language">
        {LOCALES.map((l) => (
          <option key={l} value={l}>{t(`languages.${l}`)}</option>
        ))}
      </select>
    </label>
  );
}
