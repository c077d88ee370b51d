/**
 * One-time password links: a staff member's invitation to set a password, and a password reset
 * made by staff for a promoter. The token (32 random bytes, base64url) is shown once; only its
 * SHA-256 is stored. A link lasts 30 minutes and works once; issuing a new one for the same person
 * ends any earlier one still unused, and so does any change of their password (endPasswordLinks):
 * a link mailed or handed out before the change must not undo it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/types';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { expireOpenPasswordTokens, findOpenPasswordToken, insertPasswordToken, usePasswordToken } from './repository';

export const PASSWORD_LINK_TTL_MS = 30 * 60_000;
type PasswordTokenPurpose = 'reset' | 'invite';

const digestOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The address of the page that takes the token (hash route of the web app). */
export function passwordLinkUrl(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/#/reset-password?token=${encodeURIComponent(token)}`;
}

/** The reset page's route with its token, for mails (the link is PUBLIC_URL + '#' + this). */
export function passwordLinkPath(token: string): string {
  return `/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * The app's address as the staff member making a link sees it, for the links they copy: the page
 * the request came from (a same-host Referer, so an installation behind a proxy under a sub-path
 * such as /promo/ gets links under it), else this request's own scheme and host (TRUST_PROXY
 * decides whether X-Forwarded-Proto/Host count).
 */
export function linkOrigin(request: FastifyRequest): string {
  const own = `${request.protocol}://${request.host}`;
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      const page = new URL(referer);
      if (page.host === request.host && (page.protocol === 'https:' || page.protocol === 'http:')) {
        return `${page.protocol}//${page.host}${page.pathname.replace(/[^/]*$/, '')}`;
      }
    } catch {
      // Not a URL: use the request's own address.
    }
  }
  return own;
}

/**
 * Ends every open reset and invitation link of `userId`; call inside the transaction that changes
 * their password (by a link, or from Me with the current password). Answers how many ended.
 */
export async function endPasswordLinks(db: Db, userId: string, now = Date.now()): Promise<number> {
  return expireOpenPasswordTokens(db, userId, now);
}

/** Makes a link for `userId`; call inside the transaction that audits it. */
export async function issuePasswordToken(
  db: Db,
  input: { userId: string; purpose: PasswordTokenPurpose; createdBy: string | null },
  now = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + PASSWORD_LINK_TTL_MS;
  await expireOpenPasswordTokens(db, input.userId, now);
  await insertPasswordToken(db, {
    id: newId(now),
    user_id: input.userId,
    token_hash: digestOf(token),
    purpose: input.purpose,
    created_by: input.createdBy,
    created_at: now,
    expires_at: expiresAt,
    used_at: null,
  });
  return { token, expiresAt };
}

/**
 * Uses a token once (a conditional update, so two requests with the same token cannot both
 * succeed); a used, expired or unknown one is RESET_TOKEN_INVALID. Call inside the transaction
 * that sets the password.
 */
export async function consumePasswordToken(db: Db, token: string, now = Date.now()): Promise<{ userId: string; purpose: PasswordTokenPurpose }> {
  const used = await usePasswordToken(db, digestOf(token), now);
  if (!used) throw new AppError('RESET_TOKEN_INVALID');
  return { userId: used.user_id, purpose: used.purpose };
}

/**
 * Whose open token this is, without using it (a used, expired or unknown one is
 * RESET_TOKEN_INVALID): to check the new password against the account before the token is spent.
 */
export async function peekPasswordToken(db: Db, token: string, now = Date.now()): Promise<{ userId: string; purpose: PasswordTokenPurpose }> {
  const open = await findOpenPasswordToken(db, digestOf(token), now);
  if (!open) throw new AppError('RESET_TOKEN_INVALID');
  return { userId: open.user_id, purpose: open.purpose };
}
