import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  LeaderboardQuerySchema, LeaderboardSchema, StatsBreakdownQuerySchema, StatsBreakdownSchema, StatsOverviewSchema, StatsRangeQuerySchema,
  StatsSummarySchema, StatsTimeseriesQuerySchema, StatsTimeseriesSchema, TeamQuerySchema, TeamSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { requestLocale } from '../../platform/errors';
import { walletOf } from '../../platform/ledger';
import { errorResponses } from '../../platform/openapi';
import { authenticated, requireAuth } from '../../platform/session';
import { readSettings } from '../../platform/settings';
import { breakdown, leaderboard, overview, summary, team, timeseries } from './service';

/** The signed-in user's own figures, team and leaderboard (staff have no figures of their own: zeros). */
export function statsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(async (scope) => {
      const r = scope.withTypeProvider<ZodTypeProvider>();
      r.addHook('preValidation', authenticated);
      const currency = async () => (await readSettings(ctx.db)).currency;

      r.get('/api/stats/summary', {
        schema: { tags: ['stats'], summary: 'My figures for a range, with the previous period', querystring: StatsRangeQuerySchema, response: { 200: StatsSummarySchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [result, c] = await Promise.all([summary(ctx, auth.userId, request.query), currency()]);
        return { currency: c, ...result };
      });

      r.get('/api/stats/timeseries', {
        schema: { tags: ['stats'], summary: 'One of my figures per day', querystring: StatsTimeseriesQuerySchema, response: { 200: StatsTimeseriesSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [result, c] = await Promise.all([timeseries(ctx, auth.userId, request.query), currency()]);
        return { currency: c, ...result };
      });

      r.get('/api/stats/breakdown', {
        schema: { tags: ['stats'], summary: 'My figures by campaign, link or channel', querystring: StatsBreakdownQuerySchema, response: { 200: StatsBreakdownSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [result, c] = await Promise.all([breakdown(ctx, auth.userId, request.query, requestLocale(request)), currency()]);
        return { currency: c, ...result };
      });

      r.get('/api/stats/overview', {
        schema: { tags: ['stats'], summary: 'Home in one call: balances, figures with the previous period, daily series, top links', querystring: StatsRangeQuerySchema, response: { 200: StatsOverviewSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [result, wallet, c] = await Promise.all([overview(ctx, auth.userId, request.query, requestLocale(request)), walletOf(ctx.db, auth.userId), currency()]);
        return {
          currency: c,
          wallet: { available: wallet.available, pending: wallet.pending, withdrawing: wallet.withdrawing + wallet.payable, paidOut: wallet.paid_out },
          ...result,
          generatedAt: Date.now(),
        };
      });

      r.get('/api/team', {
        schema: { tags: ['stats'], summary: 'My team: invite code, counts, figures, direct members (masked) with the override each earned me', querystring: TeamQuerySchema, response: { 200: TeamSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const [result, me, c] = await Promise.all([
          team(ctx, auth.userId, request.query),
          ctx.db.selectFrom('users').select('invite_code').where('id', '=', auth.userId).executeTakeFirstOrThrow(),
          currency(),
        ]);
        return { currency: c, inviteCode: me.invite_code, ...result };
      });

      r.get('/api/leaderboard', {
        schema: { tags: ['stats'], summary: 'This week’s or month’s ranking by earnings or conversions (names masked)', querystring: LeaderboardQuerySchema, response: { 200: LeaderboardSchema, ...errorResponses } },
      }, async (request) => {
        const auth = requireAuth(request);
        const { period, by } = request.query;
        const settings = await readSettings(ctx.db);
        if (!settings.leaderboardEnabled) {
          return { enabled: false, currency: settings.currency, period, by, from: '', to: '', updatedAt: Date.now(), entries: [], me: { rank: null, value: 0, optedOut: false } };
        }
        return { enabled: true, currency: settings.currency, period, by, ...(await leaderboard(ctx, auth.userId, period, by)) };
      });
    });
  };
}
