import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  LeaderboardQuerySchema, LeaderboardSchema, StatsBreakdownQuerySchema, StatsBreakdownSchema, StatsOverviewSchema, StatsRangeQuerySchema,
  StatsSummarySchema, StatsTimeseriesQuerySchema, StatsTimeseriesSchema, TeamQuerySchema, TeamSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { breakdown, leaderboard, overview, summary, team, timeseries } from './service';

/** The signed-in user's own figures, team and leaderboard (staff have no figures of their own: zeros). */
export function statsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.addHook('preValidation', authenticated);

      r.get('/api/stats/summary', {
        schema: { tags: ['stats'], summary: 'My figures for a range, with the previous period', querystring: StatsRangeQuerySchema, response: { 200: StatsSummarySchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return summary(ctx, auth.userId, request.query);
      });

      r.get('/api/stats/timeseries', {
        schema: { tags: ['stats'], summary: 'One of my figures per day', querystring: StatsTimeseriesQuerySchema, response: { 200: StatsTimeseriesSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return timeseries(ctx, auth.userId, request.query);
      });

      r.get('/api/stats/breakdown', {
        schema: { tags: ['stats'], summary: 'My figures by campaign, link or channel', querystring: StatsBreakdownQuerySchema, response: { 200: StatsBreakdownSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return breakdown(ctx, auth.userId, request.query, requestLocale(request));
      });

      r.get('/api/stats/overview', {
        schema: { tags: ['stats'], summary: 'Home in one call: balances, figures with the previous period, daily series, top links', querystring: StatsRangeQuerySchema, response: { 200: StatsOverviewSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return overview(ctx, auth.userId, request.query, requestLocale(request));
      });

      r.get('/api/team', {
        schema: { tags: ['stats'], summary: 'My team: invite code, counts, figures, direct members (masked) with the override each earned me', querystring: TeamQuerySchema, response: { 200: TeamSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return team(ctx, auth.userId, request.query);
      });

      r.get('/api/leaderboard', {
        schema: { tags: ['stats'], summary: 'This week’s or month’s ranking by earnings or conversions (names masked)', querystring: LeaderboardQuerySchema, response: { 200: LeaderboardSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        return leaderboard(ctx, auth.userId, request.query.period, request.query.by);
      });
    });
  };
}
