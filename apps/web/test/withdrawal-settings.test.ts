import { describe, expect, it } from 'vitest';
import { minimumPreview, settingsServerErrors, toSettingsPatch, unchanged, valuesFromSettings, type WithdrawalSettings } from '../src/features/settings/lib/withdrawal-settings';

const defaults: WithdrawalSettings = { withdrawalMin: 1000, withdrawalMax: 5_000_000, withdrawalsPerDay: 3, withdrawalFeeBps: 0, withdrawalFeeFixed: 0 };

describe('withdrawal settings editor', () => {
  it('shows stored minor units and basis points as typed text, in the reader’s decimal separator', () => {
    expect(valuesFromSettings(defaults, 'CNY')).toEqual({ withdrawalMin: '10', withdrawalMax: '50000', withdrawalsPerDay: '3', withdrawalFeeBps: '0', withdrawalFeeFixed: '0' });
    expect(valuesFromSettings({ ...defaults, withdrawalFeeBps: 150, withdrawalFeeFixed: 250 }, 'EUR', ',')).toMatchObject({ withdrawalMin: '10', withdrawalFeeBps: '1,5', withdrawalFeeFixed: '2,50' });
    expect(valuesFromSettings({ ...defaults, withdrawalMin: 1500 }, 'JPY').withdrawalMin).toBe('1500');
  });

  it('turns the inputs back into exact integers', () => {
    const r = toSettingsPatch({ withdrawalMin: '12,5', withdrawalMax: '50000', withdrawalsPerDay: ' 5 ', withdrawalFeeBps: '1.25', withdrawalFeeFixed: '0.5' }, 'CNY', 'en');
    expect(r.body).toEqual({ withdrawalMin: 1250, withdrawalMax: 5_000_000, withdrawalsPerDay: 5, withdrawalFeeBps: 125, withdrawalFeeFixed: 50 });
    expect(toSettingsPatch(valuesFromSettings(defaults, 'CNY'), 'CNY', 'en').body).toEqual(defaults);
  });

  it('refuses a maximum below the minimum, naming the minimum', () => {
    const r = toSettingsPatch({ ...valuesFromSettings(defaults, 'CNY'), withdrawalMin: '100', withdrawalMax: '99.99' }, 'CNY', 'en');
    expect(r.errors).toEqual({ withdrawalMax: { code: 'maxBelowMin', values: { min: 'CN¥100.00' } } });
    expect(toSettingsPatch({ ...valuesFromSettings(defaults, 'CNY'), withdrawalMin: '100', withdrawalMax: '100' }, 'CNY', 'en').body?.withdrawalMax).toBe(10_000);
  });

  it('refuses a maximum of 0 (every withdrawal would be above it), as the server does', () => {
    const r = toSettingsPatch({ ...valuesFromSettings(defaults, 'CNY'), withdrawalMin: '0', withdrawalMax: '0' }, 'CNY', 'en');
    expect(r.errors?.withdrawalMax).toEqual({ code: 'maxZero' });
    expect(settingsServerErrors({ withdrawalMax: 'too_small' })).toEqual({ withdrawalMax: { code: 'maxZero' } });
  });

  it('checks each field like the server does', () => {
    const r = toSettingsPatch({ withdrawalMin: '', withdrawalMax: '-1', withdrawalsPerDay: '101', withdrawalFeeBps: '100.01', withdrawalFeeFixed: '1.234' }, 'CNY', 'en');
    expect(r.errors).toEqual({
      withdrawalMin: { code: 'required' },
      withdrawalMax: { code: 'negative' },
      withdrawalsPerDay: { code: 'range', values: { min: '1', max: '100' } },
      withdrawalFeeBps: { code: 'tooLarge', values: { max: '100%' } },
      withdrawalFeeFixed: { code: 'decimals', values: { digits: 2 } },
    });
    expect(toSettingsPatch({ ...valuesFromSettings(defaults, 'CNY'), withdrawalsPerDay: '0' }, 'CNY', 'en').errors?.withdrawalsPerDay?.code).toBe('range');
    expect(toSettingsPatch({ ...valuesFromSettings(defaults, 'CNY'), withdrawalsPerDay: '2.5' }, 'CNY', 'en').errors?.withdrawalsPerDay?.code).toBe('range');
    expect(toSettingsPatch({ ...valuesFromSettings(defaults, 'JPY'), withdrawalFeeFixed: '1.5' }, 'JPY', 'en').errors?.withdrawalFeeFixed?.code).toBe('noDecimals');
  });

  it('knows when nothing changed, and maps the server’s field errors', () => {
    expect(unchanged(valuesFromSettings(defaults, 'CNY'), defaults, 'CNY', 'en')).toBe(true);
    expect(unchanged({ ...valuesFromSettings(defaults, 'CNY'), withdrawalMin: '10' }, defaults, 'CNY', 'en')).toBe(true);
    expect(unchanged({ ...valuesFromSettings(defaults, 'CNY'), withdrawalsPerDay: '4' }, defaults, 'CNY', 'en')).toBe(false);
    expect(settingsServerErrors({ withdrawalMax: 'invalid', other: 'x' })).toEqual({ withdrawalMax: { code: 'invalid' } });
  });

  it('previews what the minimum withdrawal pays out, with the shared fee rule', () => {
    expect(minimumPreview({ ...valuesFromSettings(defaults, 'CNY'), withdrawalFeeBps: '1', withdrawalFeeFixed: '0.5' }, 'CNY')).toEqual({ amount: 1000, fee: 60, net: 940 });
    expect(minimumPreview({ ...valuesFromSettings(defaults, 'CNY'), withdrawalFeeFixed: '10' }, 'CNY')).toEqual({ amount: 1000, fee: 1000, net: 0 });
    expect(minimumPreview({ ...valuesFromSettings(defaults, 'CNY'), withdrawalMin: 'x' }, 'CNY')).toBeNull();
  });
});
