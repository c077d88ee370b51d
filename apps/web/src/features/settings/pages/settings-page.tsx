import { Radio, Space, Switch, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import type { RegistrationMode } from '@pa/shared';
import { PageNav } from '@/components/page-nav';
import { PageError, PageLoading } from '@/components/page-status';
import { errorText } from '@/lib/errors';
import { useSettings, useUpdateSettings } from '../api/settings';
import { CurrencySetting, TimeZoneSetting } from '../components/region-settings';
import { WithdrawalSettingsForm } from '../components/withdrawal-settings-form';
import { QuestionsEditor } from '@/components/questions-editor';
import { useRegistrationForm, useSaveRegistrationForm } from '../api/application-form';
import '../settings.css';

const MODES: RegistrationMode[] = ['open', 'approval', 'invite-only'];

/** The registration's own questions (issue 31), asked while registration needs approval. */
function RegistrationQuestions({ mode }: { mode: RegistrationMode }) {
  const { t } = useTranslation();
  const form = useRegistrationForm();
  const save = useSaveRegistrationForm();
  return (
    <section className="card" aria-labelledby="settings-questions-title" data-testid="settings-questions">
      <h2 id="settings-questions-title">{t('admin.applicationForm.title')}</h2>
      <p className="radio-desc settings-questions-help">{t('admin.applicationForm.help')}</p>
      {mode !== 'approval' ? <p className="notice settings-questions-note" data-testid="settings-questions-off">{t('admin.applicationForm.notAsked')}</p> : null}
      {form.isPending ? <PageLoading /> : form.isError ? <PageError error={form.error} onRetry={() => void form.refetch()} /> : (
        <QuestionsEditor questions={form.data.questions} save={(body) => save.mutateAsync(body)} idPrefix="registration-questions" />
      )}
    </section>
  );
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const settings = useSettings();
  const update = useUpdateSettings();
  return (
    <div className="sub-page settings-page">
      <PageNav title={t('admin.settings')} fallback="/me" />
      {settings.isPending ? <PageLoading /> : settings.isError ? <PageError error={settings.error} onRetry={() => settings.refetch()} /> : (
        <>
          <section className="card">
            <h2>{t('admin.registrationMode')}</h2>
            <Radio.Group
              value={settings.data.registrationMode}
              onChange={async (value) => {
                try {
                  await update.mutateAsync({ registrationMode: value as RegistrationMode });
                  Toast.show({ icon: 'success', content: t('app.saved') });
                } catch (error) {
                  Toast.show({ content: errorText(t, error) });
                }
              }}
            >
              <Space direction="vertical" block>
                {MODES.map((mode) => (
                  <Radio key={mode} value={mode} block data-testid={`mode-${mode}`}>
                    <span className="radio-title">{t(`admin.modes.${mode}`)}</span>
                    <span className="radio-desc">{t(`admin.modeHelp.${mode}`)}</span>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </section>
          <RegistrationQuestions mode={settings.data.registrationMode} />
          <CurrencySetting key={`currency-${settings.data.currency}`} settings={settings.data} />
          <TimeZoneSetting settings={settings.data} />
          {typeof settings.data.withdrawalMin === 'number' ? <WithdrawalSettingsForm key={`withdrawals-${settings.data.currency}`} settings={settings.data} /> : null}
          <section className="card" aria-labelledby="settings-leaderboard-title">
            <h2 id="settings-leaderboard-title">{t('leaderboard.adminTitle')}</h2>
            <div className="settings-switch-row">
              <div className="settings-switch-text">
                <p id="settings-leaderboard-label" className="radio-title">{t('leaderboard.adminSwitch')}</p>
                <p className="radio-desc">{t('leaderboard.adminHelp')}</p>
              </div>
              <Switch
                checked={settings.data.leaderboardEnabled}
                loading={update.isPending && update.variables?.leaderboardEnabled !== undefined}
                aria-labelledby="settings-leaderboard-label"
                data-testid="settings-leaderboard"
                onChange={async (enabled) => {
                  try {
                    await update.mutateAsync({ leaderboardEnabled: enabled });
                    Toast.show({ icon: 'success', content: t('app.saved') });
                  } catch (error) {
                    Toast.show({ content: errorText(t, error) });
                  }
                }}
              />
            </div>
          </section>
        </>
      )}
    </div>
  );
}
