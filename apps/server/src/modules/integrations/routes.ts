import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CampaignIdParamsSchema, SnippetInfoSchema, StripeReceiptSchema, StripeSecretSchema, StripeStatusSchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses, PUBLIC, STRIPE_SIGNATURE } from '../../platform/openapi';
import { adminOnly, staffOnly } from '../../platform/session';
import { snippet } from './snippet';
import { receiveStripe, setStripeSecret, stripeStatus } from './stripe';

/**
 * `GET /pa.js`, the landing-page snippet, for merchants' pages on other sites: outside the site's
 * context (no session, no page headers that would keep another origin from loading it).
 */
export function snippetRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/pa.js', {
      logLevel: 'warn',
      schema: {
        security: PUBLIC,
        tags: ['integrations'],
        summary: 'The landing-page snippet: keeps pa_click in a first-party cookie (docs/integrations.md)',
        querystring: z.object({ v: z.string().max(64).optional() }),
      },
    }, async (request, reply) => {
      const { source, gzip, version } = snippet();
      const etag = `"${version}"`;
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', request.query.v === version ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
        .header('etag', etag)
        .header('vary', 'accept-encoding')
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(gzip);
      return reply.send(source);
    });
  };
}

/**
 * What the console's copy-paste block needs (the snippet's version, for its cacheable address);
 * a campaign's Stripe receiver: its secret (admins), its events (staff), and the receiver itself.
 */
export function integrationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.put('/api/admin/integrations/stripe/:campaignId', {
      preValidation: adminOnly,
      schema: { tags: ['integrations'], summary: "Set the campaign's Stripe signing secret (stored sealed, never shown again; audited)", params: CampaignIdParamsSchema, body: StripeSecretSchema, response: { 200: StripeStatusSchema, ...errorResponses } },
    }, async (request) => setStripeSecret(ctx, actorOf(request), request.params.campaignId, request.body));

    app.get('/api/admin/integrations/stripe/:campaignId', {
      preValidation: staffOnly,
      schema: { tags: ['integrations'], summary: "Whether the campaign takes Stripe events, and the latest 50 with what came of each", params: CampaignIdParamsSchema, response: { 200: StripeStatusSchema, ...errorResponses } },
    }, async (request) => stripeStatus(ctx, request.params.campaignId));

    app.post('/api/v1/integrations/stripe/:campaignId', {
      // Unstorable characters in an event are refused by receiveStripe once it is verified.
      config: { checksBodyItself: true },
      schema: {
        security: STRIPE_SIGNATURE,
        tags: ['integrations'],
        summary: "Stripe's webhook events for a campaign: checkout.session.completed, invoice.paid, charge.refunded, customer.subscription.deleted (others acknowledged and ignored)",
        description: 'Verified with the signing secret set for the campaign (Stripe-Signature, 5 minutes of tolerance; any of several v1 may match); idempotent on the event id, except that a refund or payment link kept as ignored: sale_unknown waits for its sale and is acted on again when it is sent again. docs/integrations.md.',
        params: CampaignIdParamsSchema,
        response: { 200: StripeReceiptSchema, ...errorResponses },
      },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const signature = request.headers['stripe-signature'];
      const { replayed, event } = await receiveStripe(ctx, request.params.campaignId, request.rawBody, Array.isArray(signature) ? signature.join(',') : signature, request.body);
      return { received: true as const, replayed, event };
    });

    app.get('/api/admin/integrations/snippet', {
      preValidation: staffOnly,
      schema: { tags: ['integrations'], summary: "The landing-page snippet's version and size", response: { 200: SnippetInfoSchema, ...errorResponses } },
    }, async () => {
      const { source, gzip, version } = snippet();
      return { version, bytes: source.length, gzipBytes: gzip.length };
    });
  };
}
