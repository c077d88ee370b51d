/** The signed-in person's own account: profile, password and signed-in devices. */
import { checkPassword, type MePatch, type Sealed, type SessionInfo, type User } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { foldForSearch } from '../../domain/search';
import { AppError } from '../../platform/errors';
import { hashPassword, verifyPassword } from '../../platform/crypto/password';
import { findUserById, toUser } from '../users/repository';
import { endPasswordLinks } from '../auth/password-tokens';
import { findCredentials, findProfile, listOpenSessions, revokeOtherSessions, revokeOwnSession, setPasswordHash, updateProfile } from './repository';

/** How many devices the list shows at most. */
const SESSION_LIST_LIMIT = 100;

export async function me(ctx: AppContext, userId: string): Promise<User> {
  return toUser((await findUserById(ctx.db, userId))!);
}

/** Edits the fields given (none given: nothing written); the change and its audit entry in one transaction. */
export async function editProfile(ctx: AppContext, { userId, ip }: Actor, patch: MePatch): Promise<User> {
  const { displayName, locale, leaderboardOptOut } = patch;
  if (displayName !== undefined || locale !== undefined || leaderboardOptOut !== undefined) {
    await ctx.uow.run(async ({ q: trx }) => {
      const row = await findProfile(trx, userId);
      const before = { displayName: row.display_name, locale: row.locale, leaderboardOptOut: Number(row.leaderboard_opt_out) === 1 };
      await updateProfile(trx, userId, {
        ...(displayName !== undefined ? { display_name: displayName, name_folded: foldForSearch(displayName) } : {}),
        ...(locale ? { locale } : {}),
        ...(leaderboardOptOut !== undefined ? { leaderboard_opt_out: leaderboardOptOut ? 1 : 0 } : {}),
      }, Date.now());
      await audit(trx, { actorId: userId, action: 'user.profile_update', entity: 'user', entityId: userId, before, after: { displayName, locale, leaderboardOptOut }, ip });
    });
  }
  return me(ctx, userId);
}

export async function changePassword(ctx: AppContext, { userId, ip }: Actor, sessionId: string, current: Sealed, next: Sealed) {
  const currentPassword = await ctx.seals.open(current, 'current');
  const nextPassword = await ctx.seals.open(next, 'next');
  const row = await findCredentials(ctx.db, userId);
  if (!(await verifyPassword(currentPassword, row.password_hash))) throw new AppError('INVALID_CREDENTIALS', { current: 'mismatch' });
  const problem = checkPassword(nextPassword, row.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { next: problem });
  const hash = await hashPassword(nextPassword);
  const now = Date.now();
  await ctx.uow.run(async ({ q: trx }) => {
    await setPasswordHash(trx, userId, hash, now);
    // Every other device must sign in again with the new password, and a reset or invitation link
    // made before the change (mailed, or handed out by staff) no longer works.
    await revokeOtherSessions(trx, userId, sessionId, now);
    const linksEnded = await endPasswordLinks(trx, userId, now);
    await audit(trx, { actorId: userId, action: 'user.password_change', entity: 'user', entityId: userId, ...(linksEnded > 0 ? { after: { linksEnded } } : {}), ip });
  });
}

/** The devices signed in as the user, the one asking marked `current`. */
export async function mySessions(ctx: AppContext, userId: string, currentSessionId: string): Promise<SessionInfo[]> {
  const rows = await listOpenSessions(ctx.db, userId, Date.now(), SESSION_LIST_LIMIT);
  return rows.map((r) => ({ id: r.id, device: r.device, createdAt: r.created_at, lastSeenAt: r.last_seen_at, current: r.id === currentSessionId }));
}

/** Signs out one of the user's devices, audited; another user's session id looks exactly like an unknown one (NOT_FOUND). */
export async function signOutDevice(ctx: AppContext, { userId, ip }: Actor, sessionId: string): Promise<void> {
  const ended = await ctx.uow.run(async ({ q: trx }) => {
    const revoked = await revokeOwnSession(trx, userId, sessionId, Date.now());
    if (revoked) await audit(trx, { actorId: userId, action: 'session.revoke', entity: 'session', entityId: sessionId, ip });
    return revoked;
  });
  if (!ended) throw new AppError('NOT_FOUND');
}
