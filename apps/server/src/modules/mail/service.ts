/**
 * E-mail (issue 16): the console's view of it, a person's categories, self-service "forgot
 * password", the daily mails, and the dispatcher that sends the outbox.
 *
 * - **Writing** happens in the transaction of the change (platform/mail/outbox.ts, `mailUser`):
 *   registration approved or rejected, withdrawal paid, failed or rejected, staff invitations and
 *   password links, a webhook endpoint disabled, staff alerts (modules/staff-alerts).
 * - **Daily mails** (`writeDailyMails`, every instance every few minutes): from 08:00 in the
 *   installation's time zone, each promoter with commissions approved the day before gets one digest
 *   of them, and each active staff member one summary of the work queue when something waits. A
 *   (person, kind, day) row is claimed in the same transaction as the mail, so however many
 *   instances run it, a person gets each daily mail once.
 * - **Sending** (`dispatchMail`): claims due messages (a conditional update, skip locked on
 *   PostgreSQL), sends them over one pooled SMTP transport, and records each outcome. A refusal for
 *   good (5xx) fails the message at once; anything else is retried after 1 min, 5 min, 30 min, 2 h,
 *   5 h and 10 h, then the message has failed. A claim outlives an attempt, so an instance that dies
 *   mid-send only delays the mail (at least once). A mail failing at its first attempt tells the
 *   admins (`staff.mail_failing`), once per failing spell.
 */
import type { Locale, MailCategory, MailMessage, MailPreferences, MailSettings, MailTemplate } from '@pa/shared';
import { accountKind, isLocale, OPERATOR_MAIL_CATEGORIES, PROMOTER_MAIL_CATEGORIES, STAFF_MAIL_CATEGORIES } from '@pa/shared';
import type { AppContext } from '../../context';
import { AppError } from '../../platform/errors';
import { mailAddress, mailAddressOf, mailUser } from '../../platform/mail/outbox';
import { SmtpSender } from '../../platform/mail/send';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey, dayStart, localHour } from '../../platform/time';
import { issuePasswordToken, passwordLinkPath } from '../auth/password-tokens';
import { claimDue } from '../../platform/outbox-claims';
import { workQueue } from '../overview/service';
import { lastSentMailId } from '../staff-alerts/repository';
import { alertStaff } from '../staff-alerts/service';
import * as repo from './repository';

const MAIL_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
/** Daily mails are written from this local hour on. */
const DAILY_MAIL_HOUR = 8;
/** At most one forgot-password mail per account in this time (the route is rate-limited per address too). */
const FORGOT_PASSWORD_GAP_MS = 60_000;

const toMessage = (r: repo.MessageRow): MailMessage => ({
  id: r.id,
  to: r.recipient,
  template: r.template as MailTemplate,
  subject: r.subject,
  status: r.status,
  attempts: r.attempts,
  lastError: r.last_error,
  nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
  createdAt: Number(r.created_at),
  sentAt: r.sent_at === null ? null : Number(r.sent_at),
});

export async function mailSettings(ctx: AppContext): Promise<MailSettings> {
  const config = ctx.config.mail;
  let server: string | null = null;
  if (config) {
    const url = new URL(config.smtpUrl);
    server = `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
  }
  return { enabled: config !== null, server, from: config?.from ?? null, publicUrl: config?.publicUrl ?? null, counts: await repo.statusCounts(ctx.db) };
}

export async function mailMessages(ctx: AppContext, page: { limit: number; cursor?: string | undefined }): Promise<{ items: MailMessage[]; nextCursor: string | null }> {
  const { rows, nextCursor } = await repo.messagesPage(ctx.db, page);
  return { items: rows.map(toMessage), nextCursor };
}

/** A test message to `to`, else to the staff member's own address, in their language. */
export async function sendTestMail(ctx: AppContext, userId: string, to: string | undefined): Promise<MailMessage> {
  if (!ctx.mail.enabled) throw new AppError('MAIL_DISABLED');
  const me = await repo.userForMail(ctx.db, userId);
  if (!me) throw new AppError('UNAUTHENTICATED');
  const address = to ?? mailAddressOf(me);
  if (!address) throw new AppError('VALIDATION_FAILED', { to: 'required' });
  const locale: Locale = isLocale(me.locale) ? me.locale : 'en';
  const row = await ctx.uow.run(async (tx) => mailAddress(ctx.mail, tx, { address, userId: null, locale }, { template: 'test', params: {} }));
  return toMessage(row);
}

/** A promoter's, an operator's (the work queue) or an admin's (the work queue and the system's alerts). */
const categoriesFor = (role: string): readonly MailCategory[] => (role === 'promoter' ? PROMOTER_MAIL_CATEGORIES : role === 'admin' ? STAFF_MAIL_CATEGORIES : OPERATOR_MAIL_CATEGORIES);

export async function mailPreferences(ctx: AppContext, userId: string): Promise<MailPreferences> {
  const me = await repo.userForMail(ctx.db, userId);
  if (!me) throw new AppError('UNAUTHENTICATED');
  const off = new Set(await repo.optOutsOf(ctx.db, userId));
  return {
    mailEnabled: ctx.mail.enabled,
    hasAddress: mailAddressOf(me) !== null,
    items: categoriesFor(me.role).map((category) => ({ category, enabled: !off.has(category) })),
  };
}

export async function setMailPreference(ctx: AppContext, userId: string, category: MailCategory, enabled: boolean): Promise<MailPreferences> {
  const me = await repo.userForMail(ctx.db, userId);
  if (!me) throw new AppError('UNAUTHENTICATED');
  // A category of the other side (a promoter's digest for staff, say) is not theirs to set.
  if (!categoriesFor(me.role).includes(category)) throw new AppError('VALIDATION_FAILED', { category: 'not_allowed' });
  await ctx.uow.run(async ({ q, now }) => repo.setOptOut(q, userId, category, !enabled, now));
  return mailPreferences(ctx, userId);
}

/**
 * Self-service reset: when the account exists, has an address (an e-mail account, or a phone
 * account with a verified address — typed as the phone number or as that address) and may sign in
 * (active or awaiting approval), a one-time link (30 minutes) is mailed to that address. The caller answers 202 whatever
 * happened, so the answer tells nobody whether the account exists.
 */
export async function forgotPassword(ctx: AppContext, account: string): Promise<void> {
  if (!ctx.mail.enabled || accountKind(account) === null) return;
  const user = await repo.userByAccount(ctx.db, account);
  if (!user || !mailAddressOf(user) || (user.status !== 'active' && user.status !== 'pending')) return;
  await ctx.uow.run(async (tx) => {
    if (await repo.recentlyMailed(tx.q, user.id, 'forgot_password', tx.now - FORGOT_PASSWORD_GAP_MS)) return;
    const { token } = await issuePasswordToken(tx.q, { userId: user.id, purpose: 'reset', createdBy: null }, tx.now);
    await mailUser(ctx.mail, tx, user.id, { template: 'forgot_password', params: {}, path: passwordLinkPath(token) });
  });
}

/** Today (YYYY-MM-DD in the installation's zone) once its daily mails are due, else null. */
function dailyMailDay(ctx: AppContext, now: number): string | null {
  const zone = zoneOf(ctx, now);
  return localHour(now, zone) < DAILY_MAIL_HOUR ? null : dayKey(now, zone);
}

/**
 * Writes the day's digests and summaries not yet written (any instance, any number of times: each
 * goes out once). Returns how many mails it wrote.
 */
export async function writeDailyMails(ctx: AppContext, now = Date.now()): Promise<number> {
  if (!ctx.mail.enabled) return 0;
  const zone = zoneOf(ctx, now);
  const today = dailyMailDay(ctx, now);
  if (!today) return 0;
  const todayStart = dayStart(today, zone);
  const yesterday = dayKey(todayStart - 1, zone);
  const { currency } = await readSettings(ctx.db, zone);
  let written = 0;

  for (const row of await repo.approvedCommissionsBetween(ctx.db, dayStart(yesterday, zone), todayStart)) {
    const count = Number(row.n);
    if (count === 0) continue;
    await ctx.uow.run(async (tx) => {
      if (!(await repo.claimDigest(tx.q, row.promoter_id, 'commission_digest', yesterday, tx.now))) return;
      const sent = await mailUser(ctx.mail, tx, row.promoter_id, { template: 'commission_digest', params: { count, day: { day: yesterday }, total: { minor: Number(row.total), currency } }, path: '/commissions' });
      if (sent) written++;
    });
  }

  // The overview's own figures, so the mail and the console agree.
  const queue = await workQueue(ctx);
  const total = queue.registrations + queue.enrollments + queue.commissions + queue.withdrawalsToApprove + queue.withdrawalsToPay;
  if (total > 0) {
    for (const staff of await repo.activeStaff(ctx.db)) {
      await ctx.uow.run(async (tx) => {
        if (!(await repo.claimDigest(tx.q, staff.id, 'work_queue_summary', today, tx.now))) return;
        const sent = await mailUser(ctx.mail, tx, staff.id, { template: 'work_queue_summary', params: { total, ...queue }, path: '/admin' });
        if (sent) written++;
      });
    }
  }
  return written;
}

type Log = { warn(obj: unknown, msg: string): void };

interface MailDispatcherOptions {
  intervalMs?: number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** How often the daily mails are looked at. */
  dailyEveryMs?: number;
}

/** Mails waiting to be sent, retries included (for /metrics). */
export function mailQueueDepth(ctx: AppContext): Promise<number> {
  return repo.pendingCount(ctx.db);
}

/** Sends the mail outbox every `intervalMs`, and writes the daily mails; returns stop(). Nothing when mail is off. */
export function startMailDispatcher(ctx: AppContext, log: Log, options: MailDispatcherOptions = {}) {
  if (!ctx.config.mail) return async () => {};
  const sender = new SmtpSender(ctx.config.mail, { timeoutMs: options.timeoutMs });
  let running: Promise<void> | null = null;
  let stopped = false;
  let dailyAt = 0;
  /** The day whose daily mails this instance has written (looked at again only on the next day). */
  let dailyDone = '';
  const pass = async () => {
    const now = Date.now();
    const day = dailyMailDay(ctx, now);
    if (day && day !== dailyDone && now - dailyAt >= (options.dailyEveryMs ?? 5 * 60_000)) {
      dailyAt = now;
      await writeDailyMails(ctx, now).then(() => (dailyDone = day), (error: unknown) => log.warn({ err: error }, 'daily mails could not be written'));
    }
    for (let claimed = -1; claimed !== 0 && !stopped;) claimed = await dispatchMail(ctx, sender, log, options);
  };
  const run = () => {
    running ??= pass().catch((error: unknown) => log.warn({ err: error }, 'mail dispatch failed')).finally(() => (running = null));
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 2000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    sender.close();
  };
}

/** One pass: claims up to 16 due mails, sends them, records each outcome. Returns how many it claimed. */
export async function dispatchMail(ctx: AppContext, sender: SmtpSender, log: Log, options: MailDispatcherOptions = {}): Promise<number> {
  const delays = options.retryDelaysMs ?? MAIL_RETRY_DELAYS_MS;
  const now = Date.now();
  const until = now + 2 * (options.timeoutMs ?? 15_000) + 30_000;
  const ids = await claimDue(ctx.db, ctx.dialect, 'mail_messages', now, until, 16);
  if (ids.length === 0) return 0;
  const due = (await repo.messagesToSend(ctx.db, ids)).filter((m) => m.status === 'pending');
  /** The error of a mail that failed at its first attempt (retries of one already told about are not news). */
  let firstFailure: string | null = null;
  await Promise.all(due.map(async (m) => {
    const body = ctx.mail.open(m.body_sealed);
    const outcome = await sender.send({ id: m.id, to: m.recipient, subject: m.subject, text: body.text, html: body.html });
    const at = Date.now();
    const attempts = m.attempts + 1;
    const delay = delays[attempts - 1];
    const set = outcome.ok
      ? { status: 'sent' as const, attempts, next_attempt_at: at, last_error: null, sent_at: at }
      : outcome.permanent || delay === undefined
        ? { status: 'failed' as const, attempts, next_attempt_at: at, last_error: outcome.error, sent_at: null }
        : { status: 'pending' as const, attempts, next_attempt_at: at + delay, last_error: outcome.error, sent_at: null };
    ctx.metrics.mails[set.status === 'pending' ? 'retry' : set.status].n++;
    try {
      if (await repo.settleMessage(ctx.db, m.id, until, set) && !outcome.ok && attempts === 1) firstFailure ??= outcome.error ?? '';
    } catch (error) {
      // Not recorded: the claim runs out and the mail is sent again (at least once).
      log.warn({ err: error, mail: m.id }, 'mail outcome could not be recorded');
    }
  }));
  if (firstFailure !== null) {
    const error = firstFailure;
    // Once per failing spell: it lasts until a mail is sent again, so the spell is named by the last one sent.
    await ctx.uow.run(async (tx) => alertStaff(ctx.mail, tx, { type: 'staff.mail_failing', error, spell: `mail:${await lastSentMailId(tx.q)}` }))
      .catch((error: unknown) => log.warn({ err: error }, 'staff could not be told that mail is failing'));
  }
  return ids.length;
}
