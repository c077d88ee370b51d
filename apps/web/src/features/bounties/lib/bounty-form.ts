/**
 * The console's bounty form: what its inputs hold (text, as typed), how a bounty fills them, and
 * how they become the request body, checked as the server checks them (contract:
 * packages/shared/src/bounties.ts). Error keys are the server's field paths ("names",
 * "goal.value", "reward", …), so its field errors land on the same inputs.
 */
import { MAX_AMOUNT, type AdminBounty, type BountyCreate, type BountyMetric, type BountyKind, type BountyPatch, type BountyPeriod } from '@pa/shared';
import { LOCALES, type Locale } from '@pa/shared/locales';
import { formatMoney, formatNumber } from '@/lib/format';
import { minorToInputText, parseMoneyInput } from '@/lib/money-input';
import type { FieldError, FormErrors } from '@/lib/form-errors';
import { dateInputToEpoch, endDayToEpoch, endEpochToDateInput, epochToDateInput } from '@/lib/zone-dates';

export const BOUNTY_NAME_MAX = 80;
export const BOUNTY_DESCRIPTION_MAX = 2000;
/** A count goal (sales, leads): a sensible ceiling for a form, well inside the contract's. */
const COUNT_MAX = 1_000_000;

export type BountyTexts = Record<Locale, string>;

export interface BountyFormValues {
  kind: BountyKind;
  names: BountyTexts;
  descriptions: BountyTexts;
  metric: BountyMetric;
  /** A count, or an amount in the currency's unit for `saleAmount`. */
  goalValue: string;
  period: BountyPeriod;
  reward: string;
  groupIds: string[];
  startsAt: string;
  endsAt: string;
}

const noTexts = (): BountyTexts => Object.fromEntries(LOCALES.map((l) => [l, ''])) as BountyTexts;

export function emptyBountyValues(): BountyFormValues {
  return { kind: 'performance', names: noTexts(), descriptions: noTexts(), metric: 'sales', goalValue: '', period: 'month', reward: '', groupIds: [], startsAt: '', endsAt: '' };
}

export function valuesFromBounty(b: AdminBounty, currency: string, zone: string): BountyFormValues {
  const texts = (from: Record<string, string>) => ({ ...noTexts(), ...Object.fromEntries(LOCALES.map((l) => [l, from[l] ?? ''])) }) as BountyTexts;
  return {
    kind: b.kind,
    names: texts(b.names),
    descriptions: texts(b.descriptions),
    metric: b.goal?.metric ?? 'sales',
    goalValue: b.goal ? (b.goal.metric === 'saleAmount' ? minorToInputText(b.goal.value, currency) : String(b.goal.value)) : '',
    period: b.goal?.period ?? 'month',
    reward: minorToInputText(b.reward, currency),
    groupIds: [...b.groupIds],
    startsAt: epochToDateInput(b.startsAt, zone),
    endsAt: endEpochToDateInput(b.endsAt, zone),
  };
}

const localized = (values: BountyTexts) => Object.fromEntries(LOCALES.map((l) => [l, values[l].trim()]).filter(([, v]) => v)) as Partial<BountyTexts>;

/** Checks every input and builds the create body (a change sends the same fields less the kind: toPatch). */
export function toBountyBody(v: BountyFormValues, currency: string, locale: string, zone: string): { body: BountyCreate; errors?: undefined } | { body?: undefined; errors: FormErrors } {
  const errors: FormErrors = {};
  const money = (field: string, text: string): number => {
    const r = parseMoneyInput(text, currency, MAX_AMOUNT);
    if (r.ok) {
      if (r.value < 1) errors[field] = { code: 'positive' };
      return r.value;
    }
    errors[field] = amountError(r.error, r.digits, formatMoney(MAX_AMOUNT, currency, locale));
    return 0;
  };
  const names = localized(v.names);
  if (Object.keys(names).length === 0) errors.names = { code: 'bountyNameRequired' };
  for (const l of LOCALES) {
    if (v.names[l].trim().length > BOUNTY_NAME_MAX) errors[`names.${l}`] = { code: 'tooLong', values: { max: BOUNTY_NAME_MAX } };
    if (v.descriptions[l].trim().length > BOUNTY_DESCRIPTION_MAX) errors[`descriptions.${l}`] = { code: 'tooLong', values: { max: BOUNTY_DESCRIPTION_MAX } };
  }
  const reward = money('reward', v.reward);
  let goalValue = 0;
  if (v.kind === 'performance') {
    if (v.metric === 'saleAmount') goalValue = money('goal.value', v.goalValue);
    else {
      const raw = v.goalValue.normalize('NFKC').trim();
      if (!raw) errors['goal.value'] = { code: 'required' };
      else if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > COUNT_MAX) errors['goal.value'] = { code: 'range', values: { min: formatNumber(1, locale), max: formatNumber(COUNT_MAX, locale) } };
      else goalValue = Number(raw);
    }
  }
  const startsAt = dateInputToEpoch(v.startsAt, zone);
  const endsAt = endDayToEpoch(v.endsAt, zone);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) errors.endsAt = { code: 'endBeforeStart' };
  if (Object.keys(errors).length > 0) return { errors };
  const common = { names, descriptions: localized(v.descriptions), reward, groupIds: v.groupIds, startsAt, endsAt };
  return {
    body: v.kind === 'performance'
      ? { kind: 'performance', goal: { metric: v.metric, value: goalValue, period: v.period }, ...common }
      : { kind: 'submission', ...common },
  };
}

/** A change: every field as shown (so what is saved is what is seen); the kind stays. */
export function toPatch(body: BountyCreate): BountyPatch {
  const { kind: _kind, ...rest } = body;
  return rest as BountyPatch;
}

function amountError(error: string, digits: number, max: string): FieldError {
  if (error === 'decimals') return digits === 0 ? { code: 'noDecimals' } : { code: 'decimals', values: { digits } };
  if (error === 'too_large') return { code: 'tooLarge', values: { max } };
  return { code: error };
}

/** The server's field errors on the inputs that show them. */
export function bountyServerErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    const key = path.startsWith('goal') ? 'goal.value' : path.startsWith('groupIds') ? 'groupIds' : path;
    errors[key] ??= { code: key === 'names' && code === 'required' ? 'bountyNameRequired' : code };
  }
  return errors;
}

/** The languages whose texts have an error (marked in the language picker). */
export function bountyLocalesWithErrors(errors: FormErrors): Set<string> {
  const found = new Set<string>();
  for (const key of Object.keys(errors)) {
    const m = /^(?:names|descriptions)\.(.+)$/.exec(key);
    if (m) found.add(m[1]!);
  }
  return found;
}

export function sameBountyValues(a: BountyFormValues, b: BountyFormValues): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
