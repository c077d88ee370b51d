/** `api/admin/audit` (admins): the log with its filters, and its CSV export. HTTP only: the rules are in service.ts. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditExportQuerySchema, AuditListSchema, AuditQuerySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { sendCsv } from '../../platform/csv';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly } from '../../platform/session';
import { exportAudit, listAudit } from './service';

export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/audit', {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first: actor (a user id or `system`), action (exact, or `area.` for every action of an area), entity type and id, from/to (calendar days in the installation’s time zone, both included)',
        querystring: AuditQuerySchema,
        response: { 200: AuditListSchema, ...errorResponses },
      },
    }, async (request) => listAudit(ctx, request.query, requestLocale(request)));

    app.get('/api/admin/audit/export', {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'The filtered audit log as CSV (UTF-8 with BOM, headers in the reader’s language); the export is itself recorded (`audit.export`)',
        querystring: AuditExportQuerySchema,
      },
    }, async (request, reply) => {
      const { csv, filename } = await exportAudit(ctx, actorOf(request), request.query, requestLocale(request));
      return sendCsv(reply, filename, csv);
    });
  };
}
