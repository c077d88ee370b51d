/**
 * A notification is stored as a type and parameters; this turns it into words in the reader's
 * current language (so switching language re-renders the whole inbox), with the place it opens.
 * Pure: given `t`, the same input always gives the same text. The words are the text catalogue's
 * (packages/shared/src/texts/notifications/<locale>.ts, loaded with the app's texts under
 * `notifications`); amounts come in written by formatMoney, as everywhere on screen.
 */
import type { TFunction } from 'i18next';
import { LOCALES } from '@pa/shared/locales';
import { formatMoney } from '@/lib/format';

export interface NotificationMessage {
  title: string;
  body: string;
  /** Extra lines: the operator's reason, a payout reference. */
  details: string[];
  /** Hash path it opens, or null. */
  target: string | null;
  group: 'enrollment' | 'commission' | 'withdrawal' | 'adjustment' | 'review' | 'system' | 'other';
  /** Good news, bad news, or neither (for the icon colour). */
  tone: 'good' | 'bad' | 'info';
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** A campaign name given per locale: the reader's, else English, else any (as campaign names everywhere). */
export function pickName(names: unknown, locale: string): string | null {
  if (typeof names === 'string') return str(names);
  if (!names || typeof names !== 'object') return null;
  const map = names as Record<string, unknown>;
  return str(map[locale]) ?? str(map.en) ?? LOCALES.map((l) => str(map[l])).find(Boolean) ?? Object.values(map).map(str).find(Boolean) ?? null;
}

const TONE: Record<string, NotificationMessage['tone']> = {
  'enrollment.approved': 'good',
  'enrollment.rejected': 'bad',
  'commission.created': 'info',
  'commission.approved': 'good',
  'commission.rejected': 'bad',
  'commission.reversed': 'bad',
  'withdrawal.requested': 'info',
  'withdrawal.approved': 'info',
  'withdrawal.paid': 'good',
  'withdrawal.failed': 'bad',
  'withdrawal.rejected': 'bad',
  'withdrawal.cancelled': 'info',
};

/** Staff's: what waits for review, and the system's alerts, each opening the page to act on. */
function describeStaff(event: string, p: Record<string, unknown>, t: TFunction, money: (v: unknown) => string): NotificationMessage | null {
  const count = int(p.count) ?? 0;
  const id = (key: string) => {
    const v = str(p[key]);
    return v ? encodeURIComponent(v) : null;
  };
  switch (event) {
    case 'registration':
    case 'enrollment':
      return {
        title: t(`notifications.staff.${event}.title`, { count }),
        body: t(`notifications.staff.${event}.body`),
        details: [],
        target: event === 'registration' ? '/admin/users' : '/admin/enrollments',
        group: 'review',
        tone: 'info',
      };
    case 'withdrawal': {
      const withdrawalId = id('withdrawalId');
      return {
        title: t('notifications.staff.withdrawal.title', { amount: money(p.amount) }),
        body: t('notifications.staff.withdrawal.body', { count }),
        details: [],
        target: withdrawalId ? `/admin/withdrawals/${withdrawalId}` : '/admin/withdrawals',
        group: 'review',
        tone: 'info',
      };
    }
    case 'webhook_disabled': {
      const endpointId = id('endpointId');
      const reason = p.reason === 'gone' || p.reason === 'failing' ? t(`notifications.staff.webhook_disabled.${p.reason}`) : '—';
      return {
        title: t('notifications.staff.webhook_disabled.title'),
        body: t('notifications.staff.webhook_disabled.body', { url: str(p.url) ?? '—', reason }),
        details: [],
        target: endpointId ? `/admin/webhooks/${endpointId}` : '/admin/webhooks',
        group: 'system',
        tone: 'bad',
      };
    }
    case 'mail_failing': {
      const error = str(p.error);
      return {
        title: t('notifications.staff.mail_failing.title'),
        body: t('notifications.staff.mail_failing.body'),
        details: error ? [t('notifications.error', { error })] : [],
        target: '/admin/mail',
        group: 'system',
        tone: 'bad',
      };
    }
    case 'ledger_breach':
      return {
        title: t('notifications.staff.ledger_breach.title', { count }),
        body: t('notifications.staff.ledger_breach.body'),
        details: [],
        target: '/admin/ledger-check',
        group: 'system',
        tone: 'bad',
      };
    default:
      return null;
  }
}

export function describeNotification(n: { type: string; params: Record<string, unknown> }, t: TFunction, locale: string, currency: string): NotificationMessage {
  const p = n.params ?? {};
  const money = (v: unknown) => {
    const minor = int(v);
    return minor === null ? '—' : formatMoney(minor, currency, locale);
  };
  const campaign = pickName(p.campaign, locale) ?? t('notifications.aCampaign');
  const reason = str(p.reason);
  const reference = str(p.reference);
  const details: string[] = [];
  if (reason) details.push(t('notifications.reason', { reason }));
  if (reference) details.push(t('notifications.reference', { reference }));
  const [group, event] = n.type.split('.') as [string, string | undefined];
  const id = (key: string) => {
    const v = str(p[key]);
    return v ? encodeURIComponent(v) : null;
  };

  if (group === 'enrollment' && (event === 'approved' || event === 'rejected')) {
    const campaignId = id('campaignId');
    return {
      title: t(`notifications.enrollment.${event}.title`, { campaign }),
      body: t(`notifications.enrollment.${event}.body`, { campaign }),
      details,
      target: campaignId ? `/campaigns/${campaignId}` : null,
      group,
      tone: TONE[n.type]!,
    };
  }
  if (group === 'commission' && (event === 'created' || event === 'approved' || event === 'rejected' || event === 'reversed')) {
    const commissionId = id('commissionId');
    const team = int(p.level) === 2;
    const values = { amount: money(p.amount), campaign };
    // Taken back by staff (a clawback, with their reason as a detail line), not by a refund.
    const body = event === 'reversed' && p.clawback === true ? (team ? 'bodyClawbackTeam' : 'bodyClawback') : team ? 'bodyTeam' : 'body';
    return {
      title: t(`notifications.commission.${event}.${team ? 'titleTeam' : 'title'}`, values),
      body: t(`notifications.commission.${event}.${body}`, values),
      details,
      target: commissionId ? `/commissions/${commissionId}` : null,
      group,
      tone: TONE[n.type]!,
    };
  }
  if (group === 'withdrawal' && (event === 'requested' || event === 'approved' || event === 'paid' || event === 'failed' || event === 'rejected' || event === 'cancelled')) {
    const withdrawalId = id('withdrawalId');
    const values = { amount: money(p.amount), net: money(p.net) };
    return {
      title: t(`notifications.withdrawal.${event}.title`, values),
      body: t(`notifications.withdrawal.${event}.body`, values),
      details,
      target: withdrawalId ? `/withdrawals/${withdrawalId}` : null,
      group,
      tone: TONE[n.type]!,
    };
  }
  if (group === 'adjustment' && event === undefined) {
    // Signed minor units: a credit is good news, a debit bad. The reason is the body, not a detail line.
    const amount = int(p.amount);
    const debit = amount !== null && amount < 0;
    const values = { amount: amount === null ? '—' : formatMoney(amount, currency, locale, { signed: true }) };
    return {
      title: t(`notifications.adjustment.${debit ? 'debitTitle' : 'creditTitle'}`, values),
      body: reason ? t('notifications.adjustment.body', { ...values, reason }) : t('notifications.adjustment.bodyNoReason', values),
      details: reference ? [t('notifications.reference', { reference })] : [],
      target: '/wallet',
      group: 'adjustment',
      tone: debit ? 'bad' : 'good',
    };
  }
  if (group === 'bounty' && (event === 'earned' || event === 'submission_rejected')) {
    // A bounty's reward (a commission of kind `bounty`) or proof staff did not accept (docs/bounties.md).
    const commissionId = id('commissionId');
    const values = { amount: money(p.amount), campaign, bounty: pickName(p.bounty, locale) ?? '—' };
    return {
      title: t(`notifications.bounty.${event}.title`, values),
      body: t(`notifications.bounty.${event}.body`, values),
      details,
      target: event === 'earned' && commissionId ? `/commissions/${commissionId}` : null,
      group: 'commission',
      tone: event === 'earned' ? 'good' : 'bad',
    };
  }
  if (group === 'staff' && event !== undefined) {
    const staff = describeStaff(event, p, t, money);
    if (staff) return staff;
  }
  // A type this version of the app does not know yet (a newer server): say something honest.
  return { title: t('notifications.unknown.title'), body: t('notifications.unknown.body'), details, target: null, group: 'other', tone: 'info' };
}
