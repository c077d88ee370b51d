/** Registration and sign-in rules: invite codes, registration modes, lockout, statuses. */
import { checkPassword, maskName, type Locale, type Sealed, type User } from '@pa/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/types';
import { audit } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { emitEvent } from '../../platform/webhooks/outbox';
import { dummyHash, hashPassword, verifyPassword } from '../../platform/crypto/password';
import { readSettings } from '../../platform/settings';
import { findUserById, insertUser, isUniqueViolation, toUser, type UserRow } from '../users/repository';
import {
  accountExists, clearSignInFailures, countSignInFailures, findAccountOf, findInviter, findSignInCandidate, recordSignInFailure, revokeAllSessions,
  revokeSession, setPasswordHash,
} from './repository';
import { consumePasswordToken, endPasswordLinks, peekPasswordToken } from './password-tokens';
import { alertStaff } from '../staff-alerts/service';
import { checkRegistrationAnswers, holdJoinedGroup, recordAnswers, registrationQuestions } from '../applications/service';
import { screenRegistration } from '../fraud/service';

const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;

export interface RegisterInput {
  account: string;
  displayName: string;
  password: Sealed;
  inviteCode?: string;
  /** The group whose invite link was used (issue 31); else the default group. */
  groupCode?: string;
  /** Answers to the application form: question id → answer. */
  answers?: Record<string, string>;
  locale?: Locale;
}

/** Issues a session for `userId` and sets its cookie, writing through `db` (a transaction, or the database); answers the session's id. */
type OpenSession = (db: Db, userId: string) => Promise<string>;

/**
 * Registers a promoter; one who may sign in at once (no approval needed) is signed in through
 * `open`. `ip`: the client's address, for the audit entry of the registration.
 */
export async function register(ctx: AppContext, input: RegisterInput & { locale: Locale; ip?: string | null }, open: OpenSession): Promise<User> {
  const password = await ctx.seals.open(input.password, 'password');
  const problem = checkPassword(password, input.account);
  if (problem) throw new AppError('VALIDATION_FAILED', { password: problem });

  const settings = await readSettings(ctx.db);
  let parentId: string | null = null;
  if (input.inviteCode) {
    const inviter = await findInviter(ctx.db, input.inviteCode);
    if (!inviter || inviter.status !== 'active') throw new AppError('INVITE_CODE_INVALID', { inviteCode: 'invalid' });
    parentId = inviter.id;
  } else if (settings.registrationMode === 'invite-only' && !input.groupCode) {
    // A group's invite link is an invitation too (by the program itself, so without an inviter).
    throw new AppError('INVITE_CODE_INVALID', { inviteCode: 'required' });
  }
  // The group the link names (else the default) and the questions asked: the registration's in approval mode, the group's.
  const application = await registrationQuestions(ctx.db, { groupCode: input.groupCode, approval: settings.registrationMode === 'approval' });
  const answers = checkRegistrationAnswers(application.questions, input.answers ?? {});

  if (await accountExists(ctx.db, input.account)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });

  const passwordHash = await hashPassword(password);
  const status = settings.registrationMode === 'approval' ? 'pending' : 'active';
  const id = await ctx.uow.run(async (tx) => {
    const trx = tx.q;
    // A concurrent registration of the same account loses on the unique index.
    if (await accountExists(trx, input.account)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
    if (application.groupId) await holdJoinedGroup(trx, ctx.dialect, application.groupId);
    const userId = await insertUser(trx, {
      account: input.account,
      displayName: input.displayName,
      passwordHash,
      role: 'promoter',
      status,
      locale: input.locale,
      parentId,
      ...(application.groupId ? { groupId: application.groupId } : {}),
    }).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ACCOUNT_EXISTS', { account: 'taken' });
      throw error;
    });
    await recordAnswers(trx, userId, answers, Date.now());
    // Fraud rules on the new account (docs/fraud.md): a refusal rolls this transaction back.
    await screenRegistration(ctx, tx, { userId, account: input.account, ip: input.ip ?? null });
    await audit(trx, { actorId: userId, action: 'user.register', entity: 'user', entityId: userId, after: { status, parentId, ...(application.groupId ? { groupId: application.groupId } : {}) }, ip: input.ip ?? null });
    await emitEvent(ctx.webhooks, tx, 'promoter.registered', async () => toUser((await findUserById(trx, userId))!));
    if (status === 'pending') await alertStaff(ctx.mail, tx, { type: 'staff.registration' });
    return userId;
  });
  const row = (await findUserById(ctx.db, id))!;
  if (row.status === 'active') await open(ctx.db, row.id);
  return toUser(row);
}

/**
 * Whose invite a code is, for the register page: the inviter's name masked as on Team (it is
 * asked for by anyone, so it says no more than a member list would). Only codes that would
 * register someone are found: an unknown code or an inactive inviter is NOT_FOUND.
 */
export async function lookUpInvite(ctx: AppContext, inviteCode: string): Promise<{ inviterName: string }> {
  const inviter = await findInviter(ctx.db, inviteCode);
  if (!inviter || inviter.status !== 'active') throw new AppError('NOT_FOUND');
  return { inviterName: maskName(inviter.displayName) };
}

/**
 * Signs in: checks lockout, the password and the account status (recording a failure), then opens
 * the session through `open`.
 */
export async function signIn(ctx: AppContext, account: string, password: Sealed, client: { ip: string; device: string }, open: OpenSession): Promise<User> {
  const row = await authenticate(ctx, account, password);
  await openSignedInSession(ctx, row, client, open);
  return toUser(row);
}

/**
 * Opens the session of someone who just proved their password (`open` issues it and sets the
 * cookie). A staff sign-in is recorded in the audit log with the session it opened and the
 * client's address, in the same transaction; a promoter's is not (PRODUCT.md §7: staff actions).
 */
async function openSignedInSession(ctx: AppContext, user: Pick<UserRow, 'id' | 'role'>, client: { ip: string; device: string }, open: OpenSession): Promise<void> {
  if (user.role === 'promoter') {
    await open(ctx.db, user.id);
    return;
  }
  await ctx.uow.run(async ({ q: trx }) => {
    const sessionId = await open(trx, user.id);
    await audit(trx, { actorId: user.id, action: 'session.sign_in', entity: 'session', entityId: sessionId, after: { device: client.device }, ip: client.ip });
  });
}

/** Ends this session; a staff member's sign-out is audited (once: a second call ends nothing). */
export async function signOut(ctx: AppContext, auth: { userId: string; sessionId: string; role: string }, ip: string): Promise<void> {
  await ctx.uow.run(async ({ q: trx }) => {
    const ended = await revokeSession(trx, auth.sessionId, Date.now());
    if (auth.role !== 'promoter' && ended) await audit(trx, { actorId: auth.userId, action: 'session.sign_out', entity: 'session', entityId: auth.sessionId, ip });
  });
}

/** Ends every session of the user ("sign out everywhere"), audited; answers how many ended. */
export async function signOutEverywhere(ctx: AppContext, userId: string, ip: string): Promise<number> {
  return ctx.uow.run(async ({ q: trx }) => {
    const revoked = await revokeAllSessions(trx, userId, Date.now());
    await audit(trx, { actorId: userId, action: 'session.revoke_all', entity: 'user', entityId: userId, after: { revoked }, ip });
    return revoked;
  });
}

/** Checks lockout, the password and the account status; records failures. */
async function authenticate(ctx: AppContext, account: string, sealed: Sealed): Promise<UserRow> {
  const now = Date.now();
  const failures = await countSignInFailures(ctx.db, account, now - LOCKOUT_WINDOW_MS);
  if (failures >= LOCKOUT_FAILURES) throw new AppError('ACCOUNT_LOCKED', undefined, { 'Retry-After': String(LOCKOUT_WINDOW_MS / 1000) });

  const password = await ctx.seals.open(sealed, 'password');
  const row = await findSignInCandidate(ctx.db, account);
  const ok = await verifyPassword(password, row?.password_hash ?? (await dummyHash()));
  if (!row || !ok) {
    await recordSignInFailure(ctx.db, { id: newId(now), account, at: now });
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (row.status === 'pending') throw new AppError('ACCOUNT_PENDING');
  if (row.status === 'rejected') throw new AppError('ACCOUNT_REJECTED');
  if (row.status === 'suspended') throw new AppError('ACCOUNT_SUSPENDED');
  await clearSignInFailures(ctx.db, account);
  return (await findUserById(ctx.db, row.id))!;
}

/**
 * A one-time link sets the password (a promoter's reset made by staff, a new staff member's
 * invite). The password is checked against the link's account first, so a refused one leaves the
 * link usable; then, in one transaction, the link is used (conditionally: of two simultaneous
 * uses one wins), the password set, every other open link of the person ended (reset or invite), every session of the person revoked, their failed sign-ins
 * forgotten (a lockout ends) and the change audited with the person as the actor.
 */
export async function resetPassword(ctx: AppContext, input: { token: string; password: Sealed; ip: string | null }): Promise<{ account: string }> {
  const password = await ctx.seals.open(input.password, 'password');
  const { userId } = await peekPasswordToken(ctx.db, input.token);
  const account = await findAccountOf(ctx.db, userId);
  if (!account) throw new AppError('RESET_TOKEN_INVALID');
  const problem = checkPassword(password, account);
  if (problem) throw new AppError('VALIDATION_FAILED', { password: problem });
  // scrypt is slow: hashed before the transaction, not inside it.
  const passwordHash = await hashPassword(password);
  await ctx.uow.run(async ({ q: trx }) => {
    const now = Date.now();
    const used = await consumePasswordToken(trx, input.token, now);
    // (The link checked above is the one used: a token names one person.)
    await setPasswordHash(trx, used.userId, passwordHash, now);
    const linksEnded = await endPasswordLinks(trx, used.userId, now);
    const sessionsRevoked = await revokeAllSessions(trx, used.userId, now);
    await clearSignInFailures(trx, account);
    await audit(trx, { actorId: used.userId, action: 'user.password_reset', entity: 'user', entityId: used.userId, after: { purpose: used.purpose, sessionsRevoked, ...(linksEnded > 0 ? { linksEnded } : {}) }, ip: input.ip }, now);
  });
  return { account };
}
