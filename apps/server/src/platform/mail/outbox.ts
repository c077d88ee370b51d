/**
 * The mail outbox (issue 16): a mail is rendered in its reader's language and stored, sealed, by
 * the transaction of the change that caused it (a unit-of-work collector, like the webhook outbox),
 * so no mail goes out for a change that did not happen and none is lost for one that did. Sending,
 * with retries, is modules/mail's dispatcher's.
 *
 * With SMTP_URL unset (`ctx.mail.enabled` false) nothing is written: the installation sends no mail.
 * A person gets mail only when their account is an e-mail address or they verified one (a phone
 * account, issue 28), and not of a category they turned off in Me (invitations and password links
 * are always sent).
 */
import type { Locale, MailCategory, MailTemplate } from '@pa/shared';
import { accountKind, isLocale } from '@pa/shared';
import type { MailConfig } from './send';
import type { Db, MailMessagesTable } from '../../db/types';
import { COLLECTOR_ORDER, type Collector, type CollectorKind, type Tx, type TxInfo } from '../../db/unit-of-work';
import type { MasterKey } from '../crypto/master-key';
import { writeRows } from '../../db/hot';
import { newId } from '../ids';
import { renderMail, type MailParams } from './templates';

const BODY_AAD = 'mail-body';

/** Which category a mail belongs to (null: always sent). */
export const TEMPLATE_CATEGORY: Record<MailTemplate, MailCategory | null> = {
  test: null,
  staff_invite: null,
  password_reset: null,
  forgot_password: null,
  registration_approved: 'account',
  registration_rejected: 'account',
  commission_digest: 'commissions',
  withdrawal_paid: 'withdrawals',
  withdrawal_failed: 'withdrawals',
  withdrawal_rejected: 'withdrawals',
  work_queue_summary: 'work_queue',
  webhook_disabled: 'system',
  staff_registration: 'registrations',
  staff_enrollment: 'enrollments',
  staff_withdrawal: 'withdrawal_requests',
  mail_failing: 'mail_failing',
  ledger_breach: 'ledger',
  verify_email: null,
};

export interface MailInput {
  template: MailTemplate;
  params: MailParams;
  /** A path of the web app (hash route, e.g. `/withdrawals/01J…`) the mail's button opens. */
  path?: string;
}

export class Mailer {
  constructor(readonly config: MailConfig | null, private readonly master: MasterKey) {}

  get enabled(): boolean {
    return this.config !== null;
  }

  /** The address of a page of the web app, under PUBLIC_URL. */
  link(path: string): string {
    return `${this.config!.publicUrl}#${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** The row to store for a mail to `to` in `locale` (rendered and sealed now). */
  message(to: { address: string; userId: string | null; locale: Locale }, input: MailInput, now: number): MailMessagesTable {
    const rendered = renderMail(input.template, to.locale, input.params, {
      appName: this.config!.appName,
      url: input.path === undefined ? undefined : this.link(input.path),
      optOut: TEMPLATE_CATEGORY[input.template] !== null,
    });
    return {
      id: newId(now),
      user_id: to.userId,
      recipient: to.address,
      locale: to.locale,
      template: input.template,
      subject: rendered.subject,
      body_sealed: this.master.encrypt(JSON.stringify({ text: rendered.text, html: rendered.html }), BODY_AAD),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      claimed_until: null,
      last_error: null,
      created_at: now,
      sent_at: null,
    };
  }

  open(sealed: string): { text: string; html: string } {
    return JSON.parse(this.master.decrypt(sealed, BODY_AAD).toString()) as { text: string; html: string };
  }
}

/** Where a person's mail goes: their account when it is an e-mail address, else the address they verified, else nowhere. */
export const mailAddressOf = (user: { account: string; email: string | null }): string | null => (accountKind(user.account) === 'email' ? user.account : user.email);

/** Who a mail to a user goes to, or null when they get none (no address, or the category is off). */
async function recipientOf(q: Db, userId: string, category: MailCategory | null) {
  const user = await q.selectFrom('users').select(['account', 'email', 'display_name', 'locale']).where('id', '=', userId).executeTakeFirst();
  const address = user ? mailAddressOf(user) : null;
  if (!user || !address) return null;
  if (category) {
    const off = await q.selectFrom('mail_opt_outs').select('user_id').where('user_id', '=', userId).where('category', '=', category).executeTakeFirst();
    if (off) return null;
  }
  return { address, name: user.display_name, locale: isLocale(user.locale) ? user.locale : 'en' as Locale };
}

/**
 * Adds a mail to `userId` to the transaction's outbox (`{name}` is filled with their display name).
 * Does nothing when mail is off, the person has no address (a phone account with none verified), or
 * turned the mail's category off. Returns the address the mail goes to, or null when none was added.
 */
export async function mailUser(mailer: Mailer, tx: Tx, userId: string, input: MailInput): Promise<string | null> {
  if (!mailer.enabled) return null;
  const to = await recipientOf(tx.q, userId, TEMPLATE_CATEGORY[input.template]);
  if (!to) return null;
  tx.collect(MAIL_OUTBOX).rows.push(mailer.message({ address: to.address, userId, locale: to.locale }, { ...input, params: { name: to.name, ...input.params } }, tx.now));
  return to.address;
}

/** Adds a mail to an address that is not (or not yet) a person's, e.g. a test message. */
export function mailAddress(mailer: Mailer, tx: Tx, to: { address: string; userId: string | null; locale: Locale }, input: MailInput): MailMessagesTable {
  const row = mailer.message(to, input, tx.now);
  tx.collect(MAIL_OUTBOX).rows.push(row);
  return row;
}

class MailOutbox implements Collector {
  readonly rows: MailMessagesTable[] = [];
  merge(other: MailOutbox) {
    this.rows.push(...other.rows);
  }
  async flush(q: Db, _tx: TxInfo) {
    await writeRows(q, 'mail_messages', this.rows);
  }
}
/** After the business rows and the webhook outbox (COLLECTOR_ORDER). */
const MAIL_OUTBOX: CollectorKind<MailOutbox> = { order: COLLECTOR_ORDER.mail, create: () => new MailOutbox() };
