/**
 * TRUST_PROXY decides whose address a request has (the audit trail, the sign-in limits and the
 * visitor hash read it): off → the connecting peer; `true` → the first address forwarded; a hop
 * count → that many proxies nearest the server trusted, the connecting peer first; addresses → only
 * those proxies trusted. Fastify 5.12 stopped honouring a bare hop count (app.ts gives it as a
 * function), which is why each form is checked here. About configuration, not the database: SQLite.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config';
import { campaignBody, makeEnv, signedIn, type TestEnv } from './helpers';

const PEER = '10.0.0.1';

describe('TRUST_PROXY', () => {
  let env: TestEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  /** The address the audit trail records for an admin's change sent with this X-Forwarded-For. */
  async function recordedAddress(trustProxy: Config['trustProxy'], forwardedFor: string) {
    env = await makeEnv('sqlite', { trustProxy });
    const { client } = await signedIn(env, 'admin', { ip: PEER });
    const res = await client.request('POST', '/api/admin/campaigns', campaignBody(), { headers: { 'x-forwarded-for': forwardedFor } });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { campaign: { id: string } }).campaign.id;
    const entry = await env.ctx.db.selectFrom('audit_entries').select('ip').where('action', '=', 'campaign.create').where('entity_id', '=', id).executeTakeFirstOrThrow();
    return entry.ip;
  }

  it.each([
    [false, '203.0.113.5', PEER],
    [true, '198.51.100.1, 203.0.113.5', '198.51.100.1'],
    [1, '198.51.100.1, 203.0.113.5', '203.0.113.5'],
    [2, '198.51.100.1, 203.0.113.5', '198.51.100.1'],
    [PEER, '198.51.100.1, 203.0.113.5', '203.0.113.5'],
    ['10.9.9.9', '203.0.113.5', PEER],
  ] as const)('TRUST_PROXY=%s with X-Forwarded-For "%s" records %s', async (trustProxy, forwardedFor, expected) => {
    expect(await recordedAddress(trustProxy, forwardedFor)).toBe(expected);
  });
});
