import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, NOTIFICATION_TYPES } from '@pa/shared';
import { formatMoney } from '@pa/shared/format';
import { NOTIFICATION_TEXTS } from '@pa/shared/texts';
import { describeNotification, pickName } from '../src/features/notifications/lib/message';
import { readTexts } from './texts';

const translators = new Map<string, TFunction>();

beforeAll(async () => {
  for (const locale of LOCALES) {
    const instance = i18next.createInstance();
    // The inbox is the promoter app's (staff's too, in the console): its texts are sign-in's and the app's.
    const bundle = readTexts(locale, 'common', 'app');
    await instance.init({ lng: locale, fallbackLng: false, resources: { [locale]: { translation: bundle } }, interpolation: { escapeValue: false } });
    translators.set(locale, instance.t);
  }
});

const t = (locale: string) => translators.get(locale)!;
const campaign = { en: 'Spring Sale', 'zh-Hans': '春季大促', fr: 'Soldes de printemps' };
const params: Record<(typeof NOTIFICATION_TYPES)[number], Record<string, unknown>> = {
  'enrollment.approved': { campaignId: 'c1', campaign },
  'enrollment.rejected': { campaignId: 'c1', campaign, reason: 'Not a fit' },
  'commission.created': { commissionId: 'k1', amount: 1250, level: 1, campaign },
  'commission.approved': { commissionId: 'k1', amount: 1250, level: 2, campaign },
  'commission.rejected': { commissionId: 'k1', amount: 1250, level: 1, campaign, reason: 'Fraud' },
  'commission.reversed': { commissionId: 'k1', amount: 500, level: 1, campaign },
  'withdrawal.requested': { withdrawalId: 'w 1', amount: 10_000, net: 9_800 },
  'withdrawal.approved': { withdrawalId: 'w 1', amount: 10_000, net: 9_800 },
  'withdrawal.paid': { withdrawalId: 'w 1', amount: 10_000, net: 9_800, reference: 'TX-42' },
  'withdrawal.failed': { withdrawalId: 'w 1', amount: 10_000, net: 9_800, reason: 'Account closed' },
  'withdrawal.rejected': { withdrawalId: 'w 1', amount: 10_000, net: 9_800, reason: 'Suspicious' },
  'withdrawal.cancelled': { withdrawalId: 'w 1', amount: 10_000, net: 9_800 },
  adjustment: { adjustmentId: 'a1', amount: 1234, reason: 'Launch bonus' },
  'bounty.earned': { bountyId: 'b1', commissionId: 'k2', amount: 5000, campaign, bounty: { en: 'Five sales', fr: 'Cinq ventes' } },
  'bounty.submission_rejected': { bountyId: 'b1', submissionId: 's1', campaign, bounty: { en: 'Post a review' }, reason: 'No link' },
  'staff.registration': { count: 1 },
  'staff.enrollment': { count: 2 },
  'staff.withdrawal': { withdrawalId: 'w 1', amount: 10_000, count: 3 },
  'staff.webhook_disabled': { endpointId: 'e1', url: 'https://hooks.example.com/a', reason: 'gone' },
  'staff.mail_failing': { error: '451 Try again later' },
  'staff.ledger_breach': { count: 1 },
};

describe('notification messages: type + parameters → words in the reader’s language', () => {
  it.each(LOCALES)('%s renders every type without a raw key or an empty placeholder', (locale) => {
    for (const type of NOTIFICATION_TYPES) {
      const m = describeNotification({ type, params: params[type] }, t(locale), locale, 'CNY');
      for (const text of [m.title, m.body, ...m.details]) {
        expect(text, `${locale} ${type}`).toBeTruthy();
        expect(text, `${locale} ${type}`).not.toMatch(/notifications\.|\{\{|undefined|NaN/);
      }
    }
  });

  it('formats amounts from minor units with the list’s currency, in the reader’s locale', () => {
    const en = describeNotification({ type: 'withdrawal.requested', params: params['withdrawal.requested'] }, t('en'), 'en', 'CNY');
    expect(en.title).toBe('Withdrawal requested: CN¥100.00');
    expect(en.body).toContain('CN¥98.00');
    const fr = describeNotification({ type: 'withdrawal.paid', params: params['withdrawal.paid'] }, t('fr'), 'fr', 'EUR');
    expect(fr.title).toBe('Retrait versé\u202f: 98,00\u00a0€');
    expect(fr.details).toEqual(['Référence du versement\u202f: TX-42']);
  });

  it('picks the campaign name in the reader’s language, then English, then any', () => {
    expect(describeNotification({ type: 'enrollment.approved', params: params['enrollment.approved'] }, t('zh-Hans'), 'zh-Hans', 'CNY').title).toContain('春季大促');
    expect(describeNotification({ type: 'enrollment.approved', params: params['enrollment.approved'] }, t('es'), 'es', 'CNY').title).toContain('Spring Sale');
    expect(pickName({ fr: 'Soldes' }, 'es')).toBe('Soldes');
    expect(pickName({ 'zh-Hant': ' ', es: 'Rebajas' }, 'zh-Hant')).toBe('Rebajas');
    expect(pickName('Plain', 'en')).toBe('Plain');
    expect(pickName(null, 'en')).toBeNull();
    expect(describeNotification({ type: 'enrollment.approved', params: {} }, t('en'), 'en', 'CNY').title).toBe('You can now promote “a campaign”');
  });

  it('says when a commission is a team override (level 2)', () => {
    const direct = describeNotification({ type: 'commission.created', params: params['commission.created'] }, t('en'), 'en', 'CNY');
    const team = describeNotification({ type: 'commission.created', params: { ...params['commission.created'], level: 2 } }, t('en'), 'en', 'CNY');
    expect(direct.title).toBe('New commission: CN¥12.50');
    expect(team.title).toBe('New team bonus: CN¥12.50');
  });

  it('links to what it is about, with the id encoded', () => {
    expect(describeNotification({ type: 'enrollment.rejected', params: params['enrollment.rejected'] }, t('en'), 'en', 'CNY').target).toBe('/campaigns/c1');
    expect(describeNotification({ type: 'commission.reversed', params: params['commission.reversed'] }, t('en'), 'en', 'CNY').target).toBe('/commissions/k1');
    expect(describeNotification({ type: 'withdrawal.failed', params: params['withdrawal.failed'] }, t('en'), 'en', 'CNY').target).toBe('/withdrawals/w%201');
    expect(describeNotification({ type: 'withdrawal.failed', params: {} }, t('en'), 'en', 'CNY').target).toBeNull();
  });

  it('a commission taken back by staff (a clawback) says so, with their reason, in every language', () => {
    const clawback = { commissionId: 'k1', amount: 500, level: 1, campaign, reason: 'Order was fraudulent', clawback: true };
    const en = describeNotification({ type: 'commission.reversed', params: clawback }, t('en'), 'en', 'CNY');
    expect(en).toMatchObject({ title: 'Commission taken back: CN¥5.00', body: 'The program took back your commission from “Spring Sale”.', details: ['Reason: Order was fraudulent'], tone: 'bad' });
    expect(describeNotification({ type: 'commission.reversed', params: { ...clawback, level: 2 } }, t('en'), 'en', 'CNY').body).toBe('The program took back your team bonus from “Spring Sale”.');
    // A refund's reversal keeps saying it was refunded.
    expect(describeNotification({ type: 'commission.reversed', params: params['commission.reversed'] }, t('en'), 'en', 'CNY').body).toContain('refunded');
    for (const locale of LOCALES) {
      const m = describeNotification({ type: 'commission.reversed', params: clawback }, t(locale), locale, 'CNY');
      expect(m.body, locale).not.toMatch(/notifications\.|\{\{/);
      expect(m.body, locale).not.toBe(describeNotification({ type: 'commission.reversed', params: params['commission.reversed'] }, t(locale), locale, 'CNY').body);
      expect(m.details.join(' '), locale).toContain('Order was fraudulent');
    }
  });

  it('shows the reason and the payout reference as extra lines', () => {
    expect(describeNotification({ type: 'commission.rejected', params: params['commission.rejected'] }, t('en'), 'en', 'CNY').details).toEqual(['Reason: Fraud']);
    expect(describeNotification({ type: 'withdrawal.failed', params: params['withdrawal.failed'] }, t('zh-Hans'), 'zh-Hans', 'CNY').details).toEqual(['原因：Account closed']);
  });

  it('an adjustment: signed amount and the reason, good news for a credit and bad for a debit, opening the Wallet', () => {
    const credit = describeNotification({ type: 'adjustment', params: params.adjustment }, t('en'), 'en', 'CNY');
    expect(credit).toMatchObject({ title: 'Added to your balance: +CN¥12.34', tone: 'good', target: '/wallet', group: 'adjustment', details: [] });
    expect(credit.body).toBe('The program adjusted your available balance by +CN¥12.34. Reason: Launch bonus');
    const debit = describeNotification({ type: 'adjustment', params: { adjustmentId: 'a2', amount: -500, reason: 'Duplicate payout' } }, t('en'), 'en', 'CNY');
    expect(debit).toMatchObject({ title: 'Deducted from your balance: \u2212CN¥5.00', tone: 'bad', target: '/wallet' });
    expect(debit.body).toContain('\u2212CN¥5.00');
    expect(debit.body).toContain('Duplicate payout');
    const fr = describeNotification({ type: 'adjustment', params: { amount: -500, reason: 'Doublon' } }, t('fr'), 'fr', 'EUR');
    expect(fr.title).toContain('\u22125,00\u00a0€');
    expect(fr.body).toContain('Doublon');
    // A reason missing or of the wrong shape still says what happened, without a placeholder.
    const bare = describeNotification({ type: 'adjustment', params: { amount: 100, reason: 42 } }, t('zh-Hant'), 'zh-Hant', 'CNY');
    expect(bare.body).not.toMatch(/\{\{|undefined|42/);
    expect(bare.tone).toBe('good');
  });

  it('survives a type this version does not know and parameters of the wrong shape', () => {
    const m = describeNotification({ type: 'payout.exploded', params: { amount: 'lots' } }, t('en'), 'en', 'CNY');
    expect(m).toMatchObject({ title: 'New notification', target: null, group: 'other' });
    const odd = describeNotification({ type: 'withdrawal.requested', params: { amount: 1.5, net: null } }, t('en'), 'en', 'CNY');
    expect(odd.title).toBe('Withdrawal requested: —');
  });

  it('staff notifications: plural-correct counts, the page to act on, the amount in the reader’s format', () => {
    const d = (type: string, p: Record<string, unknown>, locale = 'en') => describeNotification({ type, params: p }, t(locale), locale, 'EUR');
    expect(d('staff.registration', { count: 1 }).title).toBe('1 registration awaits approval');
    expect(d('staff.registration', { count: 4 }).title).toBe('4 registrations await approval');
    expect(d('staff.registration', { count: 4 }).target).toBe('/admin/users');
    expect(d('staff.enrollment', { count: 1 }, 'fr').title).toBe('1 demande d’adhésion attend une validation');
    expect(d('staff.enrollment', { count: 0 }, 'fr').title).toBe('0 demande d’adhésion attend une validation');
    expect(d('staff.enrollment', { count: 2 }, 'es').title).toBe('2 solicitudes de unión esperan aprobación');
    const w = d('staff.withdrawal', { withdrawalId: 'w 1', amount: 2_000, count: 1 }, 'fr');
    expect(w.title).toBe('Retrait demandé\u202f: 20,00\u00a0€');
    expect(w.body).toBe('1 retrait attend une approbation.');
    expect(w.target).toBe('/admin/withdrawals/w%201');
    expect(d('staff.webhook_disabled', { endpointId: 'e1', url: 'https://h.example/a', reason: 'failing' }).body).toBe('https://h.example/a was disabled: every delivery failed for 5 days. Events for it are no longer sent.');
    expect(d('staff.mail_failing', { error: '451 Try again later' }, 'zh-Hans')).toMatchObject({ title: '邮件发送失败', details: ['错误：451 Try again later'], target: '/admin/mail', tone: 'bad' });
    expect(d('staff.ledger_breach', { count: 2 }, 'zh-Hant').title).toBe('帳本檢查發現 2 個問題');
    expect(d('staff.ledger_breach', { count: 1 }).target).toBe('/admin/ledger-check');
  });

  it.each(LOCALES)('%s: counts 0, 1, 2, 5, 21 each in the language’s form (the catalogue’s, through i18next), amounts as formatMoney writes them', (locale) => {
    const texts = NOTIFICATION_TEXTS[locale];
    const form = (forms: Record<string, string | undefined>, name: string, n: number) => forms[`${name}_${new Intl.PluralRules(locale).select(n)}`]!.replace('{{count}}', String(n));
    for (const n of [0, 1, 2, 5, 21]) {
      expect(describeNotification({ type: 'staff.registration', params: { count: n } }, t(locale), locale, 'CNY').title).toBe(form(texts.staff.registration, 'title', n));
      expect(describeNotification({ type: 'staff.enrollment', params: { count: n } }, t(locale), locale, 'CNY').title).toBe(form(texts.staff.enrollment, 'title', n));
      expect(describeNotification({ type: 'staff.ledger_breach', params: { count: n } }, t(locale), locale, 'CNY').title).toBe(form(texts.staff.ledger_breach, 'title', n));
      const w = describeNotification({ type: 'staff.withdrawal', params: { withdrawalId: 'w1', amount: 2_710, count: n } }, t(locale), locale, 'CNY');
      expect(w.body).toBe(form(texts.staff.withdrawal, 'body', n));
      expect(w.title).toBe(texts.staff.withdrawal.title.replace('{{amount}}', formatMoney(2_710, 'CNY', locale)));
    }
    // "CN¥27.10" in English and Chinese, "27,10 CN¥" in French and Spanish: the web's one currency mark.
    const paid = describeNotification({ type: 'withdrawal.paid', params: { withdrawalId: 'w1', amount: 3_000, net: 2_710 } }, t(locale), locale, 'CNY');
    expect(paid.title.replace(/\s/g, ' ')).toContain(locale === 'fr' || locale === 'es' ? '27,10 CN¥' : 'CN¥27.10');
  });
});
