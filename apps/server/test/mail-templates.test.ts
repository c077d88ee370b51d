/** Every mail in every language renders whole: no placeholder left, values escaped in HTML, the link and footer in place. */
import { describe, expect, it } from 'vitest';
import { LOCALES, MAIL_TEMPLATES } from '@pa/shared';
import { TEMPLATE_CATEGORY } from '../src/platform/mail/outbox';
import { DISABLED_REASONS, renderMail } from '../src/platform/mail/templates';

const params = {
  name: 'Eve <script>alert(1)</script> & Co',
  count: 3, total: { minor: 123_456, currency: 'CNY' }, amount: { minor: 5_000, currency: 'USD' }, day: { day: '2026-11-24' },
  account: '•••• 7890', reason: 'Compte "fermé" <b>', url: 'https://hooks.example.com/a?b=1&c=2',
  promoters: 1, enrollments: 2, commissions: 3, withdrawals: 4,
} as const;

describe('mail templates', () => {
  it.each(LOCALES)('%s: each template has a subject, text and HTML with every placeholder filled and every value escaped', (locale) => {
    for (const template of MAIL_TEMPLATES) {
      const mail = renderMail(template, locale, { ...params, ...(template === 'webhook_disabled' ? { reason: { localized: DISABLED_REASONS.gone } } : {}) }, { appName: null, url: 'https://promo.example.com/#/x?a=1&b=2', optOut: TEMPLATE_CATEGORY[template] !== null });
      for (const part of [mail.subject, mail.text, mail.html]) expect(part, `${locale} ${template}`).not.toMatch(/\{\w+\}/);
      expect(mail.subject.length).toBeGreaterThan(3);
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain(`lang="${locale}"`);
      if (template !== 'test' && template !== 'webhook_disabled') {
        expect(mail.text).toContain(params.name);
        expect(mail.html).toContain('Eve &#60;script&#62;alert(1)&#60;/script&#62; &#38; Co');
      }
      if (template === 'commission_digest') expect(mail.text).toMatch(/1[\s,.\u202f\u00a0]?234[.,]56/);
      if (template === 'withdrawal_paid') expect(mail.text).toContain('7890');
      if (template === 'webhook_disabled') expect(mail.text).toContain('410 Gone');
    }
  });

  it('uses APP_NAME when set, and the link only when the mail has a button', () => {
    const named = renderMail('registration_approved', 'en', { name: 'Ann' }, { appName: 'Acme Partners', url: 'https://p.example/#/', optOut: true });
    expect(named.subject).toBe('Welcome to Acme Partners: your account is approved');
    expect(named.text).toContain('Open Acme Partners:\nhttps://p.example/#/');
    expect(named.text).toContain('Me → E-mail');
    const plain = renderMail('registration_rejected', 'en', { name: 'Ann' }, { appName: null, url: 'https://p.example/#/', optOut: true });
    expect(plain.text).not.toContain('https://p.example');
    const always = renderMail('forgot_password', 'en', { name: 'Ann' }, { appName: null, url: 'https://p.example/#/r', optOut: false });
    expect(always.text).not.toContain('Me → E-mail');
  });
});
