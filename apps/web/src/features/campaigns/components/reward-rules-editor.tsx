import { Button, Dialog, Selector, Tag, Toast } from 'antd-mobile';
import { AddOutline, DeleteOutline, DownOutline, UpOutline } from 'antd-mobile-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConditionOp, RewardEvent, Rewards } from '@pa/shared';
import { Field, TextInput } from '@/components/field';
import { FormField, WithUnit } from '@/components/form-field';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/errors';
import { currencyMark } from '@/lib/format';
import { decimalSeparator, type FormErrors } from '@/lib/form-errors';
import { useLeaveGuard } from '@/lib/use-leave-guard';
import { usePutRewards, type GroupOption } from '../api/rewards';
import {
  CONDITION_FIELDS, CONDITIONS_MAX, isList, LABEL_MAX, newCondition, newRule, opsFor, parseList, RULES_MAX, sameRewards, serverRewardErrors, toRewardsBody, unreachable, valuesFromRewards,
  type ConditionField, type ConditionValues, type RewardsFormValues, type RuleValues,
} from '../lib/reward-rules-form';
import { countryName, listText } from '../lib/reward-rules-text';
import { Choice } from '@/components/choice';
import { RewardPreview } from './reward-preview';
import './reward-rules.css';
import { useGroupName } from '@/lib/group-name';

interface Props {
  campaignId: string;
  campaignActive: boolean;
  rewards: Rewards;
  currency: string;
  /** null: this server has no groups to choose from. */
  groups: GroupOption[] | null;
  editable: boolean;
}

/** Scrolls the first input with an error into view, once it is shown. */
function revealFirstError() {
  window.setTimeout(() => document.querySelector('.rules-form .field-invalid, .rules-form .rule-error')?.scrollIntoView({ block: 'center', behavior: 'smooth' }), 50);
}

/** A field's error, keyed as the server names it. */
const withPrefix = (errors: FormErrors, prefix: string) => Object.keys(errors).some((k) => k === prefix || k.startsWith(`${prefix}.`));

function ConditionRow({ c, index, at, errors, editable, currency, onChange, onRemove }: {
  c: ConditionValues; index: number; at: string; errors: FormErrors; editable: boolean; currency: string;
  onChange: (patch: Partial<ConditionValues>) => void; onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  const id = `${at.replace(/\./g, '-')}`;
  const fieldError = errors[`${at}.field`];
  const valueError = errors[`${at}.value`];
  const ops = opsFor(c.field);
  const list = isList(c.op);
  const countries = c.field === 'country' && c.text.trim() ? listText(parseList(c.text, 'country').map((code) => countryName(code, i18n.language)).filter((n): n is string => !!n), i18n.language) : '';
  const valueHelp = c.field === 'country' ? countries || t('rewardRules.countryHelp') : list ? t('rewardRules.listHelp') : undefined;
  return (
    <li className={`rule-condition${c.field === 'metadata' ? ' rule-condition-meta' : ''}`} data-testid={`${id}`}>
      <div className="field rule-condition-field">
        <label htmlFor={`${id}-field`} className={index > 0 ? 'visually-hidden' : undefined}>{t('rewardRules.fieldLabel')}</label>
        <select id={`${id}-field`} className="text-input rules-select" value={c.field} disabled={!editable} data-testid={`${id}-field`}
          onChange={(e) => {
            const field = e.target.value as ConditionField;
            onChange({ field, op: opsFor(field).includes(c.op) ? c.op : opsFor(field)[0]!, text: field === c.field ? c.text : '' });
          }}>
          {CONDITION_FIELDS.map((f) => <option key={f} value={f}>{t(`rewardRules.field.${f}`)}</option>)}
        </select>
      </div>
      {c.field === 'metadata' ? (
        <FormField id={`${id}-key`} label={t('rewardRules.metaKeyLabel')} error={fieldError}>
          <TextInput id={`${id}-key`} data-testid={`${id}-key`} value={c.metaKey} onChange={(v) => onChange({ metaKey: v })} invalid={!!fieldError} placeholder="plan" maxLength={40} autoCapitalize="off" autoComplete="off" spellCheck={false} disabled={!editable} />
        </FormField>
      ) : null}
      <div className="field rule-condition-op">
        <label htmlFor={`${id}-op`} className={index > 0 ? 'visually-hidden' : undefined}>{t('rewardRules.opLabel')}</label>
        <select id={`${id}-op`} className="text-input rules-select" value={ops.includes(c.op) ? c.op : ops[0]} disabled={!editable || ops.length === 1} data-testid={`${id}-op`}
          onChange={(e) => onChange({ op: e.target.value as ConditionOp })}>
          {ops.map((op) => <option key={op} value={op}>{t(c.field === 'amount' && op === 'eq' ? 'rewardRules.op.eqAmount' : `rewardRules.op.${op}`)}</option>)}
        </select>
      </div>
      <div className="rule-condition-value">
        {c.field === 'newCustomer' ? (
          <div className="field">
            <label htmlFor={`${id}-value`} className={index > 0 ? 'visually-hidden' : undefined}>{t('rewardRules.valueLabel')}</label>
            <select id={`${id}-value`} className="text-input rules-select" value={c.yes ? 'yes' : 'no'} disabled={!editable} data-testid={`${id}-value`} onChange={(e) => onChange({ yes: e.target.value === 'yes' })}>
              <option value="yes">{t('rewardRules.newCustomerYes')}</option>
              <option value="no">{t('rewardRules.newCustomerNo')}</option>
            </select>
          </div>
        ) : (
          <FormField id={`${id}-value`} label={<span className={index > 0 ? 'visually-hidden' : undefined}>{t('rewardRules.valueLabel')}</span>} error={valueError} help={valueHelp}>
            {c.field === 'amount' ? (
              <WithUnit unit={currencyMark(currency)}>
                <TextInput id={`${id}-value`} data-testid={`${id}-value`} inputMode="decimal" autoComplete="off" value={c.text} onChange={(v) => onChange({ text: v })} invalid={!!valueError} disabled={!editable} />
              </WithUnit>
            ) : (
              <TextInput id={`${id}-value`} data-testid={`${id}-value`} value={c.text} onChange={(v) => onChange({ text: c.field === 'country' ? v.toUpperCase() : v })} invalid={!!valueError} disabled={!editable}
                placeholder={c.field === 'country' ? (list ? 'FR, ES' : 'FR') : c.field === 'sku' ? (list ? 'TEA-01, TEA-02' : 'TEA-01') : undefined}
                autoCapitalize={c.field === 'country' ? 'characters' : 'off'} autoComplete="off" spellCheck={false} maxLength={list ? 4000 : c.field === 'country' ? 2 : 100} />
            )}
          </FormField>
        )}
      </div>
      {editable ? (
        <button type="button" className="rule-icon-button rule-danger" aria-label={t('rewardRules.removeCondition', { n: index + 1 })} onClick={onRemove} data-testid={`${id}-remove`}>
          <DeleteOutline aria-hidden />
        </button>
      ) : null}
    </li>
  );
}

function RuleCard({ rule, index, count, never, errors, editable, currency, groups, onChange, onMove, onRemove }: {
  rule: RuleValues; index: number; count: number; never: boolean; errors: FormErrors; editable: boolean; currency: string; groups: GroupOption[] | null;
  onChange: (patch: Partial<RuleValues>) => void; onMove: (by: -1 | 1) => void; onRemove: () => void;
}) {
  const { t } = useTranslation();
  const groupName = useGroupName();
  const at = `rules.${index}`;
  const id = `rule-${index}`;
  const unit = currencyMark(currency);
  const rewardError = errors[`${at}.reward`];
  const ruleError = errors[at];
  const groupError = errors[`${at}.groupIds`];
  const title = rule.base ? t('rewardRules.base') : rule.label.trim() || t('rewardRules.ruleN', { n: index + 1 });
  const setCondition = (j: number, patch: Partial<ConditionValues>) => onChange({ conditions: rule.conditions.map((c, k) => (k === j ? { ...c, ...patch } : c)) });
  const knownGroups = new Map((groups ?? []).map((g) => [g.id, groupName(g)]));
  return (
    <li className={`card rule-card${rule.base ? ' rule-card-base' : ''}`} data-testid={id} aria-labelledby={`${id}-title`}>
      <div className="rule-head">
        <span className="rule-number" aria-hidden>{index + 1}</span>
        <h3 className="rule-title" id={`${id}-title`}>
          <span className="visually-hidden">{t('rewardRules.ruleN', { n: index + 1 })}: </span>{title}
        </h3>
        <Tag className="rule-event" color={rule.event === 'sale' ? 'primary' : 'default'} fill="outline">{t(`rewardRules.event.${rule.event}`)}</Tag>
        {editable ? (
          <span className="rule-actions">
            <button type="button" className="rule-icon-button" aria-label={t('rewardRules.moveUp', { n: index + 1 })} disabled={index === 0} onClick={() => onMove(-1)} data-testid={`${id}-up`}><UpOutline aria-hidden /></button>
            <button type="button" className="rule-icon-button" aria-label={t('rewardRules.moveDown', { n: index + 1 })} disabled={index === count - 1} onClick={() => onMove(1)} data-testid={`${id}-down`}><DownOutline aria-hidden /></button>
            {!rule.base ? <button type="button" className="rule-icon-button rule-danger" aria-label={t('rewardRules.removeRule', { n: index + 1 })} onClick={onRemove} data-testid={`${id}-remove`}><DeleteOutline aria-hidden /></button> : null}
          </span>
        ) : null}
      </div>
      {ruleError ? <p className="rule-error field-error" role="alert">{t([`rewardRules.ruleError.${ruleError.code}`, `fields.${ruleError.code}`, 'fields.invalid'])}</p> : null}
      {never ? <p className="rule-warning" data-testid={`${id}-unreachable`}>{t(`rewardRules.unreachable.${rule.event}`)}</p> : null}

      {rule.base ? (
        <p className="hint rule-base-help">{t(`rewardRules.baseHelp.${rule.event}`)}</p>
      ) : (
        <>
          <div className="rule-grid">
            <div className="field">
              <span className="console-field-label">{t('rewardRules.fields.event')}</span>
              <Choice label={t('rewardRules.fields.event')} value={rule.event} disabled={!editable} onChange={(event: RewardEvent) => onChange({ event })}
                options={[{ value: 'sale', label: t('rewardRules.event.sale'), testId: `${id}-event-sale` }, { value: 'lead', label: t('rewardRules.event.lead'), testId: `${id}-event-lead` }]} />
            </div>
            <FormField id={`${id}-label`} label={t('rewardRules.fields.label')} error={errors[`${at}.label`]} help={t('rewardRules.labelHelp')}>
              <TextInput id={`${id}-label`} data-testid={`${id}-label`} value={rule.label} onChange={(v) => onChange({ label: v })} invalid={!!errors[`${at}.label`]} maxLength={LABEL_MAX} autoComplete="off" disabled={!editable} />
            </FormField>
          </div>

          {groups && groups.length > 0 ? (
            <Field id={`${id}-groups`} label={<span id={`${id}-groups-label`}>{t('rewardRules.fields.groups')}</span>} errorText={groupError ? t([`rewardRules.groupsError.${groupError.code}`, `fields.${groupError.code}`, 'fields.invalid']) : undefined} help={rule.groupIds.length ? t('rewardRules.groupsSome') : t('rewardRules.groupsHelp')}>
              <div role="group" aria-labelledby={`${id}-groups-label`} data-testid={`${id}-groups`}>
                <Selector className="console-choice rule-groups" multiple columns={3} showCheckMark={false} disabled={!editable} value={rule.groupIds}
                  onChange={(groupIds) => onChange({ groupIds })}
                  options={[...groups.map((g) => ({ value: g.id, label: <span className="console-choice-label" role="checkbox" aria-checked={rule.groupIds.includes(g.id)}>{groupName(g)}</span> })),
                    // A group the list no longer has (deleted meanwhile): shown so it can be removed.
                    ...rule.groupIds.filter((g) => !knownGroups.has(g)).map((g) => ({ value: g, label: <span className="console-choice-label" role="checkbox" aria-checked>{g}</span> }))]} />
              </div>
            </Field>
          ) : rule.groupIds.length > 0 ? (
            <div className={`field${groupError ? ' field-invalid' : ''}`}>
              <span className="console-field-label">{t('rewardRules.fields.groups')}</span>
              <p className="rule-group-ids">{rule.groupIds.map((g) => <code key={g} className="console-code">{g}</code>)}</p>
              {groupError ? <p className="field-error">{t([`rewardRules.groupsError.${groupError.code}`, `fields.${groupError.code}`, 'fields.invalid'])}</p> : null}
            </div>
          ) : null}

          <fieldset className="field rule-conditions">
            <legend className="console-field-label">{t('rewardRules.fields.conditions')}</legend>
            {rule.conditions.length ? (
              <ol className="rule-condition-list">
                {rule.conditions.map((c, j) => (
                  <ConditionRow key={c.key} c={c} index={j} at={`${at}.conditions.${j}`} errors={errors} editable={editable} currency={currency}
                    onChange={(patch) => setCondition(j, patch)} onRemove={() => onChange({ conditions: rule.conditions.filter((_, k) => k !== j) })} />
                ))}
              </ol>
            ) : (
              <p className="rule-empty">{t(`rewardRules.noConditions.${rule.event}`)}</p>
            )}
            {editable ? (
              <Button size="small" fill="outline" disabled={rule.conditions.length >= CONDITIONS_MAX} onClick={() => onChange({ conditions: [...rule.conditions, newCondition()] })} data-testid={`${id}-add-condition`}>
                <AddOutline aria-hidden /> {rule.conditions.length >= CONDITIONS_MAX ? t('rewardRules.conditionsFull', { max: CONDITIONS_MAX }) : t('rewardRules.addCondition')}
              </Button>
            ) : null}
          </fieldset>
        </>
      )}

      <div className="rule-grid">
        {rule.base && rule.event === 'lead' ? null : (
          <div className="field">
            <span className="console-field-label">{t('rewardRules.fields.rewardType')}</span>
            <Choice label={t('rewardRules.fields.rewardType')} value={rule.rewardType} disabled={!editable} onChange={(rewardType) => onChange({ rewardType })}
              options={[{ value: 'percent', label: t('rewardRules.rewardType.percent'), testId: `${id}-type-percent` }, { value: 'fixed', label: t('rewardRules.rewardType.fixed'), testId: `${id}-type-fixed` }]} />
          </div>
        )}
        <FormField id={`${id}-reward`} label={t('rewardRules.fields.reward')} error={rewardError}
          help={rule.rewardType === 'percent' ? t('rewardRules.percentHelp') : rule.event === 'lead' ? t('rewardRules.fixedLeadHelp') : t('rewardRules.fixedHelp')}>
          <WithUnit unit={rule.rewardType === 'percent' ? '%' : unit}>
            <TextInput id={`${id}-reward`} data-testid={`${id}-reward`} inputMode="decimal" autoComplete="off" value={rule.reward} onChange={(v) => onChange({ reward: v })} invalid={!!rewardError} disabled={!editable} />
          </WithUnit>
        </FormField>
        {rule.base ? null : (
          <FormField id={`${id}-cap`} label={t('rewardRules.fields.cap')} error={errors[`${at}.capPerPromoterPerMonth`]} help={t('rewardRules.capHelp')}>
            <WithUnit unit={unit}>
              <TextInput id={`${id}-cap`} data-testid={`${id}-cap`} inputMode="decimal" autoComplete="off" value={rule.cap} onChange={(v) => onChange({ cap: v })} invalid={!!errors[`${at}.capPerPromoterPerMonth`]} disabled={!editable} />
            </WithUnit>
          </FormField>
        )}
      </div>
    </li>
  );
}

/** The campaign's rules in order, its monthly budget, and a preview of what a sale would earn. */
export function RewardRulesEditor({ campaignId, campaignActive, rewards, currency, groups, editable }: Props) {
  const { t, i18n } = useTranslation();
  const put = usePutRewards(campaignId);
  const decimal = decimalSeparator(i18n.language);
  const [baseline, setBaseline] = useState<RewardsFormValues>(() => valuesFromRewards(rewards, currency, decimal));
  const [values, setValues] = useState(baseline);
  const [errors, setErrors] = useState<FormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const dirty = !sameRewards(values, baseline);
  useLeaveGuard(dirty && editable && !put.isPending);
  const never = unreachable(values.rules);

  /** Errors of rule `from` onwards move with their rules; those of a changed rule go. */
  const dropErrors = (prefix: string) => setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !(k === prefix || k.startsWith(`${prefix}.`)))));
  const setRules = (rules: RuleValues[], clearAll = false) => {
    setValues((v) => ({ ...v, rules }));
    if (clearAll) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('rules'))));
  };
  const patchRule = (i: number, patch: Partial<RuleValues>) => {
    setValues((v) => ({ ...v, rules: v.rules.map((r, k) => (k === i ? { ...r, ...patch } : r)) }));
    if (withPrefix(errors, `rules.${i}`)) dropErrors(`rules.${i}`);
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...values.rules];
    const [rule] = next.splice(i, 1);
    next.splice(i + by, 0, rule!);
    setRules(next, true);
  };
  const add = () => {
    // Before the first base rule: after it, a sale rule would never be reached.
    const at = values.rules.findIndex((r) => r.base);
    const next = [...values.rules];
    next.splice(at < 0 ? next.length : at, 0, newRule('sale'));
    setRules(next, true);
    window.setTimeout(() => document.querySelector<HTMLInputElement>(`#rule-${at < 0 ? next.length - 1 : at}-label`)?.focus(), 50);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const result = toRewardsBody(values, currency, i18n.language);
    if (result.errors) {
      setErrors(result.errors);
      setFormError(t('errors.VALIDATION_FAILED'));
      revealFirstError();
      return;
    }
    if (campaignActive) {
      const go = await Dialog.confirm({ title: t('rewardRules.confirm.title'), content: t('rewardRules.confirm.body'), confirmText: t('rewardRules.confirm.confirm'), cancelText: t('app.cancel') });
      if (!go) return;
    }
    try {
      const saved = await put.mutateAsync(result.body);
      const next = valuesFromRewards(saved, currency, decimal);
      setBaseline(next);
      setValues(next);
      setErrors({});
      Toast.show({ icon: 'success', content: t('rewardRules.saved') });
    } catch (error) {
      setFormError(errorText(t, error));
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) {
        setErrors(serverRewardErrors(error.fields));
        revealFirstError();
      } else Toast.show({ content: errorText(t, error) });
    }
  };

  return (
    <form className="console-form rules-form" onSubmit={onSubmit} noValidate data-testid="rules-form">
      {formError ? <div className="form-error" role="alert" data-testid="form-error">{formError}</div> : null}
      <div className="rules-layout">
        <div className="rules-main">
          <p className="hint rules-intro">{t('rewardRules.intro')}</p>
          <ol className="rule-list" data-testid="rule-list">
            {values.rules.map((rule, i) => (
              <RuleCard key={rule.key} rule={rule} index={i} count={values.rules.length} never={never.has(i)} errors={errors} editable={editable} currency={currency} groups={groups}
                onChange={(patch) => patchRule(i, patch)} onMove={(by) => move(i, by)} onRemove={() => setRules(values.rules.filter((_, k) => k !== i), true)} />
            ))}
          </ol>
          {errors.rules ? <p className="field-error rule-error">{t('campaignAdmin.errors.tooMany', errors.rules.values)}</p> : null}
          {editable ? (
            <div className="rules-add">
              <Button fill="outline" color="primary" disabled={values.rules.length >= RULES_MAX} onClick={add} data-testid="rule-add">
                <AddOutline aria-hidden /> {values.rules.length >= RULES_MAX ? t('rewardRules.rulesFull', { max: RULES_MAX }) : t('rewardRules.addRule')}
              </Button>
            </div>
          ) : null}
          <section className="card">
            <h2>{t('rewardRules.budgetTitle')}</h2>
            <FormField id="rules-budget" label={t('rewardRules.fields.budget')} error={errors.budgetPerMonth} help={t('rewardRules.budgetHelp')}>
              <WithUnit unit={currencyMark(currency)}>
                <TextInput id="rules-budget" data-testid="rules-budget" inputMode="decimal" autoComplete="off" value={values.budget} onChange={(v) => { setValues((x) => ({ ...x, budget: v })); if (errors.budgetPerMonth) dropErrors('budgetPerMonth'); }} invalid={!!errors.budgetPerMonth} disabled={!editable} />
              </WithUnit>
            </FormField>
          </section>
        </div>
        <aside className="rules-side">
          <RewardPreview values={values} currency={currency} groups={groups} />
        </aside>
      </div>
      {editable ? (
        <div className="console-save-bar">
          {dirty ? <span className="console-unsaved" data-testid="rules-unsaved">{t('rewardRules.unsaved')}</span> : null}
          <Button block type="submit" color="primary" size="large" loading={put.isPending} data-testid="rules-save">{t('rewardRules.save')}</Button>
        </div>
      ) : null}
    </form>
  );
}
