import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RewardEvent } from '@pa/shared';
import { TextInput } from '@/components/field';
import { FormField, WithUnit } from '@/components/form-field';
import { currencyMark, formatMoney } from '@/lib/format';
import type { GroupOption } from '../api/rewards';
import { emptyPreview, previewEarning, type PreviewValues, type RewardsFormValues } from '../lib/reward-rules-form';
import { conditionText, rewardText } from '../lib/reward-rules-text';
import { Choice } from '@/components/choice';
import { useGroupName } from '@/lib/group-name';

/**
 * "A sale of CN¥200.00 with SKU TEA-01 by a Gold promoter earns CN¥30.00": the rules being
 * edited, run by the server's own matching on a sale or lead typed here, before tiers and caps.
 */
export function RewardPreview({ values, currency, groups }: { values: RewardsFormValues; currency: string; groups: GroupOption[] | null }) {
  const { t, i18n } = useTranslation();
  const groupName = useGroupName();
  const locale = i18n.language;
  const [p, setP] = useState<PreviewValues>(() => emptyPreview(groups?.find((g) => g.id === 'default')?.id ?? groups?.[0]?.id ?? 'default'));
  const set = (patch: Partial<PreviewValues>) => setP((x) => ({ ...x, ...patch }));
  const result = previewEarning(values, p, currency, locale);
  const money = (minor: number) => formatMoney(minor, currency, locale);

  let headline: string;
  let why: string | null = null;
  const skipped: string[] = [];
  if (!result.ok) headline = result.reason === 'amount' ? t('rewardRules.preview.invalidAmount') : t('rewardRules.preview.invalidRules');
  else {
    const { decision, ruleIndex, amount } = result;
    const earned = money(decision.earned);
    headline = p.event === 'sale' ? t('rewardRules.preview.saleEarns', { amount: money(amount), earned }) : amount > 0 ? t('rewardRules.preview.leadWorthEarns', { amount: money(amount), earned }) : t('rewardRules.preview.leadEarns', { earned });
    const { rules } = result;
    for (const m of decision.missed) {
      const n = rules.findIndex((r) => r.id === m.ruleId);
      if ('group' in m) skipped.push(t('rewardRules.preview.missGroup', { n: n + 1 }));
      else skipped.push(t('rewardRules.preview.missCondition', { n: n + 1, condition: conditionText(rules[n]!.conditions[m.condition]!, t, currency, locale) }));
    }
    if (ruleIndex === null || !decision.reward) why = t(`rewardRules.preview.noRule.${p.event}`);
    else {
      const rule = values.rules[ruleIndex]!;
      const reward = rewardText(decision.reward, currency, locale);
      why = rule.base ? t('rewardRules.preview.byBase', { reward }) : rule.label.trim() ? t('rewardRules.preview.byRuleLabel', { n: ruleIndex + 1, label: rule.label.trim(), reward }) : t('rewardRules.preview.byRule', { n: ruleIndex + 1, reward });
    }
  }

  const sale = p.event === 'sale';
  return (
    <section className="card rule-preview" aria-labelledby="rule-preview-title" data-testid="rule-preview">
      <h2 id="rule-preview-title">{t('rewardRules.preview.title')}</h2>
      <p className="hint">{t('rewardRules.preview.help')}</p>
      <div className="field">
        <span className="console-field-label">{t('rewardRules.preview.event')}</span>
        <Choice label={t('rewardRules.preview.event')} value={p.event} onChange={(event: RewardEvent) => set({ event })}
          options={[{ value: 'sale', label: t('rewardRules.event.sale'), testId: 'preview-event-sale' }, { value: 'lead', label: t('rewardRules.event.lead'), testId: 'preview-event-lead' }]} />
      </div>
      <div className="rule-preview-grid">
        <FormField id="preview-amount" label={t('rewardRules.preview.amount')}>
          <WithUnit unit={currencyMark(currency)}>
            <TextInput id="preview-amount" data-testid="preview-amount" inputMode="decimal" autoComplete="off" value={p.amount} onChange={(amount) => set({ amount })} />
          </WithUnit>
        </FormField>
        {groups && groups.length > 0 ? (
          <div className="field">
            <label htmlFor="preview-group">{t('rewardRules.preview.group')}</label>
            <select id="preview-group" className="text-input rules-select" value={p.groupId} onChange={(e) => set({ groupId: e.target.value })} data-testid="preview-group">
              {groups.map((g) => <option key={g.id} value={g.id}>{groupName(g)}</option>)}
            </select>
          </div>
        ) : null}
        {sale ? (
          <>
            <FormField id="preview-sku" label={t('rewardRules.field.sku')}>
              <TextInput id="preview-sku" data-testid="preview-sku" value={p.sku} onChange={(sku) => set({ sku })} placeholder="TEA-01" autoCapitalize="off" autoComplete="off" spellCheck={false} />
            </FormField>
            <FormField id="preview-category" label={t('rewardRules.field.category')}>
              <TextInput id="preview-category" data-testid="preview-category" value={p.category} onChange={(category) => set({ category })} autoCapitalize="off" autoComplete="off" spellCheck={false} />
            </FormField>
          </>
        ) : null}
        <FormField id="preview-country" label={t('rewardRules.field.country')}>
          <TextInput id="preview-country" data-testid="preview-country" value={p.country} onChange={(country) => set({ country: country.toUpperCase() })} placeholder="FR" maxLength={2} autoCapitalize="characters" autoComplete="off" spellCheck={false} />
        </FormField>
        <div className="field">
          <label htmlFor="preview-new">{t('rewardRules.field.newCustomer')}</label>
          <select id="preview-new" className="text-input rules-select" value={p.newCustomer} onChange={(e) => set({ newCustomer: e.target.value as PreviewValues['newCustomer'] })} data-testid="preview-new">
            <option value="unknown">{t('rewardRules.preview.unknown')}</option>
            <option value="yes">{t('rewardRules.newCustomerYes')}</option>
            <option value="no">{t('rewardRules.newCustomerNo')}</option>
          </select>
        </div>
        <FormField id="preview-meta-key" label={t('rewardRules.metaKeyLabel')}>
          <TextInput id="preview-meta-key" data-testid="preview-meta-key" value={p.metaKey} onChange={(metaKey) => set({ metaKey })} autoCapitalize="off" autoComplete="off" spellCheck={false} maxLength={40} />
        </FormField>
        <FormField id="preview-meta-value" label={t('rewardRules.preview.metaValue')}>
          <TextInput id="preview-meta-value" data-testid="preview-meta-value" value={p.metaValue} onChange={(metaValue) => set({ metaValue })} placeholder="pro" autoCapitalize="off" autoComplete="off" spellCheck={false} />
        </FormField>
      </div>
      <div className="rule-preview-result" role="status" aria-live="polite" data-testid="preview-result">
        <p className={`rule-preview-headline${result.ok ? '' : ' rule-preview-muted'}`}>{headline}</p>
        {why ? <p className="rule-preview-why" data-testid="preview-why">{why}</p> : null}
        {skipped.length ? (
          <ul className="rule-preview-skipped">
            {skipped.map((s, i) => <li key={i}>{s}</li>)}
          </ul>
        ) : null}
      </div>
    </section>
  );
}
