import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminSettingsSchema, AdminUserListSchema, AdminUserQuerySchema, PublicKeySchema, SettingsPatchSchema,
  UserActionParamsSchema, UserEnvelopeSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses } from '../../platform/openapi';
import { requestLocale } from '../../platform/errors';
import { adminOnly, requireAuth, staffOnly } from '../../platform/session';
import { settingsView, updateSettings } from '../settings/service';
import { changeUserStatus, findUsers, rotateKey } from './service';

export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/users', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'Search users', querystring: AdminUserQuerySchema, response: { 200: AdminUserListSchema, ...errorResponses } },
    }, async (request) => findUsers(ctx, request.query, requestLocale(request)));

    app.post('/api/admin/users/:id/:action', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: 'Approve, reject, suspend or reactivate a user', params: UserActionParamsSchema, response: { 200: UserEnvelopeSchema, ...errorResponses } },
    }, async (request) => {
      const auth = requireAuth(request);
      return { user: await changeUserStatus(ctx, { userId: auth.userId, role: auth.role, ip: request.ip }, request.params.id, request.params.action) };
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
    }, async (request) => rotateKey(ctx, actorOf(request)));
  };
}
