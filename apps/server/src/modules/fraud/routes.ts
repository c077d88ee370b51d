/**
 * `api/admin/fraud/rules` and `api/admin/risk…` (issue 32; docs/fraud.md): the rules' settings
 * (staff read them, admins change them) and the risk queue (staff read it and decide its cases, as they decide
 * commissions). HTTP only: schema in, service call, schema out.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FraudRuleEnvelopeSchema, FraudRuleListSchema, FraudRulePatchSchema, IdParamsSchema, RiskCaseEnvelopeSchema, RiskCaseListSchema, RiskDecisionSchema, RiskQuerySchema } from '@pa/shared';
import type { AppContext } from '../../context';
import { actorOf } from '../../platform/audit';
import { errorResponses } from '../../platform/openapi';
import { adminOnly, staffOnly } from '../../platform/session';
import { dismissCase, rejectCase } from './decisions';
import { fraudRules, riskCases, setFraudRule } from './service';

export function fraudRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['admin'];

    app.get('/api/admin/fraud/rules', {
      preValidation: staffOnly,
      schema: { tags, summary: 'Every fraud rule with its action (off, flag, hold, reject) and parameters; a rule never set has its default (docs/fraud.md)', response: { 200: FraudRuleListSchema, ...errorResponses } },
    }, async () => ({ rules: await fraudRules(ctx) }));

    app.patch('/api/admin/fraud/rules', {
      preValidation: adminOnly,
      schema: { tags, summary: 'Set one rule’s action and, optionally, all its parameters (checked per rule: fields.params invalid); audited fraud.rule', body: FraudRulePatchSchema, response: { 200: FraudRuleEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ rule: await setFraudRule(ctx, actorOf(request), request.body) }));

    app.get('/api/admin/risk', {
      preValidation: staffOnly,
      schema: { tags, summary: 'Risk cases, newest opened first, with their evidence (no raw addresses) and the money at stake', querystring: RiskQuerySchema, response: { 200: RiskCaseListSchema, ...errorResponses } },
    }, async (request) => riskCases(ctx, request.query));

    app.post('/api/admin/risk/:id/dismiss', {
      preValidation: staffOnly,
      schema: { tags, summary: 'Dismiss an open case: its held commissions continue their normal path (approved at once if their hold date has passed); decided already: INVALID_STATE_TRANSITION; audited risk.dismiss', params: IdParamsSchema, body: RiskDecisionSchema, response: { 200: RiskCaseEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ case: await dismissCase(ctx, actorOf(request), request.params.id, request.body.note ?? null) }));

    app.post('/api/admin/risk/:id/reject', {
      preValidation: staffOnly,
      schema: { tags, summary: 'Reject an open case: its held commissions still pending are rejected with the rule as their reason, once; decided already: INVALID_STATE_TRANSITION; audited risk.reject', params: IdParamsSchema, body: RiskDecisionSchema, response: { 200: RiskCaseEnvelopeSchema, ...errorResponses } },
    }, async (request) => ({ case: await rejectCase(ctx, actorOf(request), request.params.id, request.body.note ?? null) }));
  };
}
