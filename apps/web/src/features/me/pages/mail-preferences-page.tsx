/**
 * `#/me/mail` (everyone signed in): which e-mails to receive, one switch per category of the
 * person's role (as the server lists them). Says so when this installation sends no e-mail, or
 * when the account is a phone number; the choices are kept either way.
 */
import { List, Switch, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MailCategory } from '@pa/shared';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { errorText } from '@/lib/errors';
import { useMailPreferences, useSetMailPreference } from '../api/mail-preferences';

export default function MailPreferencesPage() {
  const { t } = useTranslation();
  const prefs = useMailPreferences();
  const set = useSetMailPreference();
  const [busy, setBusy] = useState<MailCategory | null>(null);

  const change = async (category: MailCategory, enabled: boolean) => {
    setBusy(category);
    try {
      await set.mutateAsync({ category, enabled });
      Toast.show({ icon: 'success', content: t('app.saved') });
    } catch (error) {
      Toast.show({ content: errorText(t, error) });
    } finally {
      setBusy(null);
    }
  };

  let content;
  if (prefs.isPending) content = <PageLoading />;
  else if (prefs.isError) content = <PageError error={prefs.error} onRetry={() => void prefs.refetch()} />;
  else {
    const { mailEnabled, hasAddress, items } = prefs.data;
    content = (
      <>
        <p className="mail-prefs-intro">{t('mailPrefs.intro')}</p>
        {!mailEnabled ? <p className="notice mail-prefs-notice" data-testid="mail-prefs-off">{t('mailPrefs.mailOff')}</p> : null}
        {mailEnabled && !hasAddress ? <p className="notice mail-prefs-notice" data-testid="mail-prefs-no-address">{t('mailPrefs.noAddress')}</p> : null}
        <List className="mail-prefs" data-testid="mail-prefs">
          {items.map(({ category, enabled }) => (
            <List.Item
              key={category}
              description={t(`mailPrefs.categories.${category}.description`)}
              extra={
                <Switch
                  checked={enabled}
                  loading={busy === category}
                  disabled={busy !== null}
                  aria-label={t(`mailPrefs.categories.${category}.label`)}
                  onChange={(on) => void change(category, on)}
                  data-testid={`mail-pref-${category}`}
                />
              }
            >
              {t(`mailPrefs.categories.${category}.label`)}
            </List.Item>
          ))}
        </List>
        <p className="mail-prefs-always">{t('mailPrefs.always')}</p>
      </>
    );
  }
  return (
    <div className="sub-page">
      <PageNav title={t('mailPrefs.title')} fallback="/me" />
      {content}
    </div>
  );
}
