/** Profile rules that need more than a query: changing the password. */
import { checkPassword, type Sealed } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/crypto/password';

export async function changePassword(ctx: AppContext, { userId, ip }: Actor, sessionId: string, current: Sealed, next: Sealed) {
  const currentPassword = await ctx.seals.open(current, 'current');
  const nextPassword = await ctx.seals.open(next, 'next');
  const row = await ctx.db.selectFrom('users').select(['account', 'password_hash']).where('id', '=', userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(currentPassword, row.password_hash))) throw new AppError('INVALID_CREDENTIALS', { current: 'mismatch' });
  const problem = checkPassword(nextPassword, row.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { next: problem });
  const hash = await hashPassword(nextPassword);
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', userId).execute();
    // Every other device must sign in again with the new password.
    await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('id', '!=', sessionId).where('revoked_at', 'is', null).execute();
    await audit(trx, { actorId: userId, action: 'user.password_change', entity: 'user', entityId: userId, ip });
  });
}

