/** Every mail in every language renders whole: no placeholder left, values escaped in HTML, the link and footer in place. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_NAME, LOCALES, MAIL_TEMPLATES, type Locale } from '@pa/shared';
import { TEMPLATE_CATEGORY } from '../src/platform/mail/outbox';
import { DISABLED_REASONS, renderMail } from '../src/platform/mail/templates';

const params = {
  name: 'Eve <script>alert(1)</script> & Co',
  count: 3, total: { minor: 123_456, currency: 'CNY' }, amount: { minor: 5_000, currency: 'USD' }, day: { day: '2026-11-24' },
  last4: '7890', account: '•••• 7890', reason: 'Compte "fermé" <b>', url: 'https://hooks.example.com/a?b=1&c=2',
  registrations: 1, enrollments: 2, commissions: 3, withdrawalsToApprove: 4, withdrawalsToPay: 0,
  net: { minor: 4_700, currency: 'USD' }, fee: { minor: 300, currency: 'USD' }, reference: 'BANK-77', error: '451 Try again later',
} as const;

describe('mail templates', () => {
  it.each(LOCALES)('%s: each template has a subject, text and HTML with every placeholder filled and every value escaped', (locale) => {
    for (const template of MAIL_TEMPLATES) {
      const mail = renderMail(template, locale, { ...params, ...(template === 'webhook_disabled' ? { reason: { localized: DISABLED_REASONS.gone } } : {}) }, { appName: null, url: 'https://promo.example.com/#/x?a=1&b=2', optOut: TEMPLATE_CATEGORY[template] !== null });
      for (const part of [mail.subject, mail.text, mail.html]) expect(part, `${locale} ${template}`).not.toMatch(/\{\w+\}/);
      expect(mail.subject.length).toBeGreaterThan(3);
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).toContain(`lang="${locale}"`);
      if (template === 'withdrawal_paid') for (const part of ['47', '3', 'BANK-77']) expect(mail.text, locale).toContain(part);
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

  it.each(LOCALES)('%s: the opt-out footer names the app’s own place for it (the Me tab → E-mail notifications, as the app labels them)', (locale) => {
    const web = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../../web/src/i18n/locales/${locale}/app.json`), 'utf8')) as { tabs: { me: string }; me: { mail: string } };
    const text = renderMail('registration_approved', locale, { name: 'Ann' }, { appName: null, url: 'https://p.example/#/', optOut: true }).text;
    expect(text).toContain(`${web.tabs.me} → ${web.me.mail}`);
  });

  it('Chinese mails put no space around the app name, default or set (every template, subject, text and HTML)', () => {
    for (const locale of ['zh-Hans', 'zh-Hant'] as const) {
      for (const appName of [null, '星光联盟']) {
        const app = appName ?? DEFAULT_APP_NAME[locale];
        for (const template of MAIL_TEMPLATES) {
          const mail = renderMail(template, locale, { ...params, reason: { localized: DISABLED_REASONS.gone } }, { appName, url: 'https://p.example/#/x', optOut: TEMPLATE_CATEGORY[template] !== null });
          for (const part of [mail.subject, mail.text, mail.html.replace(/<[^>]*>/g, '\n')]) {
            expect(part, `${locale} ${template}`).not.toMatch(new RegExp(`[^\\s][ \\t]+${app}|${app}[ \\t]+[^\\s]`));
          }
        }
      }
    }
    expect(renderMail('password_reset', 'zh-Hans', { name: '李雷' }, { appName: null, optOut: false }).subject).toBe('设置新的推广助手密码');
    // The plain text's button line ends in the language's own colon.
    expect(renderMail('registration_approved', 'zh-Hant', { name: '李雷' }, { appName: null, url: 'https://p.example/#/', optOut: true }).text).toContain('開啟推廣助手：\nhttps://p.example/#/');
    expect(renderMail('registration_approved', 'fr', { name: 'Léa' }, { appName: null, url: 'https://p.example/#/', optOut: true }).text).toContain('Ouvrir Assistant de promotion :\nhttps://p.example/#/');
  });

  it('a password link made by staff says a link was made and the password still works, not that it was reset', () => {
    const said: Record<Locale, RegExp> = { en: /still works/, fr: /reste valable/, es: /sigue valiendo/, 'zh-Hans': /仍然有效/, 'zh-Hant': /仍然有效/ };
    for (const locale of LOCALES) {
      const { text } = renderMail('password_reset', locale, { name: 'Ann' }, { appName: null, url: 'https://p.example/#/r', optOut: false });
      expect(text, locale).toMatch(said[locale]);
      expect(text, locale).not.toMatch(/已被重置|已被重設|has been reset|a été faite|Se ha restablecido/);
    }
  });

  it('counts are plural-correct in each language', () => {
    const summary = (locale: Locale, n: number) => renderMail('work_queue_summary', locale, { name: 'Ann', total: n, registrations: n, enrollments: n, commissions: n, withdrawalsToApprove: n, withdrawalsToPay: n }, { appName: null, optOut: true });
    expect(summary('en', 1).subject).toBe('Promotion Assistant: 1 item is waiting for review');
    expect(summary('en', 1).text).toContain('1 registration, 1 campaign application, 1 commission to approve, 1 withdrawal to approve and 1 withdrawal to pay.');
    expect(summary('en', 2).text).toContain('2 registrations, 2 campaign applications, 2 commissions to approve, 2 withdrawals to approve and 2 withdrawals to pay.');
    // French: 0 and 1 take the singular.
    expect(summary('fr', 0).text).toContain('0 inscription, 0 candidature à une campagne');
    expect(summary('fr', 1).subject).toBe('Assistant de promotion : 1 élément attend une revue');
    expect(summary('fr', 3).subject).toBe('Assistant de promotion : 3 éléments attendent une revue');
    expect(summary('es', 1).text).toContain('1 registro, 1 solicitud a campañas, 1 comisión por aprobar');
    expect(summary('zh-Hans', 2).subject).toBe('推广助手：2 项待处理');
    const digest = (locale: Locale, count: number) => renderMail('commission_digest', locale, { name: 'Ann', count, day: { day: '2026-11-24' }, total: { minor: 100, currency: 'EUR' } }, { appName: null, optOut: true }).subject;
    expect(digest('en', 1)).toBe('1 commission approved on November 24, 2026');
    expect(digest('en', 4)).toBe('4 commissions approved on November 24, 2026');
    expect(digest('es', 1)).toBe('1 comisión aprobada el 24 de noviembre de 2026');
    expect(renderMail('ledger_breach', 'en', { name: 'Ann', count: 1 }, { appName: null, optOut: true }).subject).toBe('Promotion Assistant: the ledger check found 1 problem');
  });

  it('withdrawal paid says what was sent, the fee and the payment reference', () => {
    const mail = renderMail('withdrawal_paid', 'fr', { name: 'Ann', amount: { minor: 2_000, currency: 'EUR' }, net: { minor: 1_770, currency: 'EUR' }, fee: { minor: 230, currency: 'EUR' }, account: '•••• 7890', reference: 'VIR-2026-11' }, { appName: null, optOut: true });
    const eur = (minor: number) => new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR' }).format(minor / 100);
    expect(mail.subject).toBe(`Votre retrait est payé : ${eur(1_770)}`);
    expect(mail.text).toContain(`${eur(1_770)} a été versé sur votre compte •••• 7890 : votre retrait de ${eur(2_000)}, moins des frais de ${eur(230)}.`);
    expect(mail.text).toContain('Référence du versement : VIR-2026-11');
  });
});
