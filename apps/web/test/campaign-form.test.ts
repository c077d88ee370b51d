import { describe, expect, it } from 'vitest';
import type { AdminCampaign } from '@pa/shared';
import {
  campaignName, dateInputToEpoch, decimalSeparator, emptyValues, endDayToEpoch, endEpochToDateInput, epochToDateInput, localesWithErrors, newTier, parseHosts, rewardChanged, sameValues, serverErrors, toBody, valuesFromCampaign,
  type CampaignFormValues,
} from '../src/features/campaigns/lib/campaign-form';
import { termSentences } from '../src/features/campaigns/components/campaign-terms';

const filled = (patch: Partial<CampaignFormValues> = {}): CampaignFormValues => {
  const v = emptyValues();
  return { ...v, names: { ...v.names, en: ' Summer Tea ', 'zh-Hans': '夏日茶饮' }, landingUrl: 'https://tea.example.com/summer', ...patch };
};

describe('campaign editor: inputs → request body', () => {
  it('converts every typed value exactly and drops empty languages', () => {
    const result = toBody(
      filled({
        descriptions: { ...emptyValues().descriptions, fr: '  Thé glacé ' },
        allowedHosts: 'Shop.Example.com\nblog.example.com, shop.example.com https://m.example.com/path',
        leadReward: '12.5',
        saleReward: '10.55',
        tiers: [newTier('20', '12'), newTier('50', '15.5')],
        overrideBps: '2.5',
        attributionWindowDays: '45',
        holdDays: '0',
        approvalMode: 'manual',
        joinMode: 'approval',
        startsAt: '2026-05-01',
        endsAt: '2026-06-30',
      }),
      'CNY',
      'en',
      'Asia/Shanghai',
    );
    expect(result.errors).toBeUndefined();
    expect(result.body).toEqual({
      names: { en: 'Summer Tea', 'zh-Hans': '夏日茶饮' },
      descriptions: { fr: 'Thé glacé' },
      shareTexts: {},
      landingUrl: 'https://tea.example.com/summer',
      allowedHosts: ['shop.example.com', 'blog.example.com', 'm.example.com'],
      leadReward: 1250,
      saleRewardType: 'bps',
      saleReward: 1055,
      tiers: [{ minSales: 20, bps: 1200 }, { minSales: 50, bps: 1550 }],
      overrideBps: 250,
      attributionWindowDays: 45,
      customerBinding: 0,
      holdDays: 0,
      approvalMode: 'manual',
      joinMode: 'approval',
      // From the start of 1 May to the end of 30 June (included), in the installation's zone (UTC+8).
      startsAt: Date.UTC(2026, 3, 30, 16),
      endsAt: Date.UTC(2026, 5, 30, 16),
    });
  });

  it('reads a fixed sale reward as money in the installation currency', () => {
    expect(toBody(filled({ saleRewardType: 'fixed', saleReward: '3.5' }), 'USD', 'en').body?.saleReward).toBe(350);
    expect(toBody(filled({ saleRewardType: 'fixed', saleReward: '300', leadReward: '50' }), 'JPY', 'en').body).toMatchObject({ saleReward: 300, leadReward: 50 });
  });

  it('reports each problem on the field the server would name', () => {
    const result = toBody(
      {
        ...emptyValues(),
        landingUrl: 'http://tea.example.com',
        allowedHosts: 'shop.example.com\nbad_host.example.com',
        leadReward: '1.234',
        saleReward: '101',
        tiers: [newTier('10', '5'), newTier('10', 'x'), newTier('0', '5')],
        overrideBps: '-1',
        attributionWindowDays: '0',
        holdDays: '91',
        startsAt: '2026-06-30',
        endsAt: '2026-06-29',
      },
      'EUR',
      'en',
    );
    expect(result.errors).toEqual({
      names: { code: 'nameRequired' },
      landingUrl: { code: 'https' },
      allowedHosts: { code: 'host', values: { host: 'bad_host.example.com' } },
      leadReward: { code: 'decimals', values: { digits: 2 } },
      saleReward: { code: 'tooLarge', values: { max: '100%' } },
      'tiers.1.minSales': { code: 'duplicateTier' },
      'tiers.1.bps': { code: 'invalid' },
      'tiers.2.minSales': { code: 'range', values: { min: '1', max: '1,000,000' } },
      overrideBps: { code: 'negative' },
      attributionWindowDays: { code: 'range', values: { min: '1', max: '365' } },
      holdDays: { code: 'range', values: { min: '0', max: '90' } },
      endsAt: { code: 'endBeforeStart' },
    });
  });

  it('asks for whole amounts in zero-decimal currencies and quotes the limit in the reader’s format', () => {
    expect(toBody(filled({ leadReward: '10.5' }), 'JPY', 'en').errors).toEqual({ leadReward: { code: 'noDecimals' } });
    expect(toBody(filled({ leadReward: '' }), 'JPY', 'en').errors).toEqual({ leadReward: { code: 'required' } });
    expect(toBody(filled({ leadReward: '1000000.01' }), 'USD', 'en').errors).toEqual({ leadReward: { code: 'tooLarge', values: { max: 'US$1,000,000.00' } } });
    expect(toBody(filled({ attributionWindowDays: '0' }), 'USD', 'fr').errors).toEqual({ attributionWindowDays: { code: 'range', values: { min: '1', max: '365' } } });
  });

  it('refuses more than 20 hosts', () => {
    const hosts = Array.from({ length: 21 }, (_, i) => `h${i}.example.com`).join('\n');
    expect(toBody(filled({ allowedHosts: hosts }), 'USD', 'en').errors).toEqual({ allowedHosts: { code: 'tooManyHosts', values: { max: 20 } } });
  });
});

describe('campaign editor: campaign → inputs', () => {
  const campaign: AdminCampaign = {
    id: 'c1', status: 'draft', landingUrl: 'https://tea.example.com', startsAt: new Date(2026, 0, 15).getTime(), endsAt: null,
    leadReward: 1250, saleRewardType: 'bps', saleReward: 1050, tiers: [{ minSales: 30, bps: 1200 }], overrideBps: 5, attributionWindowDays: 30, customerBinding: 0, holdDays: 7,
    joinMode: 'open', cover: null, posters: [], names: { fr: 'Thé', en: 'Tea' }, descriptions: {}, allowedHosts: ['a.example.com', 'b.example.com'],
    approvalMode: 'auto', shareTexts: { en: 'Try {name}: {link}' }, createdAt: 0, updatedAt: 0,
  };

  it('opens a schedule on the days that were chosen, the end day included, and saves it back unchanged', () => {
    const scheduled = { ...campaign, startsAt: Date.UTC(2027, 1, 1, 16), endsAt: Date.UTC(2027, 1, 28, 16) };
    const v = valuesFromCampaign(scheduled, 'CNY', '.', 'Asia/Shanghai');
    expect(v).toMatchObject({ startsAt: '2027-02-02', endsAt: '2027-02-28' });
    expect(toBody(v, 'CNY', 'en', 'Asia/Shanghai').body).toMatchObject({ startsAt: scheduled.startsAt, endsAt: scheduled.endsAt });
  });

  it('shows stored integers as the text an editor would type, and saves them back unchanged', () => {
    const v = valuesFromCampaign(campaign, 'CNY');
    expect(v).toMatchObject({ leadReward: '12.50', saleReward: '10.5', overrideBps: '0.05', allowedHosts: 'a.example.com\nb.example.com', startsAt: '2026-01-15', endsAt: '' });
    expect(v.tiers.map(({ minSales, percent }) => [minSales, percent])).toEqual([['30', '12']]);
    expect(v.names).toEqual({ 'zh-Hans': '', 'zh-Hant': '', en: 'Tea', fr: 'Thé', es: '' });
    const { body } = toBody(v, 'CNY', 'en');
    expect(body).toMatchObject({ leadReward: 1250, saleReward: 1050, overrideBps: 5, tiers: [{ minSales: 30, bps: 1200 }], startsAt: campaign.startsAt, endsAt: null, shareTexts: { en: 'Try {name}: {link}' } });
  });

  it('writes amounts with the reader’s decimal separator, and reads them back', () => {
    expect(decimalSeparator('en')).toBe('.');
    expect(decimalSeparator('zh-Hans')).toBe('.');
    expect(decimalSeparator('fr')).toBe(',');
    expect(decimalSeparator('es')).toBe(',');
    const v = valuesFromCampaign(campaign, 'EUR', ',');
    expect(v).toMatchObject({ leadReward: '12,50', saleReward: '10,5', overrideBps: '0,05' });
    expect(v.tiers[0]!.percent).toBe('12');
    expect(toBody(v, 'EUR', 'fr').body).toMatchObject({ leadReward: 1250, saleReward: 1050, overrideBps: 5 });
  });

  it('reads and writes how long a customer stays bound: the window only, months, or for life', () => {
    expect(valuesFromCampaign(campaign, 'CNY')).toMatchObject({ bindingMode: 'window', bindingMonths: '12' });
    expect(toBody(valuesFromCampaign(campaign, 'CNY'), 'CNY', 'en').body).toMatchObject({ customerBinding: 0 });
    const twelve = valuesFromCampaign({ ...campaign, customerBinding: 24 }, 'CNY');
    expect(twelve).toMatchObject({ bindingMode: 'months', bindingMonths: '24' });
    expect(toBody(twelve, 'CNY', 'en').body).toMatchObject({ customerBinding: 24 });
    const life = valuesFromCampaign({ ...campaign, customerBinding: 'lifetime' }, 'CNY');
    expect(life.bindingMode).toBe('lifetime');
    expect(toBody(life, 'CNY', 'en').body).toMatchObject({ customerBinding: 'lifetime' });
    expect(toBody({ ...twelve, bindingMonths: '0' }, 'CNY', 'en').errors).toEqual({ customerBinding: { code: 'range', values: { min: '1', max: '120' } } });
    // Months typed but not chosen are not sent.
    expect(toBody({ ...twelve, bindingMode: 'window', bindingMonths: 'x' }, 'CNY', 'en').body).toMatchObject({ customerBinding: 0 });
  });

  it('knows unchanged values from edited ones, whatever the tier row keys', () => {
    const a = valuesFromCampaign(campaign, 'CNY');
    const b = valuesFromCampaign(campaign, 'CNY');
    expect(a.tiers[0]!.key).not.toBe(b.tiers[0]!.key);
    expect(sameValues(a, b)).toBe(true);
    expect(sameValues(a, { ...b, holdDays: '8' })).toBe(false);
    expect(sameValues(a, { ...b, names: { ...b.names, es: 'Té' } })).toBe(false);
  });
});

describe('campaign editor helpers', () => {
  it('turns a start day into the start of that day in the installation’s zone, and back', () => {
    expect(dateInputToEpoch('', 'UTC')).toBeNull();
    expect(dateInputToEpoch('2026-13', 'UTC')).toBeNull();
    expect(dateInputToEpoch('2026-03-29', 'Asia/Shanghai')).toBe(Date.UTC(2026, 2, 28, 16));
    expect(dateInputToEpoch('2026-03-29', 'UTC')).toBe(Date.UTC(2026, 2, 29));
    expect(epochToDateInput(Date.UTC(2026, 2, 28, 16), 'Asia/Shanghai')).toBe('2026-03-29');
    expect(epochToDateInput(null, 'UTC')).toBe('');
  });

  it('includes the chosen end day: "ends 28/02/2027" is stored as the end of 28 February in the installation’s zone (issue 28)', () => {
    expect(endDayToEpoch('', 'UTC')).toBeNull();
    expect(endDayToEpoch('2027-02-28', 'Asia/Shanghai')).toBe(Date.UTC(2027, 1, 28, 16)); // 1 March 00:00 +08:00
    expect(endDayToEpoch('2027-02-28', 'America/New_York')).toBe(Date.UTC(2027, 2, 1, 5)); // 1 March 00:00 −05:00
    expect(endDayToEpoch('2028-02-28', 'UTC')).toBe(Date.UTC(2028, 1, 29)); // a leap year: the 29th follows
    expect(endDayToEpoch('2026-12-31', 'UTC')).toBe(Date.UTC(2027, 0, 1));
    // New York moves its clocks on 8 March 2026: that day is 23 hours long.
    expect(endDayToEpoch('2026-03-08', 'America/New_York')! - endDayToEpoch('2026-03-07', 'America/New_York')!).toBe(23 * 3_600_000);
    // Read back as the same day, in the zone it was chosen in.
    for (const zone of ['Asia/Shanghai', 'America/New_York', 'Europe/Paris', 'UTC']) {
      expect(endEpochToDateInput(endDayToEpoch('2027-02-28', zone), zone), zone).toBe('2027-02-28');
    }
    expect(endEpochToDateInput(null, 'UTC')).toBe('');
    // A one-day campaign: the same first and last day is a whole day, not an error.
    const oneDay = toBody(filled({ startsAt: '2027-02-28', endsAt: '2027-02-28' }), 'CNY', 'en', 'Europe/Paris');
    expect(oneDay.errors).toBeUndefined();
    expect(oneDay.body!.endsAt! - oneDay.body!.startsAt!).toBe(24 * 3_600_000);
  });

  it('tells promoters the last day, included, not the day after it', () => {
    const t = ((key: string, values?: Record<string, string>) => `${key} ${JSON.stringify(values ?? {})}`) as unknown as Parameters<typeof termSentences>[1];
    const base = { saleReward: 1000, saleRewardType: 'bps', tiers: [], leadReward: 0, overrideBps: 0, attributionWindowDays: 30, holdDays: 7, joinMode: 'open', currency: 'CNY', startsAt: null };
    // endsAt: the first instant after the campaign, 1 March 00:00 where the reader is.
    const endsAt = new Date(2027, 2, 1).getTime();
    const dates = (c: object) => termSentences(c as Parameters<typeof termSentences>[0], t, 'en').find((s) => s.key === 'dates')!.text;
    expect(dates({ ...base, endsAt })).toBe('campaign.terms.ends {"date":"Feb 28, 2027"}');
    expect(dates({ ...base, startsAt: new Date(2027, 1, 1).getTime(), endsAt })).toBe('campaign.terms.runs {"from":"Feb 1, 2027","to":"Feb 28, 2027"}');
  });

  it('reads hosts one per line or separated by commas, lowercased and without duplicates', () => {
    expect(parseHosts('')).toEqual([]);
    expect(parseHosts(' A.example.com ,b.example.com;\n\nA.EXAMPLE.COM. https://C.example.com:8443/x ')).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
  });

  it('names a campaign in the reader’s language, else English, else the first given', () => {
    expect(campaignName({ en: 'Tea', fr: 'Thé' }, 'fr')).toBe('Thé');
    expect(campaignName({ en: 'Tea', fr: 'Thé' }, 'es')).toBe('Tea');
    expect(campaignName({ es: 'Té', 'zh-Hant': '茶' }, 'fr')).toBe('茶');
    expect(campaignName({}, 'en')).toBe('');
  });

  it('puts the server’s field errors on the inputs that show them', () => {
    const errors = serverErrors({ names: 'required', 'allowedHosts.2': 'invalid', 'descriptions.fr': 'too_long', 'tiers.0.bps': 'too_long' });
    expect(errors).toEqual({ names: { code: 'nameRequired' }, allowedHosts: { code: 'invalid' }, 'descriptions.fr': { code: 'too_long' }, 'tiers.0.bps': { code: 'too_long' } });
    expect([...localesWithErrors(errors)]).toEqual(['fr']);
  });
});

describe('rewardChanged: what an active campaign asks to confirm', () => {
  it('is the reward only — lead, sale, tiers, override, recurring — not the texts or the schedule', () => {
    const base = { ...emptyValues(), leadReward: '2', saleReward: '10', bindingMode: 'window' as const };
    expect(rewardChanged(base, { ...base, names: { ...base.names, en: 'Another name' }, holdDays: '14', endsAt: '2027-01-01' })).toBe(false);
    expect(rewardChanged(base, { ...base, saleReward: '12' })).toBe(true);
    expect(rewardChanged(base, { ...base, leadReward: '3' })).toBe(true);
    expect(rewardChanged(base, { ...base, overrideBps: '5' })).toBe(true);
    expect(rewardChanged(base, { ...base, tiers: [newTier('10', '15')] })).toBe(true);
    expect(rewardChanged(base, { ...base, bindingMode: 'lifetime' })).toBe(true);
  });
});
