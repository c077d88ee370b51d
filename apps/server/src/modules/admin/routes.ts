import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminSettingsSchema, AdminUserListSchema, AdminUserQuerySchema, PublicKeySchema, SettingsPatchSchema,
  UserActionParamsSchema, UserEnvelopeSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { audit } from '../../platform/audit';
import { likePattern, olderThan, pageOf } from '../../platform/listing';
import { AppError } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, requireAuth, staffOnly } from '../../platform/session';
import { settingsView, updateSettings } from '../settings/service';
import { findUserById, selectUsers, toUser } from '../users/repository';

/** User status transitions (PRODUCT.md §5); anything else is INVALID_STATE_TRANSITION. */
const TRANSITIONS = {
  approve: { from: 'pending', to: 'active' },
  reject: { from: 'pending', to: 'rejected' },
  suspend: { from: 'active', to: 'suspended' },
  reactivate: { from: 'suspended', to: 'active' },
} as const;

export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/users', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'Search users', querystring: AdminUserQuerySchema, response: { 200: AdminUserListSchema, ...errorResponses } },
    }, async (request) => {
      const { limit, cursor, status, role, q } = request.query;
      let query = selectUsers(ctx.db).orderBy('users.created_at', 'desc').orderBy('users.id', 'desc').limit(limit + 1);
      if (status) query = query.where('users.status', '=', status);
      if (role) query = query.where('users.role', '=', role);
      if (q) {
        const like = likePattern(q);
        query = query.where((eb) => eb.or([
          eb(eb.fn('lower', ['users.display_name']), 'like', like),
          eb('users.account', 'like', like),
        ]));
      }
      if (cursor) query = query.where(olderThan(cursor, 'users.created_at', 'users.id'));
      const { rows, nextCursor } = pageOf(await query.execute(), limit);
      return { items: rows.map((r) => ({ ...toUser(r), inviterId: r.parent_id })), nextCursor };
    });

    app.post('/api/admin/users/:id/:action', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'Approve, reject, suspend or reactivate a user', params: UserActionParamsSchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const { id, action } = request.params;
      const { from, to } = TRANSITIONS[action];
      await ctx.db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').select(['id', 'role', 'status']).where('id', '=', id).executeTakeFirst();
        if (!user) throw new AppError('NOT_FOUND');
        // Operators manage promoters; only admins act on staff accounts.
        if (user.role !== 'promoter' && auth.role !== 'admin') throw new AppError('FORBIDDEN');
        if (user.id === auth.userId) throw new AppError('FORBIDDEN');
        const now = Date.now();
        const updated = await trx.updateTable('users').set({ status: to, updated_at: now }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError('INVALID_STATE_TRANSITION');
        if (to === 'suspended') {
          await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', id).where('revoked_at', 'is', null).execute();
        }
        await audit(trx, { actorId: auth.userId, action: `user.${action}`, entity: 'user', entityId: id, before: { status: user.status }, after: { status: to }, ip: request.ip });
      });
      // A suspended promoter's links stop attributing at once on this instance.
      ctx.links.invalidateWhere((t) => t.promoterId === id);
      return { user: toUser((await findUserById(ctx.db, id))!) };
    });

    // Operators read the settings too (the currency, the withdrawal limits); only admins change them.
    app.get('/api/admin/settings', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'Installation settings', response: { 200: AdminSettingsSchema, ...errorResponses } },
    }, async () => settingsView(ctx));

    app.patch('/api/admin/settings', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Change installation settings (a new time zone rebuilds the per-day figures)', body: SettingsPatchSchema, response: { 200: AdminSettingsSchema, ...errorResponses } },
    }, async (request) => updateSettings(ctx, { userId: requireAuth(request).userId, ip: request.ip }, request.body));

    app.post('/api/admin/keys/rotate', {
      preValidation: adminOnly,
      schema: { tags: ['admin'], summary: 'Rotate the RSA key clients seal secrets with', response: { 200: PublicKeySchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      const key = await ctx.keyring.rotate();
      await audit(ctx.db, { actorId: auth.userId, action: 'crypto.rotate_key', entity: 'rsa_key', entityId: key.keyId, ip: request.ip });
      return { keyId: key.keyId, algorithm: 'RSA-OAEP-256' as const, spki: key.spki };
    });
  };
}
