/**
 * A phone account's e-mail address (issue 28): the person asks for an address to be added; a link
 * is mailed to it (only the token's SHA-256 is stored; single use; 24 hours; a new request ends
 * the earlier link); opening it makes it their verified address — from then on their mails and
 * forgot-password links go there (platform/mail/outbox.ts `mailAddressOf`). The address counts
 * only once verified, and belongs to one person: nobody else's account or verified address.
 */
import { createHash, randomBytes } from 'node:crypto';
import { accountKind, isLocale, type EmailPending, type VerifyEmailResult } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { mailAddress } from '../../platform/mail/outbox';
import { isUniqueViolation } from '../users/repository';
import { emailTaken, expireOpenVerifications, findAddresses, insertVerification, setVerifiedEmail, useVerification } from './repository';

const EMAIL_LINK_TTL_MS = 24 * 60 * 60_000;

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The web app's page that takes the token (hash route). */
const verifyEmailPath = (token: string) => `/verify-email?token=${encodeURIComponent(token)}`;

/**
 * Mails a verification link to `email` for a phone account. MAIL_DISABLED without SMTP; an
 * e-mail account → `fields.email: not_allowed` (its account is its address); an address that is
 * already theirs, or anyone else's → ACCOUNT_EXISTS (`fields.email: taken`). Audited.
 */
export async function requestEmailVerification(ctx: AppContext, { userId, ip }: Actor, email: string, now = Date.now()): Promise<EmailPending> {
  if (!ctx.mail.enabled) throw new AppError('MAIL_DISABLED');
  const me = await findAddresses(ctx.db, userId);
  if (accountKind(me.account) === 'email') throw new AppError('VALIDATION_FAILED', { email: 'not_allowed' });
  if (me.email === email || (await emailTaken(ctx.db, email, userId))) throw new AppError('ACCOUNT_EXISTS', { email: 'taken' });
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + EMAIL_LINK_TTL_MS;
  await ctx.uow.run(async (tx) => {
    await expireOpenVerifications(tx.q, userId, now);
    await insertVerification(tx.q, { id: newId(now), user_id: userId, email, token_hash: digestOf(token), created_at: now, expires_at: expiresAt });
    // To the new address (not yet theirs, so not through mailUser), in their language.
    mailAddress(ctx.mail, tx, { address: email, userId, locale: isLocale(me.locale) ? me.locale : 'en' }, { template: 'verify_email', params: { name: me.display_name }, path: verifyEmailPath(token) });
    await audit(tx.q, { actorId: userId, action: 'user.email_requested', entity: 'user', entityId: userId, after: { email }, ip }, now);
  });
  return { ok: true, email, expiresAt };
}

/**
 * Uses a verification link (no session needed: it may be opened in another browser). A used,
 * expired or unknown one → RESET_TOKEN_INVALID; an address someone else took meanwhile →
 * ACCOUNT_EXISTS (the link stays unused). Sets the address, ends the person's other open links,
 * audited with the person as the actor.
 */
export async function verifyEmail(ctx: AppContext, token: string, ip: string | null): Promise<VerifyEmailResult> {
  return ctx.uow.run(async ({ q }) => {
    const now = Date.now();
    const used = await useVerification(q, digestOf(token), now);
    if (!used) throw new AppError('RESET_TOKEN_INVALID');
    if (await emailTaken(q, used.email, used.user_id)) throw new AppError('ACCOUNT_EXISTS', { email: 'taken' });
    await setVerifiedEmail(q, used.user_id, used.email, now).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('ACCOUNT_EXISTS', { email: 'taken' });
      throw error;
    });
    await expireOpenVerifications(q, used.user_id, now);
    await audit(q, { actorId: used.user_id, action: 'user.email_verified', entity: 'user', entityId: used.user_id, after: { email: used.email }, ip }, now);
    return { ok: true as const, email: used.email };
  });
}
