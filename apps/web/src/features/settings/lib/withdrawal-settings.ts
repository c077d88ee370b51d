/**
 * The withdrawal settings editor's model (PRODUCT.md §10): limits and the fixed fee typed in major
 * units and stored in minor units, the fee rate typed in percent and stored in basis points,
 * the daily count as a whole number. Checked the way the server checks them (SettingsPatchSchema),
 * plus minimum ≤ maximum; error keys are the settings' own names, so the server's field errors
 * land on the same inputs.
 */
import type { Settings } from '@pa/shared';
import { WITHDRAWAL_SETTING_MONEY_MAX, WITHDRAWALS_PER_DAY, withdrawalFee } from '@pa/shared/rules';
import { formatMoney, formatNumber } from '@/lib/format';
import { bpsToPercentText, minorToInputText, parseMoneyInput, parsePercentToBps, amountFieldError } from '@/lib/money-input';
import type { FormErrors } from '@/lib/form-errors';

/** The settings schemas' bounds: money settings in minor units, the daily count. */
export const SETTING_MONEY_MAX = WITHDRAWAL_SETTING_MONEY_MAX;
export const PER_DAY = WITHDRAWALS_PER_DAY;

export type WithdrawalSettings = Pick<Settings, 'withdrawalMin' | 'withdrawalMax' | 'withdrawalsPerDay' | 'withdrawalFeeBps' | 'withdrawalFeeFixed'>;
export type WithdrawalSettingsValues = Record<keyof WithdrawalSettings, string>;
const WITHDRAWAL_SETTING_KEYS: (keyof WithdrawalSettings)[] = ['withdrawalMin', 'withdrawalMax', 'withdrawalsPerDay', 'withdrawalFeeBps', 'withdrawalFeeFixed'];

/** The inputs' text for the stored settings, with the reader's decimal separator. */
export function valuesFromSettings(s: WithdrawalSettings, currency: string, decimal = '.'): WithdrawalSettingsValues {
  const money = (minor: number) => minorToInputText(minor, currency).replace('.', decimal);
  return {
    withdrawalMin: money(s.withdrawalMin),
    withdrawalMax: money(s.withdrawalMax),
    withdrawalsPerDay: String(s.withdrawalsPerDay),
    withdrawalFeeBps: bpsToPercentText(s.withdrawalFeeBps).replace('.', decimal),
    withdrawalFeeFixed: money(s.withdrawalFeeFixed),
  };
}

/** Checks every input and builds the PATCH body. `locale` only formats the limits quoted in messages. */
export function toSettingsPatch(v: WithdrawalSettingsValues, currency: string, locale: string): { body: WithdrawalSettings; errors?: undefined } | { body?: undefined; errors: FormErrors } {
  const errors: FormErrors = {};
  const money = (field: keyof WithdrawalSettings) => {
    const r = parseMoneyInput(v[field], currency, SETTING_MONEY_MAX);
    if (r.ok) return r.value;
    errors[field] = amountFieldError(r, formatMoney(SETTING_MONEY_MAX, currency, locale));
    return 0;
  };

  const withdrawalMin = money('withdrawalMin');
  const withdrawalMax = money('withdrawalMax');
  // As the server: a maximum of 0 would refuse every withdrawal.
  if (!errors.withdrawalMax && withdrawalMax === 0) errors.withdrawalMax = { code: 'maxZero' };
  if (!errors.withdrawalMin && !errors.withdrawalMax && withdrawalMin > withdrawalMax) {
    errors.withdrawalMax = { code: 'maxBelowMin', values: { min: formatMoney(withdrawalMin, currency, locale) } };
  }

  let withdrawalsPerDay = 0;
  const count = v.withdrawalsPerDay.normalize('NFKC').trim();
  if (!count) errors.withdrawalsPerDay = { code: 'required' };
  else if (!/^\d+$/.test(count) || Number(count) < PER_DAY.min || Number(count) > PER_DAY.max) {
    errors.withdrawalsPerDay = { code: 'range', values: { min: formatNumber(PER_DAY.min, locale), max: formatNumber(PER_DAY.max, locale) } };
  } else withdrawalsPerDay = Number(count);

  const rate = parsePercentToBps(v.withdrawalFeeBps);
  const withdrawalFeeBps = rate.ok ? rate.value : 0;
  if (!rate.ok) errors.withdrawalFeeBps = amountFieldError(rate, new Intl.NumberFormat(locale, { style: 'percent' }).format(1));

  const withdrawalFeeFixed = money('withdrawalFeeFixed');

  if (Object.keys(errors).length > 0) return { errors };
  return { body: { withdrawalMin, withdrawalMax, withdrawalsPerDay, withdrawalFeeBps, withdrawalFeeFixed } };
}

/** Whether the inputs would save exactly the stored settings. */
export function unchanged(v: WithdrawalSettingsValues, s: WithdrawalSettings, currency: string, locale: string): boolean {
  const r = toSettingsPatch(v, currency, locale);
  return !!r.body && WITHDRAWAL_SETTING_KEYS.every((k) => r.body[k] === s[k]);
}

/** The server's field errors (`withdrawalMax: "invalid"` is its minimum-above-maximum check, `too_small` a maximum of 0). */
export function settingsServerErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    if ((WITHDRAWAL_SETTING_KEYS as string[]).includes(path)) errors[path] = { code: path === 'withdrawalMax' && code === 'too_small' ? 'maxZero' : code };
  }
  return errors;
}

/** What a withdrawal of the minimum would cost and pay out with the values as typed; null while those inputs are invalid. */
export function minimumPreview(v: WithdrawalSettingsValues, currency: string): { amount: number; fee: number; net: number } | null {
  const min = parseMoneyInput(v.withdrawalMin, currency, SETTING_MONEY_MAX);
  const bps = parsePercentToBps(v.withdrawalFeeBps);
  const fixed = parseMoneyInput(v.withdrawalFeeFixed, currency, SETTING_MONEY_MAX);
  if (!min.ok || !bps.ok || !fixed.ok) return null;
  const fee = withdrawalFee(min.value, { feeBps: bps.value, feeFixed: fixed.value });
  return { amount: min.value, fee, net: min.value - fee };
}
