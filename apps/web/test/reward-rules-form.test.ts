import { describe, expect, it } from 'vitest';
import { RewardsPutSchema, type RewardRule, type Rewards } from '@pa/shared';
import {
  emptyPreview, newCondition, newRule, previewEarning, sameRewards, serverRewardErrors, toRewardsBody, unreachable, valuesFromRewards,
  type RewardsFormValues, type RuleValues,
} from '../src/features/campaigns/lib/reward-rules-form';

const rule = (r: Partial<RewardRule> & Pick<RewardRule, 'id' | 'reward'>): RewardRule => ({ event: 'sale', groupIds: [], conditions: [], label: null, capPerPromoterPerMonth: null, ...r });

/** What the server answers for a campaign with a Gold rate, a tea rule, a country rule, and its base rules. */
const stored: Rewards = {
  rules: [
    rule({ id: 'rgold', groupIds: ['gold'], reward: { type: 'percent', bps: 2000 }, label: 'Gold 20 %' }),
    rule({ id: 'rtea', conditions: [{ field: 'sku', op: 'in', value: ['TEA-01', 'TEA-02'] }, { field: 'amount', op: 'gte', value: 10_000 }], reward: { type: 'percent', bps: 1500 }, label: 'Tea sets 15 %', capPerPromoterPerMonth: 50_050 }),
    rule({ id: 'rnew', conditions: [{ field: 'newCustomer', op: 'eq', value: true }, { field: 'country', op: 'notIn', value: ['US'] }, { field: 'metadata.plan', op: 'eq', value: 'pro' }], reward: { type: 'fixed', amount: 500 } }),
    rule({ id: 'lead', event: 'lead', reward: { type: 'fixed', amount: 250 } }),
    rule({ id: 'sale', reward: { type: 'percent', bps: 1000 } }),
  ],
  budgetPerMonth: 1_000_000,
};

describe('reward rules editor: API ↔ inputs ↔ request body', () => {
  it('fills the inputs from the rules and builds back the same rules, ids kept, in the API’s shape', () => {
    const values = valuesFromRewards(stored, 'CNY', ',');
    expect(values.rules.map((r) => [r.id, r.base])).toEqual([['rgold', false], ['rtea', false], ['rnew', false], ['lead', true], ['sale', true]]);
    // As a French reader types them: decimal comma, major units.
    expect(values.rules[1]).toMatchObject({ reward: '15', cap: '500,50', conditions: [{ field: 'sku', op: 'in', text: 'TEA-01, TEA-02' }, { field: 'amount', op: 'gte', text: '100' }] });
    expect(values.rules[2]!.conditions.map((c) => [c.field, c.metaKey, c.op, c.text, c.yes])).toEqual([['newCustomer', '', 'eq', '', true], ['country', '', 'notIn', 'US', true], ['metadata', 'plan', 'eq', 'pro', true]]);
    expect(values.budget).toBe('10000');

    const result = toRewardsBody(values, 'CNY', 'fr');
    expect(result.errors).toBeUndefined();
    expect(result.body).toEqual({ rules: stored.rules, budgetPerMonth: 1_000_000 });
    expect(RewardsPutSchema.safeParse(result.body).success).toBe(true);
    expect(sameRewards(values, valuesFromRewards(stored, 'CNY', ','))).toBe(true);
  });

  it('turns each condition’s input into its typed value: lists, countries in capitals, money in minor units, yes/no', () => {
    const values: RewardsFormValues = {
      rules: [
        {
          ...newRule('sale'), label: '  Europe  ', groupIds: ['gold', 'gold'], rewardType: 'fixed', reward: '5.5', cap: '',
          conditions: [
            { ...newCondition(), field: 'country', op: 'in', text: 'fr, es；de\nFR' },
            { ...newCondition(), field: 'amount', op: 'lte', text: '１２.５' },
            { ...newCondition(), field: 'newCustomer', op: 'eq', yes: false },
            { ...newCondition(), field: 'metadata', metaKey: 'plan', op: 'notIn', text: 'free,trial' },
            { ...newCondition(), field: 'category', op: 'eq', text: ' cups ' },
          ],
        },
        { ...newRule('sale'), base: true, id: 'sale', conditions: [], rewardType: 'percent', reward: '10,5' },
      ],
      budget: '',
    };
    const { body, errors } = toRewardsBody(values, 'JPY', 'en');
    expect(errors?.['rules.0.conditions.1.value']).toEqual({ code: 'noDecimals' });
    const inCny = toRewardsBody(values, 'CNY', 'en');
    expect(body).toBeUndefined();
    expect(inCny.errors).toBeUndefined();
    expect(inCny.body).toEqual({
      rules: [
        {
          event: 'sale', groupIds: ['gold'], label: 'Europe', capPerPromoterPerMonth: null, reward: { type: 'fixed', amount: 550 },
          conditions: [
            { field: 'country', op: 'in', value: ['FR', 'ES', 'DE'] },
            { field: 'amount', op: 'lte', value: 1250 },
            { field: 'newCustomer', op: 'eq', value: false },
            { field: 'metadata.plan', op: 'notIn', value: ['free', 'trial'] },
            { field: 'category', op: 'eq', value: 'cups' },
          ],
        },
        { id: 'sale', event: 'sale', groupIds: [], conditions: [], reward: { type: 'percent', bps: 1050 }, label: null, capPerPromoterPerMonth: null },
      ],
      budgetPerMonth: null,
    });
    expect(RewardsPutSchema.safeParse(inCny.body).success).toBe(true);
  });

  it('keys each problem by the rule’s and the condition’s index, as the server does', () => {
    const bad: RuleValues = {
      ...newRule('sale'), reward: '120', cap: '-1',
      conditions: [
        { ...newCondition(), field: 'country', op: 'eq', text: 'France' },
        { ...newCondition(), field: 'sku', op: 'in', text: ' , ' },
        { ...newCondition(), field: 'metadata', metaKey: 'pl an', op: 'eq', text: 'pro' },
      ],
    };
    const { errors } = toRewardsBody({ rules: [{ ...newRule('lead'), conditions: [], reward: '1' }, bad], budget: 'abc' }, 'CNY', 'en');
    expect(errors).toEqual({
      'rules.1.reward': { code: 'tooLarge', values: { max: '100%' } },
      'rules.1.capPerPromoterPerMonth': { code: 'negative' },
      'rules.1.conditions.0.value': { code: 'country', values: { value: 'FRANCE' } },
      'rules.1.conditions.1.value': { code: 'required' },
      'rules.1.conditions.2.field': { code: 'metaKey' },
      budgetPerMonth: { code: 'invalid' },
    });
  });

  it('puts the server’s field errors on the inputs that show them', () => {
    expect(serverRewardErrors({ 'rules.3.groupIds': 'not_found', 'rules.0.id': 'reserved', 'rules.2.reward.bps': 'too_large', 'rules.1.conditions.0.value': 'invalid', 'rules.1.conditions.2.op': 'invalid', 'rules.4.conditions.1.field': 'invalid', budgetPerMonth: 'too_large' })).toEqual({
      'rules.3.groupIds': { code: 'not_found' },
      'rules.0': { code: 'reserved' },
      'rules.2.reward': { code: 'too_large' },
      'rules.1.conditions.0.value': { code: 'invalid' },
      'rules.1.conditions.2.value': { code: 'invalid' },
      'rules.4.conditions.1.field': { code: 'invalid' },
      budgetPerMonth: { code: 'too_large' },
    });
  });

  it('flags a rule that a rule above it with no groups and no conditions always beats', () => {
    const values = valuesFromRewards(stored, 'CNY');
    expect([...unreachable(values.rules)]).toEqual([]);
    const moved = [values.rules[4]!, ...values.rules.slice(0, 4)];
    // The sale base rule first: every sale rule after it is dead; the lead rules are not.
    expect([...unreachable(moved)]).toEqual([1, 2, 3]);
  });
});

describe('reward rules preview (the server’s matching, in the browser)', () => {
  const values = valuesFromRewards(stored, 'CNY');
  const preview = (patch: Partial<ReturnType<typeof emptyPreview>>) => previewEarning(values, { ...emptyPreview(), ...patch }, 'CNY', 'en');

  it('says what a sale earns and by which rule', () => {
    const tea = preview({ amount: '200', sku: 'tea-01' });
    expect(tea).toMatchObject({ ok: true, amount: 20_000, ruleIndex: 1, decision: { earned: 3_000, bps: 1500, missed: [{ ruleId: 'rgold', group: true }] } });
    // A Gold promoter: the group's rule comes first.
    expect(preview({ amount: '200', sku: 'TEA-01', groupId: 'gold' })).toMatchObject({ ruleIndex: 0, decision: { earned: 4_000 } });
    // Under 100.00 the tea rule's amount condition fails; a new customer outside the US on the pro plan gets the fixed 5.00.
    expect(preview({ amount: '99.99', sku: 'TEA-01', newCustomer: 'yes', country: 'fr', metaValue: 'pro' })).toMatchObject({
      ruleIndex: 2, decision: { earned: 500, missed: [{ ruleId: 'rgold', group: true }, { ruleId: 'rtea', condition: 1 }] },
    });
    // Not known whether the customer is new: that rule does not hold; the base rate pays.
    expect(preview({ amount: '99.99', metaValue: 'pro' })).toMatchObject({ ruleIndex: 4, decision: { earned: 1_000 } });
    expect(preview({ event: 'lead', amount: '0' })).toMatchObject({ ruleIndex: 3, decision: { earned: 250 } });
  });

  it('previews the rules as edited, and says when it cannot', () => {
    const edited: RewardsFormValues = { ...values, rules: values.rules.filter((r) => r.id !== 'sale') };
    expect(previewEarning(edited, { ...emptyPreview(), amount: '50' }, 'CNY', 'en')).toMatchObject({ ok: true, ruleIndex: null, decision: { earned: 0, ruleId: null } });
    expect(preview({ amount: 'x' })).toEqual({ ok: false, reason: 'amount' });
    const broken: RewardsFormValues = { ...values, rules: values.rules.map((r, i) => (i === 0 ? { ...r, reward: 'lots' } : r)) };
    expect(previewEarning(broken, emptyPreview(), 'CNY', 'en')).toEqual({ ok: false, reason: 'rules' });
  });
});
