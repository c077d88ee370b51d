/**
 * The OpenAPI document's shared parts (issue 17): the one error shape, the security schemes and
 * what completes the generated document — an `operationId` for every operation, the security it
 * takes where its route does not say, the tags with what each holds — so that `redocly lint`
 * (recommended rules) passes and a client can be generated from it (docs/api.md).
 */
import { ErrorBodySchema } from '@pa/shared';

/** Every route documents the one error shape for 4xx and 5xx. */
export const errorResponses = { '4xx': ErrorBodySchema, '5xx': ErrorBodySchema } as const;

/** The ways a caller proves who they are. */
export const securitySchemes = {
  session: { type: 'apiKey', in: 'cookie', name: 'pa_session', description: 'The session cookie set by `POST api/auth/login` (browser calls).' },
  csrf: { type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The readable `pa_csrf` cookie repeated in this header: every POST, PATCH, PUT and DELETE of a browser call.' },
  apiKey: { type: 'http', scheme: 'bearer', description: 'An API key made by an admin (`POST api/admin/api-keys`): server-to-server calls under `api/v1/`.' },
  stripeSignature: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: "Stripe's signature of the event with the campaign's signing secret (`PUT api/admin/integrations/stripe/:campaignId`): the Stripe receiver's only authentication." },
  signature: { type: 'apiKey', in: 'header', name: 'X-Signature', description: '`t=<unix seconds>,v1=<hex HMAC-SHA256(key secret, t + "." + body)>`: optional beside the API key; when sent, it must hold (docs/api.md).' },
} as const;

/** The Stripe receiver: Stripe sends no key of ours, its signature is the proof. */
export const STRIPE_SIGNATURE: Security = [{ stripeSignature: [] }];
/** A server-to-server route: the API key, with or without a signature of the body. */
export const API_KEY: Security = [{ apiKey: [] }, { apiKey: [], signature: [] }];

type Security = Record<string, string[]>[];
/** A route anyone may call with no proof at all (a route's `schema.security`). */
export const PUBLIC: Security = [];
/** A route anyone may call, from a browser that repeats its CSRF cookie (sign-in and the like). */
export const PUBLIC_WRITE: Security = [{ csrf: [] }];

/** What each tag holds, in the order the reference lists them. */
const TAGS: Record<string, string> = {
  conversions: 'Server-to-server: report leads, sales and refunds with an API key (the quick start above).',
  auth: 'Sign-in, registration and password links.',
  me: 'The signed-in person: profile, password, devices, e-mail choices.',
  campaigns: 'Campaigns, enrolments and their images.',
  links: 'Tracked links, QR codes, posters and the redirect.',
  commissions: 'Conversions and commissions, for promoters and for staff.',
  wallet: "A promoter's balance and its ledger lines.",
  withdrawals: 'Payout accounts and withdrawals.',
  stats: 'Figures by day, campaign and link; the team and the leaderboard.',
  notifications: 'What a person is told in the app.',
  announcements: 'Messages from the operator to promoters.',
  admin: 'The console: overview, people, promoters, staff, settings, audit log.',
  'api-keys': 'API keys for server-to-server calls.',
  integrations: "What merchants' sites and payment providers load or call: the landing-page snippet, the Stripe receiver and its settings.",
  webhooks: 'Webhook endpoints and their deliveries.',
  mail: 'E-mail: settings, a test message, forgot-password.',
  system: 'Liveness and readiness.',
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * A name from the method and the path, stable as long as the route is: `GET
 * /api/admin/webhooks/{id}/deliveries` → `getAdminWebhooksByIdDeliveries`, `POST /api/v1/conversions`
 * → `postV1Conversions`. Paths are unique per method, so the names are too.
 */
function operationIdOf(method: string, path: string): string {
  const words = path.split('/').filter((s) => s && s !== 'api').map((segment) => {
    const param = /^\{(.+)\}$/.exec(segment);
    return param ? `by-${param[1]}` : segment;
  });
  const camel = [method, ...words].join('-').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''));
  return camel;
}

interface OperationObject { operationId?: string; tags?: string[]; security?: Security }
interface Document { paths?: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>; tags?: { name: string; description?: string }[] }

/**
 * Completes the generated document (`transformObject` of @fastify/swagger): operation ids; the
 * security of routes that do not declare it — an API key under `api/v1/`, otherwise the session,
 * with the CSRF header for what changes something; the declared tags.
 */
export function completeDocument<T extends object>(document: T): T {
  const doc = document as Document;
  const used = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      op.operationId ??= operationIdOf(method, path);
      if (op.security === undefined) {
        op.security = path.startsWith('/api/v1/') ? API_KEY : method === 'get' || method === 'head' ? [{ session: [] }] : [{ session: [], csrf: [] }];
      }
      for (const tag of op.tags ?? []) used.add(tag);
    }
  }
  const order = Object.keys(TAGS);
  doc.tags = [...used]
    .sort((a, b) => (order.includes(a) ? order.indexOf(a) : order.length) - (order.includes(b) ? order.indexOf(b) : order.length) || a.localeCompare(b))
    .map((name) => ({ name, description: TAGS[name] ?? name }));
  return document;
}

/** The reference's opening page: the conversions quick start, then how calls are made. */
export const API_DESCRIPTION = `JSON over HTTP. The full conventions are in docs/api.md; integrations (the landing-page snippet, the plain API route) in docs/integrations.md.

## Quick start: report a sale

1. **A key.** In the console, *API keys* → *New key* with the scope \`conversions:write\`; copy the secret (shown once).
2. **Keep the click.** A promoter's link sends the visitor to your page with \`?pa_click=<id>\`. Keep that id until checkout (the landing-page snippet \`<base>/pa.js\` does it for you: \`window.PromotionAssistant.clickId()\`, docs/integrations.md).
3. **Report the sale** from your server when the order is paid:

\`\`\`
curl -X POST <base>/api/v1/conversions \\
  -H "Authorization: Bearer <secret>" -H "Content-Type: application/json" \\
  -d '{"campaignId":"<campaign id>","kind":"sale","externalId":"order-1001","amount":12900,"clickId":"<pa_click>","customerExternalId":"cust-42"}'
\`\`\`

\`amount\` is in minor units (12900 = 129.00). The answer (201) says whom the sale was attributed to and the commissions it made; the same \`externalId\` again answers the stored result with 200, so retries are safe. A refund is \`{"kind":"refund","refundOf":"order-1001","amount":…}\`.

## Calls from a browser

The session cookie (\`pa_session\`, from \`POST api/auth/login\`); every POST, PATCH, PUT and DELETE repeats the \`pa_csrf\` cookie in \`X-CSRF-Token\` and sends \`Content-Digest\` (RFC 9530). Errors are \`{ "error": { "code", "message", "fields"? } }\` with a code from the catalogue, the message in the \`Accept-Language\` of the request.`;
