/**
 * The campaign editor's model: what the inputs hold (text, as typed), how a campaign fills them,
 * and how they become the request body, checked the way the server checks them (plus friendlier
 * messages). Error keys are the server's field paths ("names", "tiers.0.bps", …), so the
 * server's own field errors land on the same inputs.
 */
import type { AdminCampaign, CampaignCreate } from '@pa/shared';
import { LOCALES, type Locale } from '@pa/shared/locales';
import { formatMoney, formatNumber } from '@/lib/format';
import { bpsToPercentText, minorToInputText, parseMoneyInput, parsePercentToBps, amountFieldError } from '@/lib/money-input';
import { decimalSeparator, type FieldError, type FormErrors } from '@/lib/form-errors';
import { campaignName } from '@/lib/campaign-name';
import { browserZone, dateInputToEpoch, endDayToEpoch, endEpochToDateInput, epochToDateInput } from '@/lib/zone-dates';

export { campaignName, decimalSeparator, type FieldError, type FormErrors };
export { browserZone, dateInputToEpoch, endDayToEpoch, endEpochToDateInput, epochToDateInput };

const MONEY_MAX = 100_000_000;
export const TIERS_MAX = 10;
const HOSTS_MAX = 20;
export const NAME_MAX = 80;
export const DESCRIPTION_MAX = 4000;
export const SHARE_TEXT_MAX = 1000;
const WINDOW_DAYS = { min: 1, max: 365 } as const;
const HOLD_DAYS = { min: 0, max: 90 } as const;
const BINDING_MONTHS = { min: 1, max: 120 } as const;
/** How long a customer stays with the promoter who brought them: the window only, some months, or for life. */
type BindingMode = 'window' | 'months' | 'lifetime';
const MIN_SALES = { min: 1, max: 1_000_000 } as const;

export type Texts = Record<Locale, string>;

export interface TierValues {
  /** Only for React lists: stable while rows are added and removed. */
  key: number;
  minSales: string;
  percent: string;
}

export interface CampaignFormValues {
  names: Texts;
  descriptions: Texts;
  shareTexts: Texts;
  landingUrl: string;
  allowedHosts: string;
  leadReward: string;
  saleRewardType: 'bps' | 'fixed';
  saleReward: string;
  tiers: TierValues[];
  overrideBps: string;
  attributionWindowDays: string;
  bindingMode: BindingMode;
  bindingMonths: string;
  holdDays: string;
  approvalMode: 'auto' | 'manual';
  joinMode: 'open' | 'approval';
  /** yyyy-mm-dd, as <input type="date"> holds it; empty for none. */
  startsAt: string;
  endsAt: string;
}


let tierKey = 0;
export const newTier = (minSales = '', percent = ''): TierValues => ({ key: ++tierKey, minSales, percent });

const texts = (source: Record<string, string> = {}): Texts => Object.fromEntries(LOCALES.map((l) => [l, source[l] ?? ''])) as Texts;

export function emptyValues(): CampaignFormValues {
  return {
    names: texts(),
    descriptions: texts(),
    shareTexts: texts(),
    landingUrl: '',
    allowedHosts: '',
    leadReward: '0',
    saleRewardType: 'bps',
    saleReward: '0',
    tiers: [],
    overrideBps: '0',
    attributionWindowDays: '30',
    bindingMode: 'window',
    bindingMonths: '12',
    holdDays: '7',
    approvalMode: 'auto',
    joinMode: 'open',
    startsAt: '',
    endsAt: '',
  };
}


/** `zone`: the installation's time zone, in which the schedule's days begin and end. */
export function valuesFromCampaign(c: AdminCampaign, currency: string, decimal = '.', zone = browserZone()): CampaignFormValues {
  const money = (minor: number) => minorToInputText(minor, currency).replace('.', decimal);
  const percent = (bps: number) => bpsToPercentText(bps).replace('.', decimal);
  return {
    names: texts(c.names),
    descriptions: texts(c.descriptions),
    shareTexts: texts(c.shareTexts),
    landingUrl: c.landingUrl,
    allowedHosts: c.allowedHosts.join('\n'),
    leadReward: money(c.leadReward),
    saleRewardType: c.saleRewardType,
    saleReward: c.saleRewardType === 'bps' ? percent(c.saleReward) : money(c.saleReward),
    tiers: c.tiers.map((t) => newTier(String(t.minSales), percent(t.bps))),
    overrideBps: percent(c.overrideBps),
    attributionWindowDays: String(c.attributionWindowDays),
    bindingMode: c.customerBinding === 'lifetime' ? 'lifetime' : c.customerBinding === 0 ? 'window' : 'months',
    bindingMonths: typeof c.customerBinding === 'number' && c.customerBinding > 0 ? String(c.customerBinding) : '12',
    holdDays: String(c.holdDays),
    approvalMode: c.approvalMode,
    joinMode: c.joinMode,
    startsAt: epochToDateInput(c.startsAt, zone),
    endsAt: endEpochToDateInput(c.endsAt, zone),
  };
}

/** Whether two sets of values would save the same campaign (tier row keys aside). */
export function sameValues(a: CampaignFormValues, b: CampaignFormValues): boolean {
  const plain = (v: CampaignFormValues) => JSON.stringify({ ...v, tiers: v.tiers.map(({ minSales, percent }) => [minSales, percent]) });
  return plain(a) === plain(b);
}

/** Whether the reward changed: what promoters earn (lead and sale rewards, tiers, override, recurring binding). */
export function rewardChanged(a: CampaignFormValues, b: CampaignFormValues): boolean {
  const reward = (v: CampaignFormValues) => JSON.stringify([v.leadReward, v.saleRewardType, v.saleReward, v.tiers.map(({ minSales, percent }) => [minSales, percent]), v.overrideBps, v.bindingMode, v.bindingMode === 'months' ? v.bindingMonths : '']);
  return reward(a) !== reward(b);
}


const HOST_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** One host per line, or separated by commas or spaces; lowercased, without duplicates. Pasted URLs keep only their host. */
export function parseHosts(text: string): string[] {
  const hosts = text
    .normalize('NFKC')
    .split(/[\s,;]+/)
    .map((h) => {
      const entry = h.trim().toLowerCase();
      if (!entry.includes('://')) return entry.replace(/\.$/, '');
      try {
        return new URL(entry).hostname;
      } catch {
        return entry;
      }
    })
    .filter(Boolean);
  return [...new Set(hosts)];
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text.trim()).protocol === 'https:';
  } catch {
    return false;
  }
}

const localized = (values: Texts) => Object.fromEntries(LOCALES.map((l) => [l, values[l].trim()]).filter(([, v]) => v)) as Partial<Texts>;

function wholeNumber(text: string, range: { min: number; max: number }, locale: string): { value: number } | FieldError {
  const raw = text.normalize('NFKC').trim();
  if (!raw) return { code: 'required' };
  if (!/^\d+$/.test(raw) || Number(raw) < range.min || Number(raw) > range.max) return { code: 'range', values: { min: formatNumber(range.min, locale), max: formatNumber(range.max, locale) } };
  return { value: Number(raw) };
}

/**
 * Checks every input and builds the body for POST (and PATCH: every field, so what is saved is
 * exactly what is shown). `locale` only formats the limits quoted in messages.
 */
export function toBody(v: CampaignFormValues, currency: string, locale: string, zone = browserZone()): { body: CampaignCreate; errors?: undefined } | { body?: undefined; errors: FormErrors } {
  const errors: FormErrors = {};
  const percentMax = new Intl.NumberFormat(locale, { style: 'percent' }).format(1);
  const money = (field: string, text: string) => {
    const r = parseMoneyInput(text, currency, MONEY_MAX);
    if (r.ok) return r.value;
    errors[field] = amountFieldError(r, formatMoney(MONEY_MAX, currency, locale));
    return 0;
  };
  const percent = (field: string, text: string) => {
    const r = parsePercentToBps(text);
    if (r.ok) return r.value;
    errors[field] = amountFieldError(r, percentMax);
    return 0;
  };
  const integer = (field: string, text: string, range: { min: number; max: number }) => {
    const r = wholeNumber(text, range, locale);
    if ('value' in r) return r.value;
    errors[field] = r;
    return 0;
  };

  const names = localized(v.names);
  if (Object.keys(names).length === 0) errors.names = { code: 'nameRequired' };
  const landingUrl = v.landingUrl.trim();
  if (!landingUrl) errors.landingUrl = { code: 'required' };
  else if (!isHttpsUrl(landingUrl)) errors.landingUrl = { code: 'https' };
  const allowedHosts = parseHosts(v.allowedHosts);
  const badHost = allowedHosts.find((h) => !HOST_RE.test(h));
  if (badHost) errors.allowedHosts = { code: 'host', values: { host: badHost } };
  else if (allowedHosts.length > HOSTS_MAX) errors.allowedHosts = { code: 'tooManyHosts', values: { max: HOSTS_MAX } };

  const leadReward = money('leadReward', v.leadReward);
  const saleReward = v.saleRewardType === 'bps' ? percent('saleReward', v.saleReward) : money('saleReward', v.saleReward);
  const seen = new Set<number>();
  const tiers = v.tiers.map((t, i) => {
    const minSales = integer(`tiers.${i}.minSales`, t.minSales, MIN_SALES);
    if (!errors[`tiers.${i}.minSales`] && seen.has(minSales)) errors[`tiers.${i}.minSales`] = { code: 'duplicateTier' };
    seen.add(minSales);
    return { minSales, bps: percent(`tiers.${i}.bps`, t.percent) };
  });
  const overrideBps = percent('overrideBps', v.overrideBps);
  const attributionWindowDays = integer('attributionWindowDays', v.attributionWindowDays, WINDOW_DAYS);
  const holdDays = integer('holdDays', v.holdDays, HOLD_DAYS);
  const customerBinding = v.bindingMode === 'lifetime' ? ('lifetime' as const) : v.bindingMode === 'months' ? integer('customerBinding', v.bindingMonths, BINDING_MONTHS) : 0;
  const startsAt = dateInputToEpoch(v.startsAt, zone);
  const endsAt = endDayToEpoch(v.endsAt, zone);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) errors.endsAt = { code: 'endBeforeStart' };

  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      names,
      descriptions: localized(v.descriptions),
      shareTexts: localized(v.shareTexts),
      landingUrl,
      allowedHosts,
      leadReward,
      saleRewardType: v.saleRewardType,
      saleReward,
      tiers,
      overrideBps,
      attributionWindowDays,
      customerBinding,
      holdDays,
      approvalMode: v.approvalMode,
      joinMode: v.joinMode,
      startsAt,
      endsAt,
    },
  };
}

/** The server's field errors, on the inputs that show them (each host is checked by the one hosts box). */
export function serverErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    const key = path.startsWith('allowedHosts') ? 'allowedHosts' : path;
    errors[key] ??= { code: key === 'names' && code === 'required' ? 'nameRequired' : code };
  }
  return errors;
}

/** The locales whose texts have an error, to mark them in the language switch. */
export function localesWithErrors(errors: FormErrors): Set<string> {
  const found = new Set<string>();
  for (const key of Object.keys(errors)) {
    const m = /^(?:names|descriptions|shareTexts)\.(.+)$/.exec(key);
    if (m) found.add(m[1]!);
  }
  return found;
}
