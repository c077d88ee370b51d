/**
 * The console's promoters: what staff read of a promoter, the export, manual adjustments (admin)
 * and the one-time password links staff make for a promoter.
 *
 * An adjustment is one transaction: the promoter's available balance row is locked (PostgreSQL
 * `FOR UPDATE`; SQLite runs one transaction at a time), the idempotency key is looked up, the
 * balance checked, then the adjustment row, its journal (promoter available ↔ platform:adjustments),
 * the promoter's notification and the audit entry are written together.
 */
import { createHash } from 'node:crypto';
import type { Adjustment, AdminPromoterDetail, AdminPromoterRow, Locale, PromoterAction, PromoterGroupMoved } from '@pa/shared';
import type { AppContext } from '../../context';
import type { AdjustmentsTable } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { csvAmount, csvId } from '@pa/shared/csv';
import { csvOf } from '@pa/shared/texts';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { promoterAccount } from '../../domain/ledger';
import { ledgerPage, lockBalance, postJournal, walletOf } from '../../platform/ledger';
import { pickLocalized } from '../../platform/localized';
import { notify } from '../../platform/notifications';
import { readSettings, zoneOf } from '../../platform/settings';
import { dayKey } from '../../platform/time';
import { toWithdrawal } from '../../platform/withdrawal-view';
import { issuePasswordToken, passwordLinkPath, passwordLinkUrl } from '../auth/password-tokens';
import { mailUser } from '../../platform/mail/outbox';
import { isUniqueViolation } from '../users/repository';
import { answersFor } from '../applications/service';
import {
  allPromoters, commissionsPage, countDirectMembers, findAdjustmentByKey, findPromoter, groupsOfPromoters, holdGroup, insertAdjustment, linksPage, listPromoters,
  payoutAccountsPage, sessionsPage, setPromoterGroup, withdrawalsPage, type PromoterFilters, type PromoterListRow,
} from './repository';

/** The status moves of PRODUCT.md §5 that apply from each status (the users module performs them). */
const ACTIONS: Record<AdminPromoterDetail['promoter']['status'], PromoterAction[]> = {
  pending: ['approve', 'reject'],
  active: ['suspend'],
  suspended: ['reactivate'],
  rejected: [],
};

export async function promoterDetail(ctx: AppContext, id: string, locale: Locale): Promise<AdminPromoterDetail> {
  const row = await findPromoter(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  const [teamSize, wallet, settings, answers] = await Promise.all([countDirectMembers(ctx.db, id), walletOf(ctx.db, id), readSettings(ctx.db), answersFor(ctx.db, [id], locale)]);
  return {
    promoter: {
      id: row.id,
      displayName: row.display_name,
      account: row.account,
      status: row.status,
      locale: row.locale as AdminPromoterDetail['promoter']['locale'],
      inviteCode: row.invite_code,
      leaderboardOptOut: Number(row.leaderboard_opt_out) === 1,
      createdAt: Number(row.created_at),
    },
    actions: ACTIONS[row.status],
    inviter: row.inviter_id ? { id: row.inviter_id, displayName: row.inviter_name ?? '', account: row.inviter_account ?? '' } : null,
    group: { id: row.group_id, name: row.group_name ?? row.group_id },
    application: answers.get(id) ?? [],
    teamSize,
    currency: settings.currency,
    wallet: { pending: wallet.pending, available: wallet.available, withdrawing: wallet.withdrawing + wallet.payable, paidOut: wallet.paid_out },
  };
}

/** Staff read a promoter's tabs only for promoters (an unknown id, or a staff member's, is NOT_FOUND). */
async function requirePromoter(ctx: AppContext, id: string): Promise<void> {
  if (!(await findPromoter(ctx.db, id))) throw new AppError('NOT_FOUND');
}

const toRow = (r: PromoterListRow): AdminPromoterRow => ({
  id: r.id,
  displayName: r.display_name,
  account: r.account,
  status: r.status,
  inviteCode: r.invite_code,
  createdAt: Number(r.created_at),
  inviter: r.inviter_id ? { id: r.inviter_id, displayName: r.inviter_name ?? '', account: r.inviter_account ?? '' } : null,
  group: { id: r.group_id, name: r.group_name ?? r.group_id },
  available: Number(r.available),
  pending: Number(r.pending),
});

/** The console's promoter search: a page of rows and the currency their balances are in. */
export async function findPromoters(ctx: AppContext, filters: PromoterFilters, page: TabPage) {
  const [{ rows, nextCursor }, settings] = await Promise.all([listPromoters(ctx.db, filters, page), readSettings(ctx.db)]);
  return { items: rows.map(toRow), nextCursor, currency: settings.currency };
}

type TabPage = { limit: number; cursor?: string | undefined };

/** The promoter page's tabs: each reads a page from the repository and answers it in API terms. */
const TABS = {
  ledger: (ctx: AppContext, id: string, page: TabPage) => ledgerPage(ctx.db, id, page),
  commissions: async (ctx: AppContext, id: string, page: TabPage, locale: string) => {
    const { rows, nextCursor } = await commissionsPage(ctx.db, id, page);
    return {
      items: rows.map((r) => ({
        id: r.id, campaignId: r.campaign_id, campaignName: pickLocalized(r.names_json, locale), level: Number(r.level), kind: r.kind,
        amount: Number(r.amount), reversedAmount: Number(r.reversed_amount), status: r.status, createdAt: Number(r.created_at), availableAt: Number(r.available_at),
      })),
      nextCursor,
    };
  },
  withdrawals: async (ctx: AppContext, id: string, page: TabPage) => {
    const { rows, nextCursor } = await withdrawalsPage(ctx.db, id, page);
    return { items: rows.map(toWithdrawal), nextCursor };
  },
  links: async (ctx: AppContext, id: string, page: TabPage, locale: string) => {
    const { rows, nextCursor } = await linksPage(ctx.db, id, page);
    return {
      items: rows.map((r) => ({
        id: r.id, code: r.code, campaignId: r.campaign_id, campaignName: pickLocalized(r.names_json, locale), label: r.label, channel: r.channel,
        status: r.status, isDefault: Number(r.is_default) === 1, createdAt: Number(r.created_at),
      })),
      nextCursor,
    };
  },
  payoutAccounts: async (ctx: AppContext, id: string, page: TabPage) => {
    const { rows, nextCursor } = await payoutAccountsPage(ctx.db, id, page);
    return { items: rows.map((r) => ({ id: r.id, method: r.method, holderName: r.holder_name, last4: r.last4, isDefault: Number(r.is_default) === 1, createdAt: Number(r.created_at) })), nextCursor };
  },
  sessions: async (ctx: AppContext, id: string, page: TabPage) => {
    const { rows, nextCursor } = await sessionsPage(ctx.db, id, page, Date.now());
    return { items: rows.map((r) => ({ id: r.id, device: r.device, createdAt: Number(r.created_at), lastSeenAt: Number(r.last_seen_at), expiresAt: Number(r.expires_at) })), nextCursor };
  },
};

/** One tab of a promoter's page; NOT_FOUND for an unknown id or a staff member's. */
export async function promoterTab<T extends keyof typeof TABS>(ctx: AppContext, id: string, tab: T, page: TabPage, locale: string): Promise<Awaited<ReturnType<(typeof TABS)[T]>>> {
  await requirePromoter(ctx, id);
  return (await TABS[tab](ctx, id, page, locale)) as Awaited<ReturnType<(typeof TABS)[T]>>;
}

export const EXPORT_CAP = 50_000;

/** The export as CSV, with the audit entry saying who exported what (filters and count, no personal data). */
export async function exportPromoters(ctx: AppContext, actorId: string, filters: PromoterFilters, ip: string): Promise<{ csv: string; filename: string }> {
  const [rows, settings] = await Promise.all([allPromoters(ctx.db, filters, EXPORT_CAP), readSettings(ctx.db)]);
  await audit(ctx.db, { actorId, action: 'promoter.export', entity: 'promoter', after: { filters, count: rows.length }, ip });
  const { currency } = settings;
  const csv = csvOf('promoters', rows.map((r) => ({
    promoter_id: csvId(r.id),
    account: csvId(r.account),
    display_name: r.display_name,
    status: r.status,
    group: r.group_name ?? r.group_id,
    invite_code: csvId(r.invite_code),
    created_at: new Date(Number(r.created_at)).toISOString(),
    inviter_account: csvId(r.inviter_account),
    available: csvAmount(Number(r.available), currency),
    pending: csvAmount(Number(r.pending), currency),
    currency,
  })));
  return { csv, filename: `promoters-${dayKey(Date.now(), zoneOf(ctx))}.csv` };
}

interface AdjustmentInput {
  promoterId: string;
  actorId: string;
  amount: number;
  reason: string;
  allowNegative: boolean;
  idempotencyKey: string;
  ip: string;
}

interface AdjustmentOutcome {
  adjustment: Adjustment;
  /** The available balance after the adjustment (now, for a replay). */
  available: number;
  replayed: boolean;
}

const toAdjustment = (r: AdjustmentsTable): Adjustment => ({
  id: r.id,
  promoterId: r.promoter_id,
  amount: Number(r.amount),
  currency: r.currency,
  reason: r.reason,
  allowNegative: Number(r.allow_negative) === 1,
  journalId: r.journal_id,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
});

const requestHashOf = (input: Pick<AdjustmentInput, 'amount' | 'reason' | 'allowNegative'>) =>
  createHash('sha256').update(JSON.stringify({ amount: input.amount, reason: input.reason, allowNegative: input.allowNegative })).digest('hex');

/**
 * Credits (amount > 0) or debits (amount < 0) the promoter's available balance, once per
 * idempotency key: the same key and body again answers the first adjustment; the same key with
 * another body is IDEMPOTENCY_CONFLICT. A debit below zero is INSUFFICIENT_BALANCE unless
 * `allowNegative`.
 */
export async function adjustBalance(ctx: AppContext, input: AdjustmentInput): Promise<AdjustmentOutcome> {
  if (!Number.isSafeInteger(input.amount) || input.amount === 0) throw new AppError('VALIDATION_FAILED', { amount: 'invalid' });
  const requestHash = requestHashOf(input);
  const account = promoterAccount(input.promoterId, 'available');
  const replay = (first: AdjustmentsTable, available: number): AdjustmentOutcome => {
    if (first.request_hash !== requestHash) throw new AppError('IDEMPOTENCY_CONFLICT');
    return { adjustment: toAdjustment(first), available, replayed: true };
  };
  try {
    return await ctx.uow.run(async ({ q: trx }) => {
      const promoter = await findPromoter(trx, input.promoterId);
      if (!promoter) throw new AppError('NOT_FOUND');
      const available = await lockBalance(trx, account, ctx.dialect);
      const first = await findAdjustmentByKey(trx, input.promoterId, input.idempotencyKey);
      if (first) return replay(first, available);
      if (input.amount < 0 && available + input.amount < 0 && !input.allowNegative) throw new AppError('INSUFFICIENT_BALANCE');

      const now = Date.now();
      const id = newId(now);
      const { currency } = await readSettings(trx);
      const journalId = await postJournal(trx, {
        kind: 'adjustment',
        refType: 'adjustment',
        refId: id,
        promoterId: input.promoterId,
        memo: { adjustmentId: id, amount: input.amount, reason: input.reason },
        entries: [{ account, amount: input.amount }, { account: 'platform:adjustments', amount: -input.amount }],
        at: now,
      });
      const row: AdjustmentsTable = {
        id,
        promoter_id: input.promoterId,
        amount: input.amount,
        currency,
        reason: input.reason,
        allow_negative: input.allowNegative ? 1 : 0,
        idempotency_key: input.idempotencyKey,
        request_hash: requestHash,
        journal_id: journalId,
        created_by: input.actorId,
        created_at: now,
      };
      await insertAdjustment(trx, row);
      await notify(trx, [{ userId: input.promoterId, type: 'adjustment', params: { adjustmentId: id, amount: input.amount, reason: input.reason } }], now);
      await audit(trx, {
        actorId: input.actorId,
        action: 'promoter.adjust',
        entity: 'user',
        entityId: input.promoterId,
        before: { available },
        after: { available: available + input.amount, adjustmentId: id, amount: input.amount, reason: input.reason, allowNegative: input.allowNegative },
        ip: input.ip,
      }, now);
      return { adjustment: toAdjustment(row), available: available + input.amount, replayed: false };
    });
  } catch (error) {
    // A safety net (the balance lock serializes requests with one key): a racing twin that got in first.
    if (isUniqueViolation(error)) {
      const first = await findAdjustmentByKey(ctx.db, input.promoterId, input.idempotencyKey);
      if (first) return replay(first, (await walletOf(ctx.db, input.promoterId)).available);
    }
    throw error;
  }
}

/** A one-time link for the promoter to set a new password (30 minutes, single use); the token is never stored or audited. */
export async function makeResetLink(ctx: AppContext, input: { promoterId: string; actorId: string; origin: string; ip: string }): Promise<{ url: string; expiresAt: number; mailedTo: string | null }> {
  return ctx.uow.run(async (tx) => {
    const trx = tx.q;
    if (!(await findPromoter(trx, input.promoterId))) throw new AppError('NOT_FOUND');
    const { token, expiresAt } = await issuePasswordToken(trx, { userId: input.promoterId, purpose: 'reset', createdBy: input.actorId });
    // With e-mail on, the link also goes to the promoter (an e-mail account); staff still see it once, and are told.
    const mailedTo = await mailUser(ctx.mail, tx, input.promoterId, { template: 'password_reset', params: {}, path: passwordLinkPath(token) });
    await audit(trx, { actorId: input.actorId, action: 'user.password_reset_link', entity: 'user', entityId: input.promoterId, after: { expiresAt }, ip: input.ip });
    return { url: passwordLinkUrl(input.origin, token), expiresAt, mailedTo };
  });
}

/**
 * Moves promoters into a group (issue 31): all of them or none — an id that is not a promoter's is
 * `promoterIds.<i>: not_found`, an unknown group `groupId: not_found`. The group is held (not
 * deleted meanwhile); one `promoter.group` entry per promoter whose group changed, in the same
 * transaction. Those already in it are counted as unchanged.
 */
export async function movePromoters(ctx: AppContext, actor: Actor, promoterIds: string[], groupId: string): Promise<PromoterGroupMoved> {
  const ids = [...new Set(promoterIds)];
  return ctx.uow.run(async ({ q: trx }) => {
    const group = await holdGroup(trx, ctx.dialect, groupId);
    if (!group) throw new AppError('VALIDATION_FAILED', { groupId: 'not_found' });
    const current = await groupsOfPromoters(trx, ids);
    const missing = promoterIds.findIndex((id) => !current.has(id));
    if (missing >= 0) throw new AppError('VALIDATION_FAILED', { [`promoterIds.${missing}`]: 'not_found' });
    const moving = ids.filter((id) => current.get(id) !== groupId);
    const now = Date.now();
    await setPromoterGroup(trx, moving, groupId, now);
    for (const id of moving) {
      await audit(trx, { actorId: actor.userId, action: 'promoter.group', entity: 'user', entityId: id, before: { groupId: current.get(id) }, after: { groupId }, ip: actor.ip }, now);
    }
    return { moved: moving.length, unchanged: ids.length - moving.length, groupId };
  });
}

/** `PATCH api/admin/promoters/:id { groupId }`: one promoter into a group; NOT_FOUND for an id that is not a promoter's. */
export async function changePromoter(ctx: AppContext, actor: Actor, id: string, patch: { groupId: string }, locale: Locale): Promise<AdminPromoterDetail> {
  if (!(await findPromoter(ctx.db, id))) throw new AppError('NOT_FOUND');
  await movePromoters(ctx, actor, [id], patch.groupId);
  return promoterDetail(ctx, id, locale);
}
