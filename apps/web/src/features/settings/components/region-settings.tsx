/**
 * The installation's currency and the time zone of its per-day figures (admin settings). The
 * currency can change only until money has moved; a new time zone recomputes every daily figure
 * on the server, so it is confirmed first.
 */
import { Button, Dialog, Toast } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminSettings } from '@pa/shared';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { formatTime } from '@/lib/format';
import { useUpdateSettings } from '../api/settings';
import { currencies, currencyLabel, searchZones, timeZones, utcOffset, zoneLabel } from '../lib/settings-zone';

/** The server's field code for a setting as the reader's sentence (its own words for `conflict`). */
function useFieldError() {
  const { t } = useTranslation();
  return (error: unknown, field: 'currency' | 'timeZone'): string | null => {
    if (!(error instanceof ApiError)) return null;
    const code = error.fields[field];
    if (!code) return null;
    return t([`admin.regionSettings.errors.${field}.${code}`, `fields.${code}`, 'fields.invalid']);
  };
}

export function CurrencySetting({ settings }: { settings: AdminSettings }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateSettings();
  const fieldError = useFieldError();
  const [value, setValue] = useState(settings.currency);
  const [error, setError] = useState<string | null>(null);
  const options = useMemo(() => {
    const list = currencies();
    const all = list.includes(settings.currency) ? list : [settings.currency, ...list];
    return all.map((code) => ({ code, label: currencyLabel(code, i18n.language) }));
  }, [settings.currency, i18n.language]);
  const locked = settings.currencyLocked;

  const save = async () => {
    setError(null);
    try {
      await update.mutateAsync({ currency: value });
      Toast.show({ icon: 'success', content: t('app.saved') });
    } catch (e) {
      const text = fieldError(e, 'currency');
      setError(text);
      if (!text) Toast.show({ content: errorText(t, e) });
    }
  };

  return (
    <section className="card settings-region" aria-labelledby="settings-currency-title" data-testid="settings-currency">
      <h2 id="settings-currency-title">{t('admin.regionSettings.currency')}</h2>
      <div className={`field${error ? ' field-invalid' : ''}`}>
        <label htmlFor="settings-currency-select">{t('admin.regionSettings.currencyLabel')}</label>
        <select
          id="settings-currency-select"
          className="text-input settings-select"
          value={locked ? settings.currency : value}
          disabled={locked || update.isPending}
          aria-describedby="settings-currency-msg"
          onChange={(e) => { setValue(e.target.value); setError(null); }}
          data-testid="settings-currency-select"
        >
          {options.map((o) => <option key={o.code} value={o.code}>{o.label}</option>)}
        </select>
        {error ? (
          <p className="field-error" id="settings-currency-msg" role="alert" data-testid="settings-currency-error">{error}</p>
        ) : (
          <p className="field-help" id="settings-currency-msg" data-testid={locked ? 'settings-currency-locked' : undefined}>
            {locked ? t('admin.regionSettings.currencyLocked', { currency: settings.currency }) : t('admin.regionSettings.currencyHelp')}
          </p>
        )}
      </div>
      {locked ? null : (
        <Button block color="primary" loading={update.isPending} disabled={value === settings.currency || update.isPending} onClick={() => void save()} data-testid="settings-currency-save">
          {t('app.save')}
        </Button>
      )}
    </section>
  );
}

/** Matches shown at most: typing narrows them (no list scrolling inside the page). */
const SHOWN_MAX = 8;

/** Before anything is typed: the zone of this browser, the installation's default and UTC. */
function suggestions(settings: AdminSettings): string[] {
  const own = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return [...new Set([own, settings.defaultTimeZone, 'UTC'])].filter((z) => z && z !== settings.timeZone);
}

export function TimeZoneSetting({ settings }: { settings: AdminSettings }) {
  const { t, i18n } = useTranslation();
  const update = useUpdateSettings();
  const fieldError = useFieldError();
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [now] = useState(() => Date.now());
  const zones = useMemo(() => timeZones(), []);
  const matches = useMemo(() => searchZones(zones, query, now), [zones, query, now]);
  const current = settings.timeZone;
  const typed = query.trim() !== '';
  const shown = typed ? matches.slice(0, SHOWN_MAX) : suggestions(settings);

  const choose = async (zone: string) => {
    if (zone === current || update.isPending) return;
    const confirmed = await Dialog.confirm({
      title: t('admin.regionSettings.confirmTitle', { zone: zoneLabel(zone) }),
      content: t('admin.regionSettings.confirmBody', { from: zoneLabel(current), to: zoneLabel(zone) }),
      confirmText: t('admin.regionSettings.confirmButton'),
      cancelText: t('app.cancel'),
    });
    if (!confirmed) return;
    setError(null);
    try {
      await update.mutateAsync({ timeZone: zone });
      setQuery('');
      Toast.show({ icon: 'success', content: t('admin.regionSettings.zoneSaved') });
    } catch (e) {
      const text = fieldError(e, 'timeZone');
      setError(text);
      if (!text) Toast.show({ content: errorText(t, e) });
    }
  };

  return (
    <section className="card settings-region" aria-labelledby="settings-zone-title" data-testid="settings-time-zone">
      <h2 id="settings-zone-title">{t('admin.regionSettings.timeZone')}</h2>
      <p className="hint settings-zone-intro">{t('admin.regionSettings.timeZoneHelp')}</p>
      <div className="settings-zone-current" data-testid="settings-zone-current">
        <span className="settings-zone-name">{zoneLabel(current)}</span>
        <span className="settings-zone-meta">
          {current === 'UTC' ? null : `${utcOffset(current, now)} · `}{t('admin.regionSettings.localTime', { time: formatTime(now, i18n.language, current) })}
          {current === settings.defaultTimeZone ? ` · ${t('admin.regionSettings.isDefault')}` : null}
        </span>
      </div>
      {current !== settings.defaultTimeZone ? (
        <p className="hint settings-zone-default">
          {t('admin.regionSettings.defaultIs', { zone: zoneLabel(settings.defaultTimeZone) })}{' '}
          <button type="button" className="text-button settings-zone-reset" onClick={() => void choose(settings.defaultTimeZone)} disabled={update.isPending} data-testid="settings-zone-default">
            {t('admin.regionSettings.useDefault')}
          </button>
        </p>
      ) : null}
      <div className={`field settings-zone-search${error ? ' field-invalid' : ''}`}>
        <label htmlFor="settings-zone-query">{t('admin.regionSettings.search')}</label>
        <input
          id="settings-zone-query"
          className="text-input"
          type="search"
          value={query}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          placeholder={t('admin.regionSettings.searchPlaceholder')}
          aria-controls="settings-zone-list"
          aria-describedby="settings-zone-msg"
          onChange={(e) => setQuery(e.target.value)}
          data-testid="settings-zone-query"
        />
        {error ? (
          <p className="field-error" id="settings-zone-msg" role="alert" data-testid="settings-zone-error">{error}</p>
        ) : (
          <p className="field-help" id="settings-zone-msg" aria-live="polite">
            {typed ? t('admin.regionSettings.matches', { count: matches.length }) : t('admin.regionSettings.suggested')}
          </p>
        )}
      </div>
      <ul id="settings-zone-list" className="settings-zone-list" aria-label={t('admin.regionSettings.timeZone')} data-testid="settings-zone-list">
        {shown.map((zone) => (
          <li key={zone}>
            <button
              type="button"
              className={`settings-zone-option${zone === current ? ' settings-zone-on' : ''}`}
              aria-current={zone === current ? 'true' : undefined}
              disabled={update.isPending}
              onClick={() => void choose(zone)}
              data-testid={`settings-zone-${zone}`}
            >
              <span className="settings-zone-option-name">{zoneLabel(zone)}</span>
              <span className="settings-zone-option-offset">{utcOffset(zone, now)}</span>
              {zone === current ? <CheckOutline className="settings-zone-check" aria-hidden /> : null}
            </button>
          </li>
        ))}
        {typed && matches.length === 0 ? <li className="settings-zone-none">{t('admin.regionSettings.noZone')}</li> : null}
        {typed && matches.length > SHOWN_MAX ? <li className="settings-zone-none">{t('admin.regionSettings.narrow', { count: matches.length - SHOWN_MAX })}</li> : null}
      </ul>
    </section>
  );
}
