import { describe, expect, it } from 'vitest';
import { BountyCreateSchema, BountyPatchSchema, BountySubmissionCreateSchema, type AdminBounty } from '@pa/shared';
import { bountyLocalesWithErrors, bountyServerErrors, emptyBountyValues, toBountyBody, toPatch, valuesFromBounty, type BountyFormValues } from '../src/features/bounties/lib/bounty-form';
import { goalText, pickText, progressPercent, progressText } from '../src/features/bounties/lib/bounty-text';
import { normalizeUrl, toProofBody } from '../src/features/bounties/lib/submission-form';

const ZONE = 'Asia/Shanghai';
const form = (patch: Partial<BountyFormValues>): BountyFormValues => ({ ...emptyBountyValues(), ...patch, names: { ...emptyBountyValues().names, ...patch.names } });

/** A t() that writes the key and its values, with i18next's plural suffix for `count`. */
const t = ((key: string, values: Record<string, unknown> = {}) => {
  const suffix = typeof values.count === 'number' ? (values.count === 1 ? '_one' : '_other') : '';
  return `${key}${suffix}${JSON.stringify(values)}`;
}) as never;

describe('bounty form: inputs ↔ request body', () => {
  it('builds a performance bounty in the contract’s shape: money in minor units, dates in the installation’s zone (end day included)', () => {
    const result = toBountyBody(form({ names: { en: ' 5 sales ', fr: '5 ventes' } as never, metric: 'saleAmount', goalValue: '500', period: 'month', reward: '50,5', startsAt: '2026-12-01', endsAt: '2026-12-31' }), 'CNY', 'fr', ZONE);
    expect(result.errors).toBeUndefined();
    const body = BountyCreateSchema.parse(result.body);
    expect(body).toMatchObject({ kind: 'performance', names: { en: '5 sales', fr: '5 ventes' }, goal: { metric: 'saleAmount', value: 50_000, period: 'month' }, reward: 5_050 });
    expect(body.startsAt).toBe(Date.UTC(2026, 10, 30, 16));
    expect(body.endsAt).toBe(Date.UTC(2026, 11, 31, 16));
  });

  it('a submission bounty has no goal; a count goal is a whole number', () => {
    const sub = toBountyBody(form({ kind: 'submission', names: { en: 'Post a video' } as never, reward: '30', goalValue: 'whatever' }), 'CNY', 'en', ZONE);
    expect(BountyCreateSchema.parse(sub.body)).toMatchObject({ kind: 'submission', reward: 3_000 });
    expect(sub.body).not.toHaveProperty('goal');
    expect(toBountyBody(form({ names: { en: 'x' } as never, metric: 'sales', goalValue: '2.5', reward: '1' }), 'CNY', 'en', ZONE).errors).toEqual({ 'goal.value': { code: 'range', values: { min: '1', max: '1,000,000' } } });
  });

  it('says what is wrong, field by field, on the server’s paths', () => {
    const { errors } = toBountyBody(form({ reward: '0', goalValue: '', startsAt: '2026-12-10', endsAt: '2026-12-01', descriptions: { ...emptyBountyValues().descriptions, zh: '' } as never }), 'JPY', 'en', ZONE);
    expect(errors).toEqual({ names: { code: 'bountyNameRequired' }, reward: { code: 'positive' }, 'goal.value': { code: 'required' }, endsAt: { code: 'endBeforeStart' } });
    expect(toBountyBody(form({ names: { en: 'x' } as never, reward: '1.5', goalValue: '3' }), 'JPY', 'en', ZONE).errors).toEqual({ reward: { code: 'noDecimals' } });
    const long = toBountyBody(form({ names: { fr: 'x'.repeat(81) } as never, reward: '1', goalValue: '1' }), 'CNY', 'en', ZONE).errors!;
    expect(long['names.fr']).toEqual({ code: 'tooLong', values: { max: 80 } });
    expect([...bountyLocalesWithErrors(long)]).toEqual(['fr']);
    expect(bountyServerErrors({ names: 'required', 'goal.value': 'too_big', 'groupIds.0': 'invalid' })).toEqual({ names: { code: 'bountyNameRequired' }, 'goal.value': { code: 'too_big' }, groupIds: { code: 'invalid' } });
  });

  it('fills the inputs from a bounty and saves the same fields back (the kind stays)', () => {
    const bounty: AdminBounty = {
      id: 'b1', campaignId: 'c1', kind: 'performance', names: { en: '5 sales', 'zh-Hans': '5 笔销售' }, descriptions: { en: 'Go' }, reward: 12_345,
      goal: { metric: 'sales', value: 5, period: 'campaign' }, groupIds: ['g1'], startsAt: Date.UTC(2026, 10, 30, 16), endsAt: Date.UTC(2026, 11, 31, 16),
      status: 'active', createdAt: 0, earnedCount: 0, pendingSubmissions: 0,
    };
    const values = valuesFromBounty(bounty, 'CNY', ZONE);
    expect(values).toMatchObject({ kind: 'performance', metric: 'sales', goalValue: '5', period: 'campaign', reward: '123.45', groupIds: ['g1'], startsAt: '2026-12-01', endsAt: '2026-12-31' });
    expect(values.names.fr).toBe('');
    const patch = BountyPatchSchema.parse(toPatch(toBountyBody(values, 'CNY', 'en', ZONE).body!));
    expect(patch).toMatchObject({ names: bounty.names, descriptions: bounty.descriptions, reward: 12_345, goal: bounty.goal, groupIds: ['g1'], startsAt: bounty.startsAt, endsAt: bounty.endsAt });
    expect(patch).not.toHaveProperty('kind');
  });
});

describe('bounty words', () => {
  it('goal and progress, plural by the goal, amounts in the currency', () => {
    expect(goalText(t, { metric: 'sales', value: 5, period: 'month' }, 'CNY', 'en')).toBe('bounties.goal.sales.month_other{"count":5}');
    expect(goalText(t, { metric: 'saleAmount', value: 50_000, period: 'month' }, 'CNY', 'en')).toBe('bounties.goal.saleAmount.month{"amount":"CN¥500.00"}');
    expect(progressText(t, { metric: 'leads', value: 1, period: 'campaign' }, 0, 'CNY', 'en')).toBe('bounties.progress.leads.campaign_one{"current":0,"count":1}');
    expect(progressText(t, { metric: 'saleAmount', value: 50_000, period: 'month' }, 12_000, 'CNY', 'en')).toBe('bounties.progress.saleAmount.month{"current":"CN¥120.00","goal":"CN¥500.00"}');
    expect([progressPercent({ metric: 'sales', value: 5, period: 'month' }, 3), progressPercent({ metric: 'sales', value: 5, period: 'month' }, 9)]).toEqual([60, 100]);
    expect([pickText({ en: 'A', fr: 'B' }, 'fr'), pickText({ en: 'A' }, 'es'), pickText({ 'zh-Hant': 'C' }, 'es')]).toEqual(['B', 'A', 'C']);
  });
});

describe('proof form', () => {
  it('needs words; a link typed without its scheme is read as https; the body passes the contract', () => {
    expect(toProofBody({ text: '  ', url: '', imageId: null }).errors).toEqual({ text: 'required' });
    expect(toProofBody({ text: 'ok', url: 'not a link', imageId: null }).errors).toEqual({ url: 'url' });
    expect(toProofBody({ text: 'ok', url: 'javascript:alert(1)', imageId: null }).errors).toEqual({ url: 'url' });
    expect(normalizeUrl(' video.example.com/x ')).toBe('https://video.example.com/x');
    const { body } = toProofBody({ text: ' Posted ', url: 'video.example.com/x', imageId: 'img1' });
    expect(BountySubmissionCreateSchema.parse(body)).toEqual({ text: 'Posted', url: 'https://video.example.com/x', imageId: 'img1' });
    expect(toProofBody({ text: 'Posted', url: '', imageId: null }).body).toEqual({ text: 'Posted' });
  });
});
