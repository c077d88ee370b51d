/**
 * E-mail (issue 16), on both databases, against a real SMTP server (the `smtp-server` package) and
 * every mail parsed with `mailparser`: forgot-password in all five languages (and the link in it
 * works), staff invitations and password links, registration decisions, withdrawal outcomes, the
 * daily digest and work-queue summary (once per person and day however often, however many
 * instances), a webhook endpoint disabled, categories turned off in Me, retries and refusals, and
 * the console's view. With SMTP_URL unset nothing is written.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_APP_NAME, LOCALES, shownPayoutNumber, type Locale } from '@pa/shared';
import { formatMoney } from '@pa/shared/format';
import { dispatchMail, startMailDispatcher, writeDailyMails } from '../src/modules/mail/service';
import { dispatchDue } from '../src/modules/webhooks/service';
import { SmtpSender } from '../src/platform/mail/send';
import { promoterAccount } from '../src/domain/ledger';
import { postJournal } from '../src/platform/ledger';
import { dayKey, dayStart } from '../src/platform/time';
import { answeringWith, campaignBody, Client, createUser, DIALECTS, errorCode, makeEnv, signedIn, type TestEnv } from './helpers';

const log = { warn: () => {} };

interface Received { to: string; from: { name: string; address: string }; subject: string; text: string; html: string; messageId: string }

/** An SMTP server on 127.0.0.1 that parses every mail; `plan` holds answers to give before accepting (e.g. 451, 550). */
class MailCatcher {
  server!: SMTPServer;
  port = 0;
  received: Received[] = [];
  plan: number[] = [];
  async start() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (_auth, _session, callback) => callback(null, { user: 'smtp-user' }),
      onData: (stream, _session, callback) => {
        simpleParser(stream).then((mail) => {
          const answer = this.plan.shift();
          if (answer) {
            const error = new Error(answer >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & { responseCode: number };
            error.responseCode = answer;
            callback(error);
            return;
          }
          const to = Array.isArray(mail.to) ? mail.to[0]! : mail.to!;
          this.received.push({ to: to.value[0]!.address!, from: { name: mail.from!.value[0]!.name, address: mail.from!.value[0]!.address! }, subject: mail.subject ?? '', text: mail.text ?? '', html: typeof mail.html === 'string' ? mail.html : '', messageId: mail.messageId ?? '' });
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }
  take(to: string): Received[] {
    const mine = this.received.filter((m) => m.to === to);
    this.received = this.received.filter((m) => m.to !== to);
    return mine;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What each language's forgot-password mail says, beside the app's name. */
const FORGOT_SUBJECT: Record<Locale, string> = { en: 'Reset your', fr: 'Réinitialisez votre mot de passe', es: 'Restablezca su contraseña', 'zh-Hans': '重置您的', 'zh-Hant': '重設您的' };
const VERIFY_SUBJECT: Record<Locale, string> = { en: 'Confirm your e-mail address', fr: 'Confirmez votre adresse e-mail', es: 'Confirme su correo electrónico', 'zh-Hans': '邮箱地址', 'zh-Hant': '電子郵件地址' };
const VERIFY_BUTTON: Record<Locale, string> = { en: 'Confirm my address', fr: 'Confirmer mon adresse', es: 'Confirmar mi dirección', 'zh-Hans': '确认邮箱地址', 'zh-Hant': '確認電子郵件地址' };
const FORGOT_BUTTON: Record<Locale, string> = { en: 'Reset my password', fr: 'Réinitialiser mon mot de passe', es: 'Restablecer mi contraseña', 'zh-Hans': '重置密码', 'zh-Hant': '重設密碼' };

describe.each(DIALECTS)('e-mail on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let adminUser: { id: string; account: string };
  let sender: SmtpSender;
  const smtp = new MailCatcher();
  const PUBLIC = 'https://promo.example.com/app/';

  beforeAll(async () => {
    await smtp.start();
    env = await makeEnv(dialect, {
      webhookAllowPrivate: true,
      mail: { smtpUrl: `smtp://smtp-user:s3cret-pass@127.0.0.1:${smtp.port}`, from: 'Acme Partners <partners@acme.example>', publicUrl: PUBLIC, appName: null },
    });
    const signed = await signedIn(env, 'admin');
    admin = signed.client;
    adminUser = signed.user;
    sender = new SmtpSender(env.config.mail!);
  });
  afterAll(async () => {
    sender?.close();
    await env?.close();
    await smtp.stop();
  });

  const drain = async (options = {}) => {
    while ((await dispatchMail(env.ctx, sender, log, options)) > 0);
  };
  const setLocale = (client: Client, locale: Locale) => client.request('PATCH', '/api/me', { locale });
  const forgot = (account: string) => new Client(env.app).request('POST', '/api/auth/forgot-password', { account });
  const linkIn = (mail: Received) => {
    const match = /https:\/\/promo\.example\.com\/app\/#\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
    expect(match, mail.text).not.toBeNull();
    return decodeURIComponent(match![1]!);
  };

  it('forgot password: in each of the five languages a mail with a working one-time link; 202 alike for an unknown account', async () => {
    for (const locale of LOCALES) {
      const { client, user } = await signedIn(env, 'promoter');
      expect((await setLocale(client, locale)).statusCode).toBe(200);
      const res = await forgot(user.account.toUpperCase());
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ ok: true });
      await drain();
      const [mail, ...more] = smtp.take(user.account);
      expect(more).toHaveLength(0);
      expect(mail, locale).toBeDefined();
      expect(mail!.from).toEqual({ name: 'Acme Partners', address: 'partners@acme.example' });
      expect(mail!.subject).toContain(FORGOT_SUBJECT[locale]);
      expect(mail!.subject).toContain(DEFAULT_APP_NAME[locale]);
      expect(mail!.text).toContain(FORGOT_BUTTON[locale]);
      expect(mail!.html).toContain(`lang="${locale}"`);
      expect(mail!.html).toContain(FORGOT_BUTTON[locale]);
      expect(mail!.html).toContain(`${PUBLIC}#/reset-password?token=`);
      const token = linkIn(mail!);
      if (locale === 'fr') {
        // The link sets the password once; the new one signs in.
        const visitor = new Client(env.app);
        const reset = await visitor.request('POST', '/api/auth/reset-password', { token, password: await visitor.seal('N0uveau-passe') });
        expect(reset.statusCode, reset.body).toBe(200);
        expect((await new Client(env.app).login(user.account, 'N0uveau-passe')).statusCode).toBe(200);
        expect(errorCode(await visitor.request('POST', '/api/auth/reset-password', { token, password: await visitor.seal('Autre-passe1') }))).toBe('RESET_TOKEN_INVALID');
      }
    }
    const before = await env.ctx.db.selectFrom('mail_messages').select('id').execute();
    // Unknown, a phone number, and a second request within a minute: the same 202, no mail written.
    const { user } = await signedIn(env, 'promoter');
    expect((await forgot(user.account)).statusCode).toBe(202);
    expect((await forgot(user.account)).statusCode).toBe(202);
    expect((await forgot('nobody-here@example.com')).statusCode).toBe(202);
    expect((await forgot('+8613800138000')).statusCode).toBe(202);
    const after = await env.ctx.db.selectFrom('mail_messages').select('id').execute();
    expect(after.length - before.length).toBe(1);
    expect(errorCode(await new Client(env.app).request('POST', '/api/auth/forgot-password', { account: '' }))).toBe('VALIDATION_FAILED');
  });

  // Issue 28, item 18: a phone account adds an e-mail address through a mailed one-time link.
  it('a phone account adds an e-mail address: a link in its language, single use, the latest only; then mail and forgot-password reach it', async () => {
    const phone = `+8613${String(Date.now() % 1_000_000_000).padStart(9, '0')}`;
    const client = new Client(env.app);
    expect((await client.register({ account: phone, password: 'Ph0ne-pass' })).statusCode).toBe(201);
    const userId = (await client.request('GET', '/api/me')).json().user.id as string;
    const addEmail = (email: string) => client.request('POST', '/api/me/email', { email });
    const verify = (token: string) => new Client(env.app).request('POST', '/api/auth/verify-email', { token });
    const verifyLink = (mail: Received) => {
      const match = /https:\/\/promo\.example\.com\/app\/#\/verify-email\?token=([A-Za-z0-9_%-]+)/.exec(mail.text);
      expect(match, mail.text).not.toBeNull();
      return decodeURIComponent(match![1]!);
    };
    expect((await client.request('GET', '/api/me/mail-preferences')).json().hasAddress).toBe(false);

    // A request in each language: the mail goes to the address asked for, in the person's language.
    const tokens: string[] = [];
    const stamp = Date.now().toString(36);
    for (const locale of LOCALES) {
      expect((await setLocale(client, locale)).statusCode).toBe(200);
      const address = `phone-${stamp}-${locale.toLowerCase()}@example.com`;
      const res = await addEmail(address.toUpperCase());
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ ok: true, email: address });
      await drain();
      const [mail, ...more] = smtp.take(address);
      expect(more).toHaveLength(0);
      expect(mail!.subject, locale).toContain(VERIFY_SUBJECT[locale]);
      expect(mail!.subject).toContain(DEFAULT_APP_NAME[locale]);
      expect(mail!.html).toContain(`lang="${locale}"`);
      expect(mail!.text).toContain(VERIFY_BUTTON[locale]);
      tokens.push(verifyLink(mail!));
    }
    // Not yet verified: it does not count (no address for mail, forgot-password sends nothing).
    expect((await client.request('GET', '/api/me')).json().user.email).toBeNull();
    const written = async () => (await env.ctx.db.selectFrom('mail_messages').select('id').where('user_id', '=', userId).execute()).length;
    const beforeForgot = await written();
    expect((await forgot(phone)).statusCode).toBe(202);
    expect(await written()).toBe(beforeForgot);
    // A newer request ended the earlier links; the latest works once.
    expect(errorCode(await verify(tokens[0]!))).toBe('RESET_TOKEN_INVALID');
    const last = tokens.at(-1)!;
    const lastAddress = `phone-${stamp}-es@example.com`;
    const ok = await verify(last);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ ok: true, email: lastAddress });
    expect(errorCode(await verify(last))).toBe('RESET_TOKEN_INVALID');
    expect(errorCode(await verify('x'.repeat(43)))).toBe('RESET_TOKEN_INVALID');
    expect((await client.request('GET', '/api/me')).json().user).toMatchObject({ account: phone, email: lastAddress });
    expect((await client.request('GET', '/api/me/mail-preferences')).json().hasAddress).toBe(true);
    const audits = await env.ctx.db.selectFrom('audit_entries').select(['action', 'actor_id']).where('entity_id', '=', userId).where('action', 'in', ['user.email_requested', 'user.email_verified']).execute();
    expect(audits.filter((a) => a.action === 'user.email_requested')).toHaveLength(LOCALES.length);
    expect(audits.filter((a) => a.action === 'user.email_verified')).toEqual([{ action: 'user.email_verified', actor_id: userId }]);

    // Now forgot-password (by the phone number or by the address) mails a working link to the address.
    expect((await forgot(phone)).statusCode).toBe(202);
    await drain();
    const [resetMail] = smtp.take(lastAddress);
    expect(resetMail!.subject).toContain(FORGOT_SUBJECT.es);
    const visitor = new Client(env.app);
    expect((await visitor.request('POST', '/api/auth/reset-password', { token: linkIn(resetMail!), password: await visitor.seal('Nueva-clave9') })).statusCode).toBe(200);
    expect((await new Client(env.app).login(phone, 'Nueva-clave9')).statusCode).toBe(200);

    // Refusals: an address someone has (an account, or another's verified one), an e-mail account adding one, bad input.
    const other = await signedIn(env, 'promoter');
    const phone2 = `+8614${String(Date.now() % 1_000_000_000).padStart(9, '0')}`;
    const second = new Client(env.app);
    expect((await second.register({ account: phone2, password: 'Ph0ne-pass' })).statusCode).toBe(201);
    for (const taken of [other.user.account, lastAddress]) {
      const res = await second.request('POST', '/api/me/email', { email: taken });
      expect(res.json().error, taken).toMatchObject({ code: 'ACCOUNT_EXISTS', fields: { email: 'taken' } });
    }
    expect((await other.client.request('POST', '/api/me/email', { email: `else-${stamp}@example.com` })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { email: 'not_allowed' } });
    for (const [body, field] of [[{ email: 'not-an-address' }, 'invalid_account'], [{ email: '' }, 'required'], [{ email: 'a@b.example', extra: 1 }, 'unknown_field']] as const) {
      const res = await second.request('POST', '/api/me/email', body);
      expect(res.statusCode).toBe(400);
      expect(Object.values(res.json().error.fields)).toContain(field);
    }
    expect(errorCode(await new Client(env.app).request('POST', '/api/me/email', { email: `anon-${stamp}@example.com` }))).toBe('UNAUTHENTICATED');
    // Two people verifying the same address: the second link finds it taken and changes nothing.
    const shared = `shared-${stamp}@example.com`;
    const third = new Client(env.app);
    const phone3 = `+8615${String(Date.now() % 1_000_000_000).padStart(9, '0')}`;
    expect((await third.register({ account: phone3, password: 'Ph0ne-pass' })).statusCode).toBe(201);
    expect((await second.request('POST', '/api/me/email', { email: shared })).statusCode).toBe(202);
    expect((await third.request('POST', '/api/me/email', { email: shared })).statusCode).toBe(202);
    await drain();
    const [toSecond, toThird] = smtp.take(shared).map(verifyLink);
    expect((await verify(toSecond!)).statusCode).toBe(200);
    expect((await verify(toThird!)).json().error).toMatchObject({ code: 'ACCOUNT_EXISTS', fields: { email: 'taken' } });
    expect((await third.request('GET', '/api/me')).json().user.email).toBeNull();
  });

  it('bodies are stored sealed: the link is not readable in the database', async () => {
    const { user } = await signedIn(env, 'promoter');
    await forgot(user.account);
    const row = await env.ctx.db.selectFrom('mail_messages').selectAll().where('recipient', '=', user.account).executeTakeFirstOrThrow();
    expect(row.body_sealed).not.toContain('reset-password');
    await drain();
    const token = linkIn(smtp.take(user.account)[0]!);
    expect(row.body_sealed).not.toContain(token);
  });

  it('staff invitations and a reset made by staff are mailed with their link; the admin still gets it once', async () => {
    const account = `new-op-${Date.now()}@example.com`;
    // A new staff member's language is the inviting admin's (their browser's).
    const created = await admin.request('POST', '/api/admin/staff', { account, displayName: 'Olga Op', role: 'operator' }, { headers: { 'accept-language': 'es-ES,es;q=0.9' } });
    expect(created.statusCode, created.body).toBe(201);
    await drain();
    const [invite] = smtp.take(account);
    expect(invite!.subject).toBe(`Le han invitado a la consola de ${DEFAULT_APP_NAME.es}`);
    expect(invite!.text).toContain('Hola, Olga Op:');
    expect(created.json().inviteUrl).toContain(`reset-password?token=${encodeURIComponent(linkIn(invite!))}`);
    // The admin's dialog is told where the same link went.
    expect(created.json().mailedTo).toBe(account);
    const again = await admin.request('POST', `/api/admin/staff/${created.json().user.id}/invite`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().mailedTo).toBe(account);
    await drain();
    smtp.take(account);

    const { client, user } = await signedIn(env, 'promoter');
    await setLocale(client, 'zh-Hant');
    const reset = await admin.request('POST', `/api/admin/promoters/${user.id}/password-reset`);
    expect(reset.statusCode, reset.body).toBe(201);
    await drain();
    const [mail] = smtp.take(user.account);
    expect(mail!.subject).toBe(`設定新的${DEFAULT_APP_NAME['zh-Hant']}密碼`);
    // Only a link was made: the password is not reset, and the mail says so.
    expect(mail!.text).toContain('目前的密碼仍然有效');
    expect(mail!.text).not.toContain('已被重設');
    expect(reset.json().url).toContain(encodeURIComponent(linkIn(mail!)));
    expect(reset.json().mailedTo).toBe(user.account);
    // A phone number gets no mail, and the dialog is told so.
    const phone = await createUser(env.ctx, 'promoter', 'Passw0rd-test');
    await env.ctx.db.updateTable('users').set({ account: `+86139${String(Date.now()).slice(-8)}` }).where('id', '=', phone.id).execute();
    const phoneReset = await admin.request('POST', `/api/admin/promoters/${phone.id}/password-reset`);
    expect(phoneReset.statusCode, phoneReset.body).toBe(201);
    expect(phoneReset.json().mailedTo).toBeNull();
  });

  it('registration approved or rejected; a category turned off in Me gets no mail', async () => {
    const approved = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
    expect((await admin.request('POST', `/api/admin/users/${approved.id}/approve`)).statusCode).toBe(200);
    const rejected = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
    await env.ctx.db.updateTable('users').set({ locale: 'zh-Hans' }).where('id', '=', rejected.id).execute();
    expect((await admin.request('POST', `/api/admin/users/${rejected.id}/reject`)).statusCode).toBe(200);
    await drain();
    expect(smtp.take(approved.account).map((m) => m.subject)).toEqual([`Welcome to ${DEFAULT_APP_NAME.en}: your account is approved`]);
    const [no] = smtp.take(rejected.account);
    expect(no!.subject).toBe(`您的${DEFAULT_APP_NAME['zh-Hans']}注册结果`);
    expect(no!.text).toContain('很抱歉');

    // The approved promoter turns "account" mails off, and is suspended then reactivated — no mail either way.
    const p = new Client(env.app);
    expect((await p.login(approved.account, 'Passw0rd-test')).statusCode).toBe(200);
    const prefs = await p.request('GET', '/api/me/mail-preferences');
    expect(prefs.json()).toEqual({ mailEnabled: true, hasAddress: true, items: [{ category: 'account', enabled: true }, { category: 'commissions', enabled: true }, { category: 'withdrawals', enabled: true }] });
    const off = await p.request('PATCH', '/api/me/mail-preferences', { category: 'account', enabled: false });
    expect(off.json().items[0]).toEqual({ category: 'account', enabled: false });
    // Twice is the same; a staff category is not a promoter's to set.
    expect((await p.request('PATCH', '/api/me/mail-preferences', { category: 'account', enabled: false })).statusCode).toBe(200);
    expect((await p.request('PATCH', '/api/me/mail-preferences', { category: 'work_queue', enabled: false })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { category: 'not_allowed' } });
    expect(errorCode(await p.request('PATCH', '/api/me/mail-preferences', { category: 'spam', enabled: false }))).toBe('VALIDATION_FAILED');
    const again = await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
    await env.ctx.db.insertInto('mail_opt_outs').values({ user_id: again.id, category: 'account', created_at: Date.now() }).execute();
    expect((await admin.request('POST', `/api/admin/users/${again.id}/approve`)).statusCode).toBe(200);
    await drain();
    expect(smtp.take(again.account)).toEqual([]);
  });

  it('withdrawal paid, failed and rejected each mail the promoter, with the amount in their currency format; paid says net, fee and reference; staff are mailed each request', async () => {
    expect((await admin.request('PATCH', '/api/admin/settings', { withdrawalFeeFixed: 230, withdrawalFeeBps: 0 })).statusCode).toBe(200);
    const { client, user } = await signedIn(env, 'promoter');
    await setLocale(client, 'fr');
    await env.ctx.db.transaction().execute(async (trx) => {
      const at = Date.now();
      const journalId = await postJournal(trx, { kind: 'adjustment', refType: 'adjustment', refId: `mail-adj-${at}`, promoterId: user.id, entries: [{ account: promoterAccount(user.id, 'available'), amount: 90_000 }, { account: 'platform:adjustments', amount: -90_000 }], at });
      await trx.insertInto('adjustments').values({ id: `mail-adj-${at}`, promoter_id: user.id, amount: 90_000, currency: 'CNY', reason: 'test', allow_negative: 1, idempotency_key: null, request_hash: '', journal_id: journalId, created_by: 'test', created_at: at }).execute();
    });
    await client.request('POST', '/api/payout-accounts', { method: 'bank', holderName: 'Li Lei', accountNumber: await client.seal('6222 0212 3456 7890') });
    const operator = (await signedIn(env, 'operator')).client;
    const request = async (amount: number, key: string) => (await client.request('POST', '/api/withdrawals', { amount }, { headers: { 'idempotency-key': key } })).json().withdrawal.id as string;
    const paid = await request(12_345, 'mail-w1');
    await operator.request('POST', `/api/admin/withdrawals/${paid}/approve`);
    expect((await operator.request('POST', `/api/admin/withdrawals/${paid}/pay`, { reference: 'BANK-9' })).statusCode).toBe(200);
    const failed = await request(20_000, 'mail-w2');
    await operator.request('POST', `/api/admin/withdrawals/${failed}/approve`);
    expect((await operator.request('POST', `/api/admin/withdrawals/${failed}/fail`, { reason: 'IBAN invalide' })).statusCode).toBe(200);
    const rejected = await request(30_000, 'mail-w3');
    expect((await operator.request('POST', `/api/admin/withdrawals/${rejected}/reject`, { reason: 'Doublon' })).statusCode).toBe(200);
    await drain();
    const mails = smtp.take(user.account);
    // The app's own money format (one currency mark in every language: "123,45 CN¥", where Intl alone writes "123,45 CNY").
    const amount = (minor: number) => formatMoney(minor, 'CNY', 'fr');
    expect(amount(12_345).replace(/\s/g, ' ')).toBe('123,45 CN¥');
    expect(mails.map((m) => m.subject).sort()).toEqual([
      `Votre retrait est payé : ${amount(12_345 - 230)}`,
      `Votre retrait de ${amount(20_000)} n’a pas pu être payé`,
      `Votre retrait de ${amount(30_000)} a été refusé`,
    ].sort());
    const paidMail = mails.find((m) => m.subject.includes('payé') && !m.subject.includes('pas'))!;
    expect(paidMail.text).toContain(`${amount(12_115)} a été versé sur votre compte ${shownPayoutNumber('7890')} : votre retrait de ${amount(12_345)}, moins des frais de ${amount(230)}.`);
    expect(paidMail.text).toContain('Référence du versement : BANK-9');
    // Each request told staff; the first one's notification is still unread, so the admin got one mail, not three.
    const staffMails = smtp.take(adminUser.account);
    expect(staffMails.map((m) => m.subject)).toEqual([`${DEFAULT_APP_NAME.en}: withdrawal requested: CN¥123.45`]);
    expect(staffMails[0]!.text).toContain(`${PUBLIC}#/admin/withdrawals/${paid}`);
    expect((await admin.request('PATCH', '/api/admin/settings', { withdrawalFeeFixed: 0 })).statusCode).toBe(200);
    expect(mails.find((m) => m.subject.includes('refusé'))!.text).toContain('Doublon');
    expect(mails.find((m) => m.subject.includes('refusé'))!.text).toContain(`${PUBLIC}#/withdrawals/${rejected}`);
    // Requested and approved are not mailed (the app notifies); the opt-out footer names where to turn them off.
    expect(mails[0]!.text).toContain('Moi → Notifications par e-mail');
  });

  it('daily: one digest of yesterday’s approved commissions per promoter and one work-queue summary per staff member, however often and by however many instances', async () => {
    const key = (await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write'] })).json().secret as string;
    const campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Mail' }, approvalMode: 'manual', saleRewardType: 'fixed', saleReward: 1_550, leadReward: 0, holdDays: 0 }))).json().campaign.id as string;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    const { client: promoter, user } = await signedIn(env, 'promoter');
    await setLocale(promoter, 'es');
    await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    const operator = (await signedIn(env, 'operator')).client;
    for (const n of [1, 2, 3]) {
      const sale = await env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, kind: 'sale', externalId: `mail-sale-${n}`, amount: 10_000, linkCode: link.code }) });
      expect(sale.statusCode, sale.body).toBe(201);
      if (n < 3) expect((await operator.request('POST', `/api/admin/commissions/${sale.json().commissions[0].id}/approve`)).statusCode).toBe(200);
    }
    // A pending registration waits too.
    await createUser(env.ctx, 'promoter', 'Passw0rd-test', 'pending');
    // A commission still in its hold (approved on its own when the hold ends) waits for nobody.
    const held = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: 'Held' }, approvalMode: 'auto', saleRewardType: 'fixed', saleReward: 700, leadReward: 0, holdDays: 30 }))).json().campaign.id as string;
    await admin.request('PATCH', `/api/admin/campaigns/${held}`, { status: 'active' });
    await promoter.request('POST', `/api/campaigns/${held}/join`);
    const heldLink = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === held)!;
    const heldSale = await env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId: held, kind: 'sale', externalId: 'mail-held-1', amount: 10_000, linkCode: heldLink.code }) });
    expect(heldSale.statusCode, heldSale.body).toBe(201);
    const queue = (await admin.request('GET', '/api/admin/overview')).json().workQueue as Record<'registrations' | 'enrollments' | 'commissions' | 'withdrawalsToApprove' | 'withdrawalsToPay', number>;
    const pendingCommissions = Number((await env.ctx.db.selectFrom('commissions').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow()).n);
    expect(pendingCommissions).toBeGreaterThan(queue.commissions);

    const zone = 'UTC';
    const tomorrow = dayKey(dayStart(dayKey(Date.now(), zone), zone) + 36 * 3_600_000, zone);
    const early = dayStart(tomorrow, zone) + 7 * 3_600_000;
    const morning = dayStart(tomorrow, zone) + 9 * 3_600_000;
    expect(await writeDailyMails(env.ctx, early)).toBe(0);
    const second = await env.restart();
    // Several instances run at once on PostgreSQL; SQLite is one instance (a second one here runs after it).
    const runs = [() => writeDailyMails(env.ctx, morning), () => writeDailyMails(second.ctx, morning), () => writeDailyMails(env.ctx, morning + 60_000)];
    const written = dialect === 'postgres' ? await Promise.all(runs.map((run) => run())) : [await runs[0]!(), await runs[1]!(), await runs[2]!()];
    expect(written.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    expect(await writeDailyMails(env.ctx, morning + 3_600_000)).toBe(0);
    await drain();
    const [digest, ...twice] = smtp.take(user.account);
    expect(twice).toHaveLength(0);
    const today = new Intl.DateTimeFormat('es', { dateStyle: 'long', timeZone: 'UTC' }).format(dayStart(dayKey(Date.now(), zone), zone));
    expect(digest!.subject).toBe(`2 comisiones aprobadas el ${today}`);
    expect(digest!.text).toContain(formatMoney(3_100, 'CNY', 'es'));
    expect(digest!.text).toContain(`${PUBLIC}#/commissions`);
    const [summary, ...more] = smtp.take(adminUser.account);
    expect(more.map((m) => m.subject), summary?.subject).toHaveLength(0);
    // The overview's work queue, figure for figure.
    const plural = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;
    const total = queue.registrations + queue.enrollments + queue.commissions + queue.withdrawalsToApprove + queue.withdrawalsToPay;
    expect(summary!.subject).toBe(`${DEFAULT_APP_NAME.en}: ${plural(total, 'item is', 'items are')} waiting for review`);
    expect(summary!.text).toContain(`${plural(queue.registrations, 'registration', 'registrations')}, ${plural(queue.enrollments, 'campaign application', 'campaign applications')}, `
      + `${plural(queue.commissions, 'commission to approve', 'commissions to approve')}, ${plural(queue.withdrawalsToApprove, 'withdrawal to approve', 'withdrawals to approve')} `
      + `and ${plural(queue.withdrawalsToPay, 'withdrawal to pay', 'withdrawals to pay')}.`);
  });

  it('the digest counts in each language’s plural forms and writes money as the app does (CN¥27.10, 27,10 CN¥), in all five languages', async () => {
    const key = (await admin.request('POST', '/api/admin/api-keys', { name: 'Plurals', scopes: ['conversions:write'] })).json().secret as string;
    const campaign = async (reward: number) => {
      const id = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ names: { en: `Plural ${reward}` }, approvalMode: 'manual', saleRewardType: 'fixed', saleReward: reward, leadReward: 0, holdDays: 0 }))).json().campaign.id as string;
      await admin.request('PATCH', `/api/admin/campaigns/${id}`, { status: 'active' });
      return id;
    };
    // One commission of 27.10, or two of 13.55: 27.10 either way.
    const single = await campaign(2_710);
    const half = await campaign(1_355);
    const operator = (await signedIn(env, 'operator')).client;
    const approvedSales = async (promoter: Client, campaignId: string, n: number) => {
      await promoter.request('POST', `/api/campaigns/${campaignId}/join`);
      const link = ((await promoter.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
      for (let i = 0; i < n; i++) {
        const sale = await env.app.inject({ method: 'POST', url: '/api/v1/conversions', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: JSON.stringify({ campaignId, kind: 'sale', externalId: `plural-${link.code}-${i}`, amount: 10_000, linkCode: link.code }) });
        expect(sale.statusCode, sale.body).toBe(201);
        expect((await operator.request('POST', `/api/admin/commissions/${sale.json().commissions[0].id}/approve`)).statusCode).toBe(200);
      }
    };
    const readers: { locale: Locale; count: 1 | 2; account: string }[] = [];
    for (const locale of LOCALES) {
      for (const count of [1, 2] as const) {
        const { client, user } = await signedIn(env, 'promoter');
        await setLocale(client, locale);
        await approvedSales(client, count === 1 ? single : half, count);
        readers.push({ locale, count, account: user.account });
      }
    }
    const zone = 'UTC';
    const tomorrow = dayKey(dayStart(dayKey(Date.now(), zone), zone) + 36 * 3_600_000, zone);
    await writeDailyMails(env.ctx, dayStart(tomorrow, zone) + 9 * 3_600_000);
    await drain();
    // What the received mails say, and what the app shows for the same amount (lib/format.ts is packages/shared's format.ts).
    const phrase: Record<Locale, Record<1 | 2, string>> = {
      en: { 1: '1 commission', 2: '2 commissions' },
      fr: { 1: '1 commission approuvée', 2: '2 commissions approuvées' },
      es: { 1: '1 comisión aprobada', 2: '2 comisiones aprobadas' },
      'zh-Hans': { 1: '1 笔佣金', 2: '2 笔佣金' },
      'zh-Hant': { 1: '1 筆佣金', 2: '2 筆佣金' },
    };
    const money: Record<Locale, string> = { en: 'CN¥27.10', 'zh-Hans': 'CN¥27.10', 'zh-Hant': 'CN¥27.10', fr: '27,10 CN¥', es: '27,10 CN¥' };
    const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    for (const { locale, count, account } of readers) {
      const mails = smtp.take(account);
      expect(mails, `${locale} ${count}`).toHaveLength(1);
      const [mail] = mails;
      expect(spaces(mail!.subject), locale).toContain(phrase[locale][count]);
      expect(spaces(mail!.text), locale).toContain(phrase[locale][count]);
      if (count === 1 && locale !== 'zh-Hans' && locale !== 'zh-Hant') expect(mail!.subject, locale).not.toContain(phrase[locale][2].slice(2));
      expect(spaces(mail!.text), locale).toContain(money[locale]);
      expect(mail!.text, locale).toContain(formatMoney(2_710, 'CNY', locale));
      expect(spaces(mail!.html), locale).toContain(money[locale]);
      // Never the bare "¥" of Intl's Simplified Chinese, nor the "CNY" of its French and Spanish.
      expect(mail!.text, locale).not.toMatch(/(^|[^N])¥|CNY/);
    }
  });

  it('a webhook endpoint disabled by a 410 mails every active admin who keeps "system" on, once', async () => {
    const receiver = await answeringWith(410);
    try {
      const url = receiver.url('/gone');
      const { client: other, user: otherAdmin } = await signedIn(env, 'admin');
      expect((await other.request('PATCH', '/api/me/mail-preferences', { category: 'system', enabled: false })).statusCode).toBe(200);
      const { endpoint } = (await admin.request('POST', '/api/admin/webhooks', { url, events: ['commission.approved'] })).json();
      // Three deliveries answered 410 in one pass: one mail, not three.
      for (let i = 0; i < 3; i++) expect((await admin.request('POST', `/api/admin/webhooks/${endpoint.id}/test`)).statusCode).toBe(202);
      while ((await dispatchDue(env.ctx, log)) > 0);
      await drain();
      const mails = smtp.take(adminUser.account);
      expect(mails.map((m) => m.subject)).toEqual([`${DEFAULT_APP_NAME.en}: a webhook endpoint was disabled`]);
      const mail = mails[0];
      expect(mail!.text).toContain(url);
      expect(mail!.text).toContain('410 Gone');
      expect(smtp.take(otherAdmin.account)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('retries a temporary refusal with the same Message-ID; a permanent one fails at once; the console shows both; admins are told once per failing spell', async () => {
    const failingTold = async () => ((await admin.request('GET', '/api/notifications?limit=100')).json().items as { type: string; params: { error: string } }[]).filter((n) => n.type === 'staff.mail_failing');
    const toldBefore = (await failingTold()).length;
    smtp.plan = [451, 451];
    const first = await admin.request('POST', '/api/admin/mail/test', { to: 'retry-me@example.com' });
    expect(first.statusCode, first.body).toBe(202);
    const id = first.json().message.id as string;
    expect((await admin.request('POST', '/api/admin/mail/test', { to: 'retry-too@example.com' })).statusCode).toBe(202);
    await dispatchMail(env.ctx, sender, log, { retryDelaysMs: [0, 0] });
    // Two mails failed in one spell: one notification (and one mail) per admin.
    const told = await failingTold();
    expect(told).toHaveLength(toldBefore + 1);
    expect(told[0]!.params.error).toContain('Try again later');
    const list = async () => (await admin.request('GET', '/api/admin/mail/messages?limit=50')).json().items as { id: string; status: string; attempts: number; lastError: string | null }[];
    let row = (await list()).find((m) => m.id === id)!;
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row.lastError).toContain('Try again later');
    await drain({ retryDelaysMs: [0, 0] });
    row = (await list()).find((m) => m.id === id)!;
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    const [mail] = smtp.take('retry-me@example.com');
    expect(mail!.subject).toBe(`Test message from ${DEFAULT_APP_NAME.en}`);
    expect(mail!.messageId).toBe(`<${id}@promo.example.com>`);
    smtp.take('retry-too@example.com');
    const alerts = smtp.take(adminUser.account);
    expect(alerts.map((m) => m.subject)).toEqual([`${DEFAULT_APP_NAME.en}: e-mail is failing`]);
    expect(alerts[0]!.text).toContain('Try again later');
    expect(alerts[0]!.text).toContain(`${PUBLIC}#/admin/mail`);

    // Mail worked since: a new failure is a new spell.
    smtp.plan = [550];
    const bounced = (await admin.request('POST', '/api/admin/mail/test', { to: 'nobody@example.com' })).json().message.id as string;
    await drain({ retryDelaysMs: [0, 0] });
    expect((await list()).find((m) => m.id === bounced)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(smtp.take('nobody@example.com')).toEqual([]);
    expect(await failingTold()).toHaveLength(toldBefore + 2);
    expect(smtp.take(adminUser.account).map((m) => m.subject)).toEqual([`${DEFAULT_APP_NAME.en}: e-mail is failing`]);

    // The console: on, the server without its credentials, counts; a test to oneself by default.
    const settings = (await admin.request('GET', '/api/admin/mail')).json();
    expect(settings).toMatchObject({ enabled: true, server: `smtp://127.0.0.1:${smtp.port}`, from: 'Acme Partners <partners@acme.example>', publicUrl: PUBLIC });
    expect(JSON.stringify(settings)).not.toContain('s3cret');
    expect(settings.counts.failed).toBeGreaterThanOrEqual(1);
    expect(settings.counts.sent).toBeGreaterThanOrEqual(1);
    expect((await admin.request('POST', '/api/admin/mail/test', {})).statusCode).toBe(202);
    await drain();
    expect(smtp.take(adminUser.account)).toHaveLength(1);
    expect((await admin.request('POST', '/api/admin/mail/test', { to: 'not an address' })).json().error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { to: 'invalid' } });
    // Operators and promoters do not see the mail settings.
    expect(errorCode(await (await signedIn(env, 'operator')).client.request('GET', '/api/admin/mail'))).toBe('FORBIDDEN');
  });

  it('a running dispatcher sends what is written, on its own', async () => {
    const stop = startMailDispatcher(env.ctx, log, { intervalMs: 50 });
    try {
      expect((await admin.request('POST', '/api/admin/mail/test', { to: 'running@example.com' })).statusCode).toBe(202);
      for (let waited = 0; smtp.received.every((m) => m.to !== 'running@example.com') && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(smtp.take('running@example.com').map((m) => m.subject)).toEqual([`Test message from ${DEFAULT_APP_NAME.en}`]);
    } finally {
      await stop();
    }
  });

  it('with SMTP_URL unset: nothing is written, the console says so, a test is MAIL_DISABLED, forgot-password still answers 202', async () => {
    const off = await makeEnv(dialect, { mail: null });
    try {
      const { client } = await signedIn(off, 'admin');
      expect((await client.request('GET', '/api/admin/mail')).json()).toEqual({ enabled: false, server: null, from: null, publicUrl: null, counts: { pending: 0, sent: 0, failed: 0 } });
      expect(errorCode(await client.request('POST', '/api/admin/mail/test', {}))).toBe('MAIL_DISABLED');
      const { user } = await signedIn(off, 'promoter');
      expect((await new Client(off.app).request('POST', '/api/auth/forgot-password', { account: user.account })).statusCode).toBe(202);
      const pending = await createUser(off.ctx, 'promoter', 'Passw0rd-test', 'pending');
      expect((await client.request('POST', `/api/admin/users/${pending.id}/approve`)).statusCode).toBe(200);
      expect(await off.ctx.db.selectFrom('mail_messages').select('id').execute()).toEqual([]);
      expect((await client.request('GET', '/api/me/mail-preferences')).json()).toEqual({
        mailEnabled: false,
        hasAddress: true,
        items: ['work_queue', 'registrations', 'enrollments', 'withdrawal_requests', 'system', 'mail_failing', 'ledger'].map((category) => ({ category, enabled: true })),
      });
      // An operator's are the work queue's only: the system's alerts are for admins.
      const operator = (await signedIn(off, 'operator')).client;
      expect(((await operator.request('GET', '/api/me/mail-preferences')).json().items as { category: string }[]).map((i) => i.category)).toEqual(['work_queue', 'registrations', 'enrollments', 'withdrawal_requests']);
      expect(errorCode(await operator.request('PATCH', '/api/me/mail-preferences', { category: 'ledger', enabled: false }))).toBe('VALIDATION_FAILED');
    } finally {
      await off.close();
    }
  });
});
