import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdParamsSchema, OkSchema, WebhookDeliveryEnvelopeSchema, WebhookDeliveryListSchema, WebhookDeliveryQuerySchema, WebhookEndpointCreatedSchema, WebhookEndpointCreateSchema,
  WebhookEndpointEnvelopeSchema, WebhookEndpointListSchema, WebhookEndpointPatchSchema,
} from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { requestLocale } from '../../platform/errors';
import { errorResponses } from '../../platform/openapi';
import { adminOnly } from '../../platform/session';
import { createEndpoint, deleteEndpoint, deliveries, endpoints, retryDelivery, rotateSecret, sendTest, updateEndpoint } from './service';

/** Webhook endpoints (admins): registered with their events, the secret shown once; deliveries logged. */
export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/admin/webhooks', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Webhook endpoints (never their secrets)', response: { 200: WebhookEndpointListSchema, ...errorResponses } },
    }, async () => ({ items: await endpoints(ctx) }));

    app.post('/api/admin/webhooks', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Register an endpoint; its signing secret is in this answer only', body: WebhookEndpointCreateSchema, response: { 201: WebhookEndpointCreatedSchema, ...errorResponses } },
    }, async (request, reply) => {
      const created = await createEndpoint(ctx, actorOf(request), request.body);
      reply.header('cache-control', 'no-store');
      return reply.status(201).send(created);
    });

    app.patch('/api/admin/webhooks/:id', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Change an endpoint: address, events, description, enabled or disabled', params: IdParamsSchema, body: WebhookEndpointPatchSchema, response: { 200: WebhookEndpointEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ endpoint: await updateEndpoint(ctx, actorOf(request), request.params.id, request.body) }));

    app.post('/api/admin/webhooks/:id/rotate-secret', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'A new signing secret (in this answer only); the previous one still signs for 24 h', params: IdParamsSchema, response: { 200: WebhookEndpointCreatedSchema, ...errorResponses } },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return rotateSecret(ctx, actorOf(request), request.params.id);
    });

    app.post('/api/admin/webhooks/deliveries/:id/retry', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Send a delivery that has ended again, now', params: IdParamsSchema, response: { 202: WebhookDeliveryEnvelopeSchema, ...errorResponses } },
    }, async (request, reply) => reply.status(202).send(await retryDelivery(ctx, actorOf(request), request.params.id)));

    app.delete('/api/admin/webhooks/:id', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Delete an endpoint and its delivery log', params: IdParamsSchema, response: { 200: OkSchema, ...errorResponses } },
    }, async (request) => {
      await deleteEndpoint(ctx, actorOf(request), request.params.id);
      return { ok: true as const };
    });

    app.post('/api/admin/webhooks/:id/test', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: 'Send a webhook.test event to the endpoint', params: IdParamsSchema, response: { 202: OkSchema, ...errorResponses } },
    }, async (request, reply) => {
      await sendTest(ctx, actorOf(request), request.params.id, requestLocale(request));
      return reply.status(202).send({ ok: true as const });
    });

    app.get('/api/admin/webhooks/:id/deliveries', {
      preValidation: adminOnly,
      schema: { tags: ['webhooks'], summary: "An endpoint's deliveries, newest first, with every attempt", params: IdParamsSchema, querystring: WebhookDeliveryQuerySchema, response: { 200: WebhookDeliveryListSchema, ...errorResponses } },
    }, async (request) => deliveries(ctx, request.params.id, request.query));
  };
}
