/** Builds the Fastify app (plugins, routes). Tests build it too and call inject(); main.ts listens. */
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type onRequestHookHandler, type RouteOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from './context';
import { registerBodyParsers, JSON_BODY_LIMIT } from './platform/body-parser';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling, registerNotFound } from './platform/errors';
import { InFlight } from './platform/in-flight';
import { API_DESCRIPTION, completeDocument, securitySchemes } from './platform/openapi';
import { registerBoundary } from './platform/boundary';
import { registerSecurityHeaders } from './platform/security';
import { hitRateLimit } from './platform/rate-limit';
import { AppError } from './platform/errors';
import { sessionHook } from './platform/session';
import { adminRoutes } from './modules/admin/routes';
import { announcementRoutes } from './modules/announcements/routes';
import { apiKeyRoutes } from './modules/api-keys/routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { mailRoutes } from './modules/mail/routes';
import { authRoutes } from './modules/auth/routes';
import { campaignRoutes } from './modules/campaigns/routes';
import { commissionRoutes } from './modules/commissions/routes';
import { bountyRoutes } from './modules/bounties/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { statsRoutes } from './modules/stats/routes';
import { withdrawalRoutes } from './modules/withdrawals/routes';
import { staffRoutes } from './modules/staff/routes';
import { promoterRoutes } from './modules/promoters/routes';
import { groupRoutes } from './modules/groups/routes';
import { applicationRoutes } from './modules/applications/routes';
import { overviewRoutes } from './modules/overview/routes';
import { auditRoutes } from './modules/audit/routes';
import { linkRoutes, redirectRoutes } from './modules/links/routes';
import { emailVerificationRoutes, meRoutes } from './modules/me/routes';
import { integrationRoutes, snippetRoutes } from './modules/integrations/routes';
import { metricsRoutes, systemRoutes } from './modules/system/routes';
import { recordRequests, unmatchedRecorder } from './platform/request-metrics';
import { webRoutes } from './modules/web/routes';

/** Never log secrets: cookies, tokens, signatures. Bodies are not logged at all. */
export const LOG_REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'req.headers["x-signature"]',
  'res.headers["set-cookie"]',
];

/** How long shutdown waits for requests still being worked on after their connections are gone. */
const IN_FLIGHT_GRACE_MS = 3000;

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * `TRUST_PROXY` as Fastify takes it. A hop count trusts that many proxies nearest the server, the
 * immediate peer first (what the setting has meant since it was added, and Express's meaning);
 * Fastify 5.12 stopped honouring a bare number (it now trusts nobody for one), so it is given as
 * the function it used to compile the number into.
 */
function trustProxyOption(setting: AppContext['config']['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}) {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: false,
    // A path Fastify cannot decode (a bad percent-escape) is answered in our shape, not its own.
    frameworkErrors: frameworkErrorHandler,
    // Slow senders: the whole request (headers and body) must arrive in time (Fastify's default,
    // 0, would leave a slow body open forever); Node checks every second rather than every 30 s.
    requestTimeout: ctx.config.requestTimeoutMs,
    http: { requestTimeout: ctx.config.requestTimeoutMs, headersTimeout: ctx.config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // Unparsable and too-slow requests answered in the catalogue's shape, raw bytes never logged.
    clientErrorHandler,
    // During shutdown a request arriving on a kept-alive connection is still served (with
    // Connection: close) rather than refused with Fastify's own 503 body: the database stays open
    // until every request has been answered.
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);

  registerErrorHandling(app);
  // /metrics served (here or on its own listener): every route's requests counted, from the first.
  const metrics = ctx.config.metrics;
  if (metrics) recordRequests(app, ctx.metrics);
  // Shutdown, in order: Fastify stops accepting and waits for open connections (its own onClose,
  // which runs before this one); then this waits for requests still being worked on whose client
  // has gone, waits for the unit of work's group commits (conversions and clicks) to be written. The caller
  // closes the database after app.close().
  const inFlight = new InFlight();
  app.addHook('onClose', async () => {
    if (!(await inFlight.idle(IN_FLIGHT_GRACE_MS))) app.log.warn({ inFlight: inFlight.size }, 'requests still running at shutdown');
    await ctx.uow.idle();
  });
  registerBodyParsers(app);

  // The OpenAPI description, first: it records every route registered after it, here and below.
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Promotion Assistant API', version: ctx.config.version, description: API_DESCRIPTION },
      servers: [{ url: '/' }],
      components: { securitySchemes },
    },
    transform: jsonSchemaTransform,
    transformObject: (documents) => completeDocument('openapiObject' in documents ? documents.openapiObject : documents.swaggerObject),
  });

  // The tracked redirect, the hottest route, stays out of the site's context below: none of the
  // page headers, cookie, rate-limit or session hooks run for it.
  await app.register(redirectRoutes(ctx));
  // The landing-page snippet is loaded by merchants' pages, also outside the site's context.
  await app.register(snippetRoutes());
  // /metrics, for the monitoring system: here when asked for with its token; with a listener of its
  // own (main.ts) the main one answers 404.
  if (metrics && !metrics.listener) await app.register(metricsRoutes(ctx, metrics.token));

  await app.register(async (site) => {
    await registerSecurityHeaders(site);
    await site.register(fastifyCookie);
    registerNotFound(site, metrics ? unmatchedRecorder(ctx.metrics) : undefined);
    registerBoundary(site);
    // Requests counted in flight for shutdown: every site route. The redirect is left out (its
    // hottest path): it only reads, and a visitor who left before the 302 was acknowledged nothing.
    site.addHook('onRequest', (request, reply, done) => {
      inFlight.enter(reply.raw);
      done();
    });
    site.addHook('onSend', (request, reply, payload, done) => {
      inFlight.handled(reply.raw);
      done(null, payload);
    });

    // Route hooks given only to the routes that need them, rather than global hooks that return
    // at once for the rest.
    // Per-address limit on sign-in style requests, shared by every instance through the database.
    onRequestFor(site, (route) => route.config?.authRateLimit === true, async (request) => {
      const { allowed, retryAfterSeconds } = await hitRateLimit(ctx.db, `auth:${request.ip}`, ctx.config.authRateLimitPerMinute, 60_000);
      if (!allowed) throw new AppError('RATE_LIMITED', undefined, { 'Retry-After': String(retryAfterSeconds) });
    });
    // The session (and the CSRF check) for the browser API; api/v1 is the server-to-server API.
    onRequestFor(site, (route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/v1/'), sessionHook(ctx));

    await site.register(fastifySwaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI sets style attributes from script; only this reference page allows inline styles.
      transformStaticCSP: (header) => header.replace(/style-src [^;]*/, "style-src 'self' 'unsafe-inline'"),
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });

    await site.register(systemRoutes(ctx));
    await site.register(authRoutes(ctx));
    await site.register(meRoutes(ctx));
    await site.register(emailVerificationRoutes(ctx));
    await site.register(adminRoutes(ctx));
    await site.register(campaignRoutes(ctx));
    await site.register(linkRoutes(ctx));
    await site.register(apiKeyRoutes(ctx));
    await site.register(integrationRoutes(ctx));
    await site.register(webhookRoutes(ctx));
    await site.register(mailRoutes(ctx));
    await site.register(commissionRoutes(ctx));
    await site.register(bountyRoutes(ctx));
    await site.register(withdrawalRoutes(ctx));
    await site.register(staffRoutes(ctx));
    await site.register(promoterRoutes(ctx));
    await site.register(groupRoutes(ctx));
    await site.register(applicationRoutes(ctx));
    await site.register(overviewRoutes(ctx));
    await site.register(auditRoutes(ctx));
    await site.register(notificationRoutes(ctx));
    await site.register(statsRoutes(ctx));
    await site.register(announcementRoutes(ctx));
    await webRoutes(site, ctx);
  });
  return app;
}

/**
 * The listener of its own for /metrics (METRICS_HOST/METRICS_PORT, main.ts): that route alone,
 * asking for METRICS_TOKEN only when one is set; anything else is answered 404 in our shape.
 */
export async function buildMetricsApp(ctx: AppContext, options: BuildOptions = {}) {
  const app = Fastify({ logger: options.logger ?? false, requestIdHeader: false, frameworkErrors: frameworkErrorHandler, clientErrorHandler });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerNotFound(app);
  await app.register(metricsRoutes(ctx, ctx.config.metrics?.token ?? null));
  return app;
}

/**
 * Adds `hook` as an onRequest hook of every route registered after this call (in this context and
 * below) for which `applies` holds, ahead of the route's own.
 */
function onRequestFor(app: FastifyInstance, applies: (route: RouteOptions) => boolean, hook: onRequestHookHandler) {
  app.addHook('onRoute', (route) => {
    if (!applies(route)) return;
    const own = route.onRequest;
    route.onRequest = [hook, ...(own ? (Array.isArray(own) ? own : [own]) : [])];
  });
}
