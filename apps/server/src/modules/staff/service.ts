/**
 * Staff and roles (PRODUCT.md §7, issue 14): admins invite operators and admins, who set their
 * own password through a one-time link; roles and statuses change with every session of the
 * changed person revoked; the last active admin is never demoted or suspended (LAST_ADMIN).
 */
import { randomBytes } from 'node:crypto';
import type { Locale, StaffInvite, StaffMember, StaffRole, StaffStatus } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { insertUser, isUniqueViolation } from '../users/repository';
import { issuePasswordToken, passwordLinkPath, passwordLinkUrl } from '../auth/password-tokens';
import { mailUser } from '../../platform/mail/outbox';
import { revokeAllSessions } from '../auth/repository';
import { accountTaken, findStaffMember, findStaffState, listStaff, lockActiveAdmins, UNUSABLE_PASSWORD_PREFIX, updateStaff } from './repository';

export { listStaff };

/*
 * The HTTP side's entry points take the app context (routes do not reach the database); the
 * functions below them take the database, as `npm run admin:create` calls them too.
 */
export const staffMembers = (ctx: AppContext) => listStaff(ctx.db);
export const inviteStaff = (ctx: AppContext, input: Parameters<typeof createStaff>[1], actor: StaffActor) => createStaff(ctx, input, actor);
export const reinviteStaff = (ctx: AppContext, id: string, origin: string, actor: StaffActor) => reinvite(ctx, id, origin, actor);
export const changeStaffMember = (ctx: AppContext, id: string, patch: Parameters<typeof changeStaff>[2], actor: Parameters<typeof changeStaff>[3]) =>
  changeStaff(ctx, id, patch, actor);
/** What the staff changes need: the database to read, the unit of work to write. */
type Writer = Pick<AppContext, 'db' | 'uow' | 'dialect' | 'mail'>;

/** Who acts: an admin with their client address, or the command line (null, no address). */
interface StaffActor {
  userId: string | null;
  ip: string | null;
}

/**
 * Makes an active operator or admin who cannot sign in until they set a password through the
 * invite link returned here (shown once; 30 minutes). ACCOUNT_EXISTS when anyone — staff or
 * promoter — has the account. Used by `POST api/admin/staff` and by `npm run admin:create`.
 */
export async function createStaff(
  app: Writer,
  input: { account: string; displayName: string; role: StaffRole; locale: Locale; origin: string; via?: string },
  actor: StaffActor,
): Promise<StaffInvite> {
  const db = app.db;
  if (await accountTaken(db, input.account)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
  const { userId, token, expiresAt, mailedTo } = await app.uow.run(async (tx) => {
    const trx = tx.q;
    // A concurrent creation of the same account loses on the unique index.
    const id = await insertUser(trx, {
      account: input.account,
      displayName: input.displayName,
      // Not a hash of anything: no password matches it until the invite link sets one.
      passwordHash: `${UNUSABLE_PASSWORD_PREFIX}${randomBytes(16).toString('base64url')}`,
      role: input.role,
      status: 'active',
      locale: input.locale,
      parentId: null,
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
      throw error;
    });
    const link = await issuePasswordToken(trx, { userId: id, purpose: 'invite', createdBy: actor.userId });
    // With e-mail on, the link also goes to the person (an e-mail account); the admin still sees it once, and is told.
    const mailedTo = await mailUser(app.mail, tx, id, { template: 'staff_invite', params: {}, path: passwordLinkPath(link.token) });
    await audit(trx, {
      actorId: actor.userId,
      action: 'staff.create',
      entity: 'user',
      entityId: id,
      after: { account: input.account, displayName: input.displayName, role: input.role, status: 'active', ...(input.via ? { via: input.via } : {}) },
      ip: actor.ip,
    });
    return { userId: id, ...link, mailedTo };
  });
  return { user: (await findStaffMember(db, userId))!, inviteUrl: passwordLinkUrl(input.origin, token), expiresAt, mailedTo };
}

/**
 * A new set-password link for a staff member (the first one expired, or they forgot their
 * password): any link of theirs still open ends. The password itself changes only when it is used.
 */
export async function reinvite(app: Writer, id: string, origin: string, actor: StaffActor): Promise<StaffInvite> {
  const db = app.db;
  const { token, expiresAt, mailedTo } = await app.uow.run(async (tx) => {
    const trx = tx.q;
    if (!(await findStaffState(trx, id))) throw new AppError('NOT_FOUND');
    const link = await issuePasswordToken(trx, { userId: id, purpose: 'invite', createdBy: actor.userId });
    const mailedTo = await mailUser(app.mail, tx, id, { template: 'staff_invite', params: {}, path: passwordLinkPath(link.token) });
    await audit(trx, { actorId: actor.userId, action: 'staff.invite', entity: 'user', entityId: id, after: { expiresAt: link.expiresAt }, ip: actor.ip });
    return { ...link, mailedTo };
  });
  return { user: (await findStaffMember(db, id))!, inviteUrl: passwordLinkUrl(origin, token), expiresAt, mailedTo };
}

/**
 * Sets a staff member's role and/or status. Rules, in order: a promoter or unknown id is
 * NOT_FOUND; an admin cannot suspend themselves (FORBIDDEN: another admin must); the last active
 * admin cannot be demoted or suspended (LAST_ADMIN) — an admin may step down to operator while
 * another active admin remains; an actor who lost admin while this waited for the lock is
 * FORBIDDEN. Nothing to change → the member as is, nothing written. Otherwise the change, every
 * session of the person revoked and an audit entry with before and after, in one transaction.
 */
async function changeStaff(
  app: Writer,
  id: string,
  patch: { role?: StaffRole; status?: StaffStatus },
  actor: StaffActor & { userId: string },
): Promise<StaffMember> {
  const { db, dialect } = app;
  await app.uow.run(async ({ q: trx }) => {
    // Locked first, always in the same order, so concurrent changes queue rather than deadlock.
    const activeAdmins = await lockActiveAdmins(trx, dialect);
    const before = await findStaffState(trx, id);
    if (!before) throw new AppError('NOT_FOUND');
    if (id === actor.userId && patch.status === 'suspended') throw new AppError('FORBIDDEN');
    const after = { role: patch.role ?? before.role, status: patch.status ?? before.status };
    if (after.role === before.role && after.status === before.status) return;
    const wasActiveAdmin = before.role === 'admin' && before.status === 'active';
    const staysActiveAdmin = after.role === 'admin' && after.status === 'active';
    if (wasActiveAdmin && !staysActiveAdmin && activeAdmins.filter((a) => a !== id).length === 0) throw new AppError('LAST_ADMIN');
    if (!activeAdmins.includes(actor.userId)) throw new AppError('FORBIDDEN');
    const now = Date.now();
    await updateStaff(trx, id, after, now);
    await revokeAllSessions(trx, id, now);
    await audit(trx, { actorId: actor.userId, action: 'staff.update', entity: 'user', entityId: id, before, after, ip: actor.ip }, now);
  });
  return (await findStaffMember(db, id))!;
}
