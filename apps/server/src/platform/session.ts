/**
 * Sessions: an httpOnly cookie holding a random token (only its SHA-256 is stored), 30 days
 * sliding, revocable per device; and the readable `pa_csrf` cookie every state-changing browser
 * request repeats in `X-CSRF-Token` (double submit).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import UAParser from 'ua-parser-js';
import type { Role, UserStatus } from '@pa/shared';
import type { MasterKey } from './crypto/master-key';
import type { Db } from '../db/types';
import { AppError } from './errors';
import { newId } from './ids';

/** What sessions need of the app (platform/ never imports the app's own context type). */
interface SessionContext {
  config: { cookieSecure: boolean | 'auto'; cookiePath: string };
  db: Db;
  master: Pick<MasterKey, 'derive'>;
}

export const SESSION_COOKIE = 'pa_session';
const CSRF_COOKIE = 'pa_csrf';
const CSRF_HEADER = 'x-csrf-token';
const SESSION_TTL_MS = 30 * 24 * 3600_000;
const SLIDE_AFTER_MS = 5 * 60_000;

export interface AuthState {
  sessionId: string;
  userId: string;
  role: Role;
  status: UserStatus;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState | null;
  }
  interface FastifyContextConfig {
    /** Counts against the per-address auth request limit. */
    authRateLimit?: boolean;
  }
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

export function describeDevice(userAgent: string | undefined): string {
  if (!userAgent) return 'Unknown device';
  const r = new UAParser(userAgent).getResult();
  const browser = [r.browser.name, r.browser.major].filter(Boolean).join(' ');
  const os = [r.os.name, r.os.version].filter(Boolean).join(' ');
  const device = r.device.model ? `${r.device.vendor ?? ''} ${r.device.model}`.trim() : '';
  return [browser, device || os].filter(Boolean).join(' · ').slice(0, 120) || userAgent.slice(0, 60);
}

function cookieOptions(ctx: SessionContext, request: FastifyRequest) {
  const secure = ctx.config.cookieSecure === 'auto' ? request.protocol === 'https' : ctx.config.cookieSecure;
  return { path: ctx.config.cookiePath, secure, sameSite: 'lax' as const };
}

/**
 * Once signed in, the CSRF token is derived from the session (HMAC of its id with a key derived
 * from the master key), so a token planted in the cookie jar — by a sibling subdomain, say — does
 * not pass for a session it was not made for. Before signing in, a random double-submit token
 * serves sign-in and registration.
 */
function csrfTokenFor(ctx: SessionContext, sessionId: string): string {
  return createHmac('sha256', ctx.master.derive('csrf-v1')).update(sessionId).digest('base64url');
}

function setCsrfCookie(ctx: SessionContext, request: FastifyRequest, reply: FastifyReply, token = randomBytes(24).toString('base64url')) {
  reply.setCookie(CSRF_COOKIE, token, { ...cookieOptions(ctx, request), httpOnly: false, sameSite: 'strict' });
  return token;
}

function sameToken(given: string | undefined, expected: string) {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Creates a session row and sets both cookies (a fresh CSRF token on every sign-in); returns the session's id. */
export async function startSession(ctx: SessionContext, db: Db, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = Date.now();
  const id = newId(now);
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      token_hash: hashToken(token),
      device: describeDevice(request.headers['user-agent']),
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_TTL_MS,
      revoked_at: null,
    })
    .execute();
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(ctx, request), httpOnly: true, maxAge: SESSION_TTL_MS / 1000 });
  setCsrfCookie(ctx, request, reply, csrfTokenFor(ctx, id));
  return id;
}

export function clearSessionCookie(ctx: SessionContext, request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { ...cookieOptions(ctx, request), httpOnly: true });
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** onRequest: CSRF cookie issue and check, then the session. Only for `/api/` (not api/v1). */
export function sessionHook(ctx: SessionContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    request.auth = null;
    if (!request.url.startsWith('/api/') || request.url.startsWith('/api/v1/')) return;
    const csrfCookie = request.cookies[CSRF_COOKIE];
    const header = request.headers[CSRF_HEADER];
    const unsafe = UNSAFE.has(request.method);
    const token = request.cookies[SESSION_COOKIE];
    const now = Date.now();
    const row = token
      ? await ctx.db
          .selectFrom('sessions')
          .innerJoin('users', 'users.id', 'sessions.user_id')
          .select(['sessions.id as sessionId', 'sessions.last_seen_at', 'users.id as userId', 'users.role', 'users.status'])
          .where('sessions.token_hash', '=', hashToken(token))
          .where('sessions.revoked_at', 'is', null)
          .where('sessions.expires_at', '>', now)
          .executeTakeFirst()
      : undefined;
    const session = row && row.status === 'active' ? row : undefined;
    // With a session, the token must be the one derived from it; without, the cookie's (double submit).
    const expected = session ? csrfTokenFor(ctx, session.sessionId) : csrfCookie;
    if (unsafe) {
      if (!expected || !sameToken(typeof header === 'string' ? header : undefined, expected)) throw new AppError('CSRF_INVALID');
    } else if (csrfCookie !== expected || !csrfCookie) {
      // A GET hands out the token that will pass: the session's own, or a fresh pre-session one.
      setCsrfCookie(ctx, request, reply, expected);
    }
    if (!session || !token) return;
    request.auth = { sessionId: session.sessionId, userId: session.userId, role: session.role, status: session.status };
    if (now - session.last_seen_at > SLIDE_AFTER_MS) {
      await ctx.db.updateTable('sessions').set({ last_seen_at: now, expires_at: now + SESSION_TTL_MS }).where('id', '=', session.sessionId).execute();
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(ctx, request), httpOnly: true, maxAge: SESSION_TTL_MS / 1000 });
    }
  };
}

export function requireAuth(request: FastifyRequest): AuthState {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth;
}

export function requireRole(request: FastifyRequest, ...roles: Role[]): AuthState {
  const auth = requireAuth(request);
  if (!roles.includes(auth.role)) throw new AppError('FORBIDDEN');
  return auth;
}

/** Route hooks (used as preValidation, so permissions are checked before the body). */
export const authenticated = async (request: FastifyRequest) => void requireAuth(request);
export const staffOnly = async (request: FastifyRequest) => void requireRole(request, 'operator', 'admin');
export const adminOnly = async (request: FastifyRequest) => void requireRole(request, 'admin');
