/**
 * Staff are told in the app (issue 28): a staff notification, and a mail of the alert's category
 * when they keep it on, written in the transaction of the change that caused it. Rendered by the
 * reader's app (notifications) or in the reader's language (mails), like the promoters' own.
 *
 * - Awaiting review — a registration, a campaign application, a withdrawal requested: every active
 *   operator and admin, each at most one unread of a type at a time (the one they have links to
 *   the list, which holds every newer one; its `count` says how many waited when it was written).
 *   A queue that grows by a hundred is one badge, not a hundred.
 * - The system's — a webhook endpoint disabled (once per disable, by the one conditional update
 *   that disables it), mail failing (once per failing spell: until a mail is sent again), a ledger
 *   check breach (once per set of breaches): every active admin (the pages they open are admins').
 *   "Once" is a claim row per person and spell, so any number of instances tell each person once.
 */
import { createHash } from 'node:crypto';
import type { NotificationType } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Tx } from '../../db/unit-of-work';
import type { Mailer, MailInput } from '../../platform/mail/outbox';
import { mailUser } from '../../platform/mail/outbox';
import type { LedgerBreach } from '../../platform/ledger';
import { DISABLED_REASONS } from '../../platform/mail/templates';
import { NOTIFICATIONS, type NotificationParams } from '../../platform/notifications';
import { pendingEnrollments, pendingRegistrations, withdrawalsToApprove } from '../overview/repository';
import { activeStaffOf, claimAlert, withUnread } from './repository';

type StaffAlert =
  | { type: 'staff.registration' }
  | { type: 'staff.enrollment' }
  | { type: 'staff.withdrawal'; withdrawalId: string; amount: number; currency: string }
  | { type: 'staff.webhook_disabled'; endpointId: string; url: string; reason: 'gone' | 'failing' }
  /** `spell`: what ends it (the last mail sent before it began). */
  | { type: 'staff.mail_failing'; error: string; spell: string }
  /** `key`: the set of breaches (a digest of their kinds and references). */
  | { type: 'staff.ledger_breach'; count: number; key: string };

const REVIEW = new Set<NotificationType>(['staff.registration', 'staff.enrollment', 'staff.withdrawal']);

/** The notification's parameters and the mail of an alert (`count`: what waits now, for the review kinds). */
function contentOf(alert: StaffAlert, count: number): { params: NotificationParams; mail: MailInput } {
  switch (alert.type) {
    case 'staff.registration':
      return { params: { count }, mail: { template: 'staff_registration', params: { count }, path: '/admin/users' } };
    case 'staff.enrollment':
      return { params: { count }, mail: { template: 'staff_enrollment', params: { count }, path: '/admin/enrollments' } };
    case 'staff.withdrawal':
      return {
        params: { withdrawalId: alert.withdrawalId, amount: alert.amount, count },
        mail: { template: 'staff_withdrawal', params: { amount: { minor: alert.amount, currency: alert.currency }, count }, path: `/admin/withdrawals/${alert.withdrawalId}` },
      };
    case 'staff.webhook_disabled':
      return {
        params: { endpointId: alert.endpointId, url: alert.url, reason: alert.reason },
        mail: { template: 'webhook_disabled', params: { url: alert.url, reason: { localized: DISABLED_REASONS[alert.reason] } }, path: `/admin/webhooks/${alert.endpointId}` },
      };
    case 'staff.mail_failing':
      return { params: { error: alert.error }, mail: { template: 'mail_failing', params: { error: alert.error }, path: '/admin/mail' } };
    case 'staff.ledger_breach':
      return { params: { count: alert.count }, mail: { template: 'ledger_breach', params: { count: alert.count }, path: '/admin/ledger-check' } };
  }
}

async function waiting(tx: Tx, type: StaffAlert['type']): Promise<number> {
  if (type === 'staff.registration') return pendingRegistrations(tx.q);
  if (type === 'staff.enrollment') return pendingEnrollments(tx.q);
  if (type === 'staff.withdrawal') return withdrawalsToApprove(tx.q);
  return 0;
}

/**
 * Tells the staff concerned about `alert`, in the transaction `tx` (call it after the change is
 * written, so the counts include it). Returns how many people were told.
 */
export async function alertStaff(mailer: Mailer, tx: Tx, alert: StaffAlert): Promise<number> {
  const review = REVIEW.has(alert.type);
  let people = (await activeStaffOf(tx.q, review ? ['operator', 'admin'] : ['admin'])).map((u) => u.id);
  if (people.length === 0) return 0;
  if (review) {
    const told = await withUnread(tx.q, people, alert.type);
    people = people.filter((id) => !told.has(id));
  } else if (alert.type === 'staff.mail_failing' || alert.type === 'staff.ledger_breach') {
    const key = alert.type === 'staff.mail_failing' ? alert.spell : alert.key;
    const claimed: string[] = [];
    for (const id of people) if (await claimAlert(tx.q, id, alert.type, key, tx.now)) claimed.push(id);
    people = claimed;
  }
  if (people.length === 0) return 0;
  const { params, mail } = contentOf(alert, await waiting(tx, alert.type));
  tx.collect(NOTIFICATIONS).notify(people.map((userId) => ({ userId, type: alert.type, params })), tx.now);
  for (const id of people) await mailUser(mailer, tx, id, mail);
  return people.length;
}

/**
 * A ledger check found `breaches` (the console's check or `npm run ledger:check`): the admins are
 * told once per set of breaches — the same ones found again tell nobody, a different set does.
 */
export async function tellLedgerBreaches(ctx: AppContext, breaches: readonly LedgerBreach[]): Promise<void> {
  if (breaches.length === 0) return;
  const key = `ledger:${createHash('sha256').update(breaches.map((b) => `${b.kind}\u0000${b.ref}`).sort().join('\n')).digest('base64url').slice(0, 32)}`;
  await ctx.uow.run(async (tx) => alertStaff(ctx.mail, tx, { type: 'staff.ledger_breach', count: breaches.length, key }));
}
