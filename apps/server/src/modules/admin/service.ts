/** The console's user management (approve, reject, suspend, reactivate) and key rotation. */
import type { AdminUserList, Locale, PublicKey, Role, User, UserStatus } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { pageOf } from '../../platform/listing';
import { emitEvent } from '../../platform/webhooks/outbox';
import { mailUser } from '../../platform/mail/outbox';
import { findUserById, toUser } from '../users/repository';
import { findUserState, moveUserStatus, revokeSessionsOf, searchUsers } from './repository';
import { answersFor } from '../applications/service';

/** User status transitions (PRODUCT.md §5); anything else is INVALID_STATE_TRANSITION. */
const TRANSITIONS = {
  approve: { from: 'pending', to: 'active' },
  reject: { from: 'pending', to: 'rejected' },
  suspend: { from: 'active', to: 'suspended' },
  reactivate: { from: 'suspended', to: 'active' },
} as const;

export type UserAction = keyof typeof TRANSITIONS;

export async function findUsers(
  ctx: AppContext,
  query: { limit: number; cursor?: string; status?: UserStatus; role?: Role; q?: string },
  locale: Locale,
): Promise<AdminUserList> {
  const { limit, cursor, ...filters } = query;
  const { rows, nextCursor } = pageOf(await searchUsers(ctx.db, filters, { limit, ...(cursor ? { cursor } : {}) }), limit);
  // The registrations queue shows each promoter's group and application answers (issue 31).
  const answers = await answersFor(ctx.db, rows.filter((r) => r.role === 'promoter').map((r) => r.id), locale);
  return {
    items: rows.map((r) => ({
      ...toUser(r),
      inviterId: r.parent_id,
      group: r.role === 'promoter' ? { id: r.group_id, name: r.group_name ?? r.group_id } : null,
      application: answers.get(r.id) ?? [],
    })),
    nextCursor,
  };
}

/**
 * Moves a user's status. Operators manage promoters; only admins act on staff accounts; nobody
 * acts on themselves (FORBIDDEN). A suspension signs the person out everywhere. The change and its
 * audit entry in one transaction.
 */
export async function changeUserStatus(ctx: AppContext, actor: Actor & { role: Role }, id: string, action: UserAction): Promise<User> {
  const { from, to } = TRANSITIONS[action];
  await ctx.uow.run(async (tx) => {
    const trx = tx.q;
    const user = await findUserState(trx, id);
    if (!user) throw new AppError('NOT_FOUND');
    if (user.role !== 'promoter' && actor.role !== 'admin') throw new AppError('FORBIDDEN');
    if (user.id === actor.userId) throw new AppError('FORBIDDEN');
    const now = Date.now();
    if (!(await moveUserStatus(trx, id, from, to, now))) throw new AppError('INVALID_STATE_TRANSITION');
    if (to === 'suspended') await revokeSessionsOf(trx, id, now);
    await audit(trx, { actorId: actor.userId, action: `user.${action}`, entity: 'user', entityId: id, before: { status: user.status }, after: { status: to }, ip: actor.ip });
    const event = user.role !== 'promoter' ? null : action === 'approve' ? 'promoter.approved' : action === 'suspend' ? 'promoter.suspended' : null;
    if (event) await emitEvent(ctx.webhooks, tx, event, async () => toUser((await findUserById(trx, id))!));
    // The promoter hears of the decision on their registration (when they have an e-mail account).
    if (user.role === 'promoter' && (action === 'approve' || action === 'reject')) {
      await mailUser(ctx.mail, tx, id, action === 'approve' ? { template: 'registration_approved', params: {}, path: '/' } : { template: 'registration_rejected', params: {} });
    }
  });
  // A suspended promoter's links stop attributing at once on this instance.
  ctx.links.invalidateWhere((t) => t.promoterId === id);
  return toUser((await findUserById(ctx.db, id))!);
}

/** A new RSA key for sealing secrets (the old one's ciphertexts get ENCRYPTION_INVALID), audited. */
export async function rotateKey(ctx: AppContext, actor: Actor): Promise<PublicKey> {
  const key = await ctx.keyring.rotate();
  await audit(ctx.db, { actorId: actor.userId, action: 'crypto.rotate_key', entity: 'rsa_key', entityId: key.keyId, ip: actor.ip });
  return { keyId: key.keyId, algorithm: 'RSA-OAEP-256' as const, spki: key.spki };
}
