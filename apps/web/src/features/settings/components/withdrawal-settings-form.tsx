import { Button, Toast } from 'antd-mobile';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '@pa/shared';
import { Field, TextInput } from '@/components/field';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { currencyMark, formatMoney } from '@/lib/format';
import { useUpdateSettings } from '../api/settings';
import { decimalSeparator, type FieldError, type FormErrors } from '@/lib/form-errors';
import {
  minimumPreview, settingsServerErrors, toSettingsPatch, unchanged, valuesFromSettings,
  type WithdrawalSettings, type WithdrawalSettingsValues,
} from '../lib/withdrawal-settings';
import { WithUnit } from '@/components/form-field';

type Key = keyof WithdrawalSettings;

/** The settings' own messages first, then the campaign editor's amount messages, then the shared field codes. */
function settingErrorText(t: TFunction, error: FieldError): string {
  return t([`admin.withdrawalSettings.errors.${error.code}`, `campaignAdmin.errors.${error.code}`, `fields.${error.code}`, 'fields.invalid'], error.values ?? {});
}

const IDS: Record<Key, string> = {
  withdrawalMin: 'settings-withdrawal-min',
  withdrawalMax: 'settings-withdrawal-max',
  withdrawalsPerDay: 'settings-withdrawals-per-day',
  withdrawalFeeBps: 'settings-withdrawal-fee-percent',
  withdrawalFeeFixed: 'settings-withdrawal-fee-fixed',
};
/** Fields checked together: the maximum's message depends on the minimum. */
const LINKED: Partial<Record<Key, Key[]>> = { withdrawalMin: ['withdrawalMax'], withdrawalMax: ['withdrawalMin'] };

/** Withdrawal limits and fee (PRODUCT.md §10), saved together. */
export function WithdrawalSettingsForm({ settings }: { settings: Settings }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const update = useUpdateSettings();
  const { currency } = settings;
  const [values, setValues] = useState<WithdrawalSettingsValues>(() => valuesFromSettings(settings, currency, decimalSeparator(locale)));
  const [errors, setErrors] = useState<FormErrors>({});
  const unit = currencyMark(currency);
  const money = (minor: number) => formatMoney(minor, currency, locale);

  /** Re-checks the given fields against the values (others keep what they show). */
  const recheck = (next: WithdrawalSettingsValues, keys: Key[]) => {
    const found = toSettingsPatch(next, currency, locale).errors ?? {};
    setErrors((e) => {
      const merged = { ...e };
      for (const k of keys) {
        if (found[k]) merged[k] = found[k];
        else delete merged[k];
      }
      return merged;
    });
  };
  const set = (key: Key, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    // Errors already shown follow the typing; new ones wait for the field to be left.
    const shown = [key, ...(LINKED[key] ?? [])].filter((k) => errors[k]);
    if (shown.length) recheck(next, shown);
  };
  const leave = (key: Key) => {
    if (values[key].trim()) recheck(values, [key, ...(LINKED[key] ?? [])]);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const result = toSettingsPatch(values, currency, locale);
    if (result.errors) {
      setErrors(result.errors);
      return;
    }
    try {
      const saved = await update.mutateAsync(result.body);
      setValues(valuesFromSettings(saved, saved.currency, decimalSeparator(locale)));
      setErrors({});
      Toast.show({ icon: 'success', content: t('app.saved') });
    } catch (error) {
      const fields = error instanceof ApiError ? settingsServerErrors(error.fields) : {};
      if (Object.keys(fields).length) setErrors(fields);
      Toast.show({ content: errorText(t, error) });
    }
  };

  const input = (key: Key, kind: 'money' | 'percent' | 'count') => {
    const id = IDS[key];
    const control = (
      <TextInput
        id={id}
        data-testid={id}
        inputMode={kind === 'count' ? 'numeric' : 'decimal'}
        autoComplete="off"
        value={values[key]}
        onChange={(v) => set(key, v)}
        onBlur={() => leave(key)}
        invalid={!!errors[key]}
      />
    );
    return (
      <Field
        id={id}
        label={t(`admin.withdrawalSettings.${key}`)}
        errorText={errors[key] ? settingErrorText(t, errors[key]) : undefined}
        help={t(`admin.withdrawalSettings.help.${key}`)}
      >
        {kind === 'count' ? control : <WithUnit unit={kind === 'money' ? unit : '%'}>{control}</WithUnit>}
      </Field>
    );
  };

  // What a withdrawal of the minimum would cost and pay out, with the values as typed.
  const preview = minimumPreview(values, currency);
  const same = unchanged(values, settings, currency, locale);

  return (
    <form className="card console-form withdrawal-settings" onSubmit={submit} noValidate data-testid="withdrawal-settings">
      <h2>{t('admin.withdrawalSettings.title')}</h2>
      <p className="hint withdrawal-settings-intro">{t('admin.withdrawalSettings.intro')}</p>
      <div className="withdrawal-settings-grid">
        {input('withdrawalMin', 'money')}
        {input('withdrawalMax', 'money')}
      </div>
      {input('withdrawalsPerDay', 'count')}
      <div className="withdrawal-settings-grid">
        {input('withdrawalFeeBps', 'percent')}
        {input('withdrawalFeeFixed', 'money')}
      </div>
      {preview ? (
        preview.net > 0 ? (
          <p className="console-share-preview" data-testid="settings-withdrawal-preview">
            {t('admin.withdrawalSettings.preview', { amount: money(preview.amount), fee: money(preview.fee), net: money(preview.net) })}
          </p>
        ) : (
          <p className="notice" data-testid="settings-withdrawal-preview">
            {t('admin.withdrawalSettings.previewNothing', { amount: money(preview.amount), fee: money(preview.fee) })}
          </p>
        )
      ) : null}
      <Button type="submit" block color="primary" loading={update.isPending} disabled={same || update.isPending} data-testid="settings-withdrawals-save">
        {t('app.save')}
      </Button>
    </form>
  );
}
