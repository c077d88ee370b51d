import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminOverviewSchema, OverviewQuerySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { staffOnly } from '../../platform/session';
import { programOverview } from './service';

/** `GET api/admin/overview` (operators and admins): where staff land. */
export function overviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/overview', {
      preValidation: staffOnly,
      schema: { tags: ['admin'], summary: "The program's figures, trend, top campaigns and promoters, liability and work queue", querystring: OverviewQuerySchema, response: { 200: AdminOverviewSchema, ...errorResponses } },
    }, async (request) => programOverview(ctx, request.query, requestLocale(request)));
  };
}
