/**
 * The reward rules editor's model (issue 31, docs/rewards.md): what the inputs hold (text, as
 * typed), how `GET api/admin/campaigns/:id/rewards` fills them, and how they become the body of
 * the PUT, checked the way the server checks them. Error keys are the server's field paths
 * ("rules.2.groupIds", "rules.0.conditions.1.value", "budgetPerMonth"), so its errors land on the
 * same inputs. The preview runs the server's own rule matching (`@pa/shared/reward-rules`).
 */
import type { ConditionOp, RewardCondition, RewardEvent, RewardRule, RewardRuleInput, Rewards } from '@pa/shared';
import { decideLines, type LineDecision } from '@pa/shared/reward-rules';
import { formatMoney } from '@/lib/format';
import type { FormErrors } from '@/lib/form-errors';
import { bpsToPercentText, minorToInputText, parseMoneyInput, parsePercentToBps, amountFieldError } from '@/lib/money-input';

/** Mirrors the shared contract's limits (packages/shared/src/rewards.ts). */
export const RULES_MAX = 50;
export const CONDITIONS_MAX = 10;
export const LABEL_MAX = 80;
const VALUE_MAX = 100;
const LIST_MAX = 100;
const MONEY_MAX = 100_000_000;
const KEY_RE = /^[A-Za-z0-9_.:-]{1,40}$/;
const COUNTRY_RE = /^[A-Z]{2}$/;

/** A condition's field as the editor offers it: `metadata` with its key typed apart. */
export type ConditionField = 'sku' | 'category' | 'country' | 'newCustomer' | 'amount' | 'metadata';
export const CONDITION_FIELDS: readonly ConditionField[] = ['sku', 'category', 'country', 'newCustomer', 'amount', 'metadata'];

/** The comparisons that make sense for each field (the server refuses the others). */
export function opsFor(field: ConditionField): ConditionOp[] {
  if (field === 'newCustomer') return ['eq'];
  if (field === 'amount') return ['gte', 'lte', 'eq'];
  return ['eq', 'in', 'notIn'];
}

export const isList = (op: ConditionOp) => op === 'in' || op === 'notIn';

export interface ConditionValues {
  /** Only for React lists. */
  key: number;
  field: ConditionField;
  /** The key of `metadata.<key>`. */
  metaKey: string;
  op: ConditionOp;
  /** A text, a list (comma or line separated) or an amount in major units, by field and op. */
  text: string;
  /** `newCustomer`'s value. */
  yes: boolean;
}

export interface RuleValues {
  key: number;
  /** Kept across edits (caps count per rule); absent for a rule added here. */
  id?: string;
  /** A base rule (`lead`/`sale`): its reward only, which is the campaign's reward field. */
  base: boolean;
  event: RewardEvent;
  groupIds: string[];
  conditions: ConditionValues[];
  rewardType: 'percent' | 'fixed';
  /** A percentage or an amount in major units. */
  reward: string;
  label: string;
  /** Empty: no cap. */
  cap: string;
}

export interface RewardsFormValues {
  rules: RuleValues[];
  /** Empty: no budget. */
  budget: string;
}

let rowKey = 0;
const nextKey = () => ++rowKey;

export const newCondition = (): ConditionValues => ({ key: nextKey(), field: 'sku', metaKey: '', op: 'eq', text: '', yes: true });
export const newRule = (event: RewardEvent = 'sale'): RuleValues => ({ key: nextKey(), base: false, event, groupIds: [], conditions: [newCondition()], rewardType: 'percent', reward: '', label: '', cap: '' });

const isBase = (r: Pick<RewardRule, 'id' | 'groupIds' | 'conditions'>) => (r.id === 'lead' || r.id === 'sale') && r.groupIds.length === 0 && r.conditions.length === 0;

/** The rules' texts, as a reader whose decimal separator is `decimal` would type them. */
export function valuesFromRewards(rewards: Rewards, currency: string, decimal = '.'): RewardsFormValues {
  const money = (minor: number) => minorToInputText(minor, currency).replace('.', decimal);
  const percent = (bps: number) => bpsToPercentText(bps).replace('.', decimal);
  const condition = (c: RewardCondition): ConditionValues => {
    const meta = c.field.startsWith('metadata.');
    const field = (meta ? 'metadata' : c.field) as ConditionField;
    const text = Array.isArray(c.value) ? c.value.join(', ') : typeof c.value === 'number' ? money(c.value) : typeof c.value === 'string' ? c.value : '';
    return { key: nextKey(), field, metaKey: meta ? c.field.slice(9) : '', op: c.op, text, yes: c.value !== false };
  };
  return {
    rules: rewards.rules.map((r) => ({
      key: nextKey(),
      id: r.id,
      base: isBase(r),
      event: r.event,
      groupIds: [...r.groupIds],
      conditions: r.conditions.map((c) => condition(c as RewardCondition)),
      rewardType: r.reward.type,
      reward: r.reward.type === 'percent' ? percent(r.reward.bps) : money(r.reward.amount),
      label: r.label ?? '',
      cap: r.capPerPromoterPerMonth === null ? '' : money(r.capPerPromoterPerMonth),
    })),
    budget: rewards.budgetPerMonth === null ? '' : money(rewards.budgetPerMonth),
  };
}

/** Whether two sets of values would save the same rules (row keys aside). */
export function sameRewards(a: RewardsFormValues, b: RewardsFormValues): boolean {
  const plain = (v: RewardsFormValues) => JSON.stringify({ budget: v.budget, rules: v.rules.map(({ key: _k, conditions, ...r }) => ({ ...r, conditions: conditions.map(({ key: _c, ...c }) => c) })) });
  return plain(a) === plain(b);
}

/** "FR, es\nDE" → ["FR", "ES", "DE"] for countries; other lists keep their case. Duplicates go. */
export function parseList(text: string, field: ConditionField): string[] {
  const items = text.normalize('NFKC').split(/[,;\n\r\t，、]+/).map((s) => s.trim()).filter(Boolean);
  return [...new Set(field === 'country' ? items.map((s) => s.toUpperCase()) : items)];
}

/** The index of a rule that can never decide: an earlier rule of its event with no groups and no conditions catches everything first. */
export function unreachable(rules: readonly RuleValues[]): Set<number> {
  const found = new Set<number>();
  const caught = new Set<RewardEvent>();
  rules.forEach((r, i) => {
    if (caught.has(r.event)) found.add(i);
    if (r.groupIds.length === 0 && r.conditions.length === 0) caught.add(r.event);
  });
  return found;
}

type Body = { rules: RewardRuleInput[]; budgetPerMonth: number | null };

/**
 * Checks every input and builds the PUT's body: the rules in the order shown, the budget (null
 * when empty). `locale` only formats the limits quoted in messages.
 */
export function toRewardsBody(v: RewardsFormValues, currency: string, locale: string): { body: Body; errors?: undefined } | { body?: undefined; errors: FormErrors } {
  const errors: FormErrors = {};
  const percentMax = new Intl.NumberFormat(locale, { style: 'percent' }).format(1);
  const money = (field: string, text: string, optional = false): number | null => {
    if (optional && !text.trim()) return null;
    const r = parseMoneyInput(text, currency, MONEY_MAX);
    if (r.ok) return r.value;
    errors[field] = amountFieldError(r, formatMoney(MONEY_MAX, currency, locale));
    return 0;
  };
  const condition = (c: ConditionValues, at: string): RewardCondition => {
    const field = c.field === 'metadata' ? `metadata.${c.metaKey.trim()}` : c.field;
    if (c.field === 'metadata' && !KEY_RE.test(c.metaKey.trim())) errors[`${at}.field`] = { code: c.metaKey.trim() ? 'metaKey' : 'required' };
    const op = opsFor(c.field).includes(c.op) ? c.op : opsFor(c.field)[0]!;
    if (c.field === 'newCustomer') return { field, op: 'eq', value: c.yes };
    if (c.field === 'amount') return { field, op, value: money(`${at}.value`, c.text) ?? 0 };
    if (isList(op)) {
      const list = parseList(c.text, c.field);
      if (list.length === 0) errors[`${at}.value`] = { code: 'required' };
      else if (list.length > LIST_MAX) errors[`${at}.value`] = { code: 'tooMany', values: { max: LIST_MAX } };
      else if (list.some((s) => [...s].length > VALUE_MAX)) errors[`${at}.value`] = { code: 'valueTooLong', values: { max: VALUE_MAX } };
      else if (c.field === 'country') {
        const bad = list.find((s) => !COUNTRY_RE.test(s));
        if (bad) errors[`${at}.value`] = { code: 'country', values: { value: bad } };
      }
      return { field, op, value: list };
    }
    const text = c.text.normalize('NFKC').trim();
    const value = c.field === 'country' ? text.toUpperCase() : text;
    if (!value) errors[`${at}.value`] = { code: 'required' };
    else if ([...value].length > VALUE_MAX) errors[`${at}.value`] = { code: 'valueTooLong', values: { max: VALUE_MAX } };
    else if (c.field === 'country' && !COUNTRY_RE.test(value)) errors[`${at}.value`] = { code: 'country', values: { value } };
    return { field, op, value };
  };

  const rules = v.rules.map((r, i): RewardRuleInput => {
    const at = `rules.${i}`;
    let reward: RewardRuleInput['reward'];
    if (r.rewardType === 'percent') {
      const p = parsePercentToBps(r.reward);
      if (!p.ok) errors[`${at}.reward`] = amountFieldError(p, percentMax);
      reward = { type: 'percent', bps: p.ok ? p.value : 0 };
    } else {
      reward = { type: 'fixed', amount: money(`${at}.reward`, r.reward) ?? 0 };
    }
    if (r.base) return { ...(r.id ? { id: r.id } : {}), event: r.event, groupIds: [], conditions: [], reward, label: null, capPerPromoterPerMonth: null };
    const label = r.label.trim();
    if ([...label].length > LABEL_MAX) errors[`${at}.label`] = { code: 'tooLong', values: { max: LABEL_MAX } };
    return {
      ...(r.id ? { id: r.id } : {}),
      event: r.event,
      groupIds: [...new Set(r.groupIds)],
      conditions: r.conditions.map((c, j) => condition(c, `${at}.conditions.${j}`)),
      reward,
      label: label || null,
      capPerPromoterPerMonth: money(`${at}.capPerPromoterPerMonth`, r.cap, true),
    };
  });
  if (rules.length > RULES_MAX) errors.rules = { code: 'tooMany', values: { max: RULES_MAX } };
  const budgetPerMonth = money('budgetPerMonth', v.budget, true);
  if (Object.keys(errors).length > 0) return { errors };
  return { body: { rules, budgetPerMonth } };
}

/**
 * The server's field errors on the inputs that show them: a reward's `bps`/`amount` on its reward
 * input, a condition's `op` on its value; what no input shows (a rule's reserved id) on the rule.
 */
export function serverRewardErrors(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const [path, code] of Object.entries(fields)) {
    const m = /^rules\.(\d+)(?:\.(.*))?$/.exec(path);
    let key = path;
    if (m) {
      const rest = m[2] ?? '';
      const cond = /^conditions\.(\d+)(?:\.(field|value|op))?/.exec(rest);
      if (cond) key = `rules.${m[1]}.conditions.${cond[1]}.${cond[2] === 'field' ? 'field' : 'value'}`;
      else if (rest.startsWith('reward')) key = `rules.${m[1]}.reward`;
      else if (['groupIds', 'label', 'capPerPromoterPerMonth'].includes(rest.split('.')[0]!)) key = `rules.${m[1]}.${rest.split('.')[0]}`;
      else key = `rules.${m[1]}`;
    }
    errors[key] ??= { code };
  }
  return errors;
}

/** What the preview asks about: one sale (one line) or one lead, by a promoter of one group. */
export interface PreviewValues {
  event: RewardEvent;
  amount: string;
  sku: string;
  category: string;
  country: string;
  newCustomer: 'unknown' | 'yes' | 'no';
  metaKey: string;
  metaValue: string;
  groupId: string;
}

export const emptyPreview = (groupId = 'default'): PreviewValues => ({ event: 'sale', amount: '200', sku: '', category: '', country: '', newCustomer: 'unknown', metaKey: 'plan', metaValue: '', groupId });

export type PreviewResult =
  | { ok: true; amount: number; decision: LineDecision; ruleIndex: number | null; rules: RewardRule[] }
  | { ok: false; reason: 'amount' | 'rules' };

/**
 * What the rules being edited would pay for the preview's sale or lead, before volume tiers and
 * caps (they depend on the month's sales): the server's own matching on the rules as they would be
 * saved, so the preview never says what the engine would not.
 */
export function previewEarning(v: RewardsFormValues, p: PreviewValues, currency: string, locale: string): PreviewResult {
  const amount = parseMoneyInput(p.amount, currency, MONEY_MAX);
  if (!amount.ok) return { ok: false, reason: 'amount' };
  const built = toRewardsBody(v, currency, locale);
  if (!built.body) return { ok: false, reason: 'rules' };
  const rules: RewardRule[] = built.body.rules.map((r, i) => ({
    id: r.id ?? `new-${i}`,
    event: r.event,
    groupIds: r.groupIds ?? [],
    conditions: (r.conditions ?? []) as RewardCondition[],
    reward: r.reward,
    label: r.label ?? null,
    capPerPromoterPerMonth: r.capPerPromoterPerMonth ?? null,
  }));
  const country = p.country.normalize('NFKC').trim().toUpperCase();
  const metaKey = p.metaKey.trim();
  const [decision] = decideLines(rules, {
    event: p.event,
    groupId: p.groupId,
    country: country || null,
    newCustomer: p.newCustomer === 'unknown' ? null : p.newCustomer === 'yes',
    metadata: metaKey && p.metaValue.trim() ? { [metaKey]: p.metaValue.trim() } : {},
    lines: [{ sku: p.event === 'sale' ? p.sku.trim() || null : null, category: p.event === 'sale' ? p.category.trim() || null : null, quantity: 1, amount: amount.value }],
  }, null);
  const ruleIndex = decision!.ruleId === null ? null : rules.findIndex((r) => r.id === decision!.ruleId);
  return { ok: true, amount: amount.value, decision: decision!, ruleIndex, rules };
}
