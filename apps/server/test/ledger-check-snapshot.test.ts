/**
 * The ledger check reads one consistent moment while money moves (issue 15): commissions are
 * approved one after another while the check runs again and again, on both databases; every
 * check finds nothing. Without one snapshot (PostgreSQL: several statements in autocommit), an
 * approval landing between the check's reads showed as a false breach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideCommission, recordConversion } from '../src/modules/commissions/service';
import { insertUser } from '../src/modules/users/repository';
import { checkLedger, type LedgerBreach } from '../src/platform/ledger';
import { campaignBody, createUser, DIALECTS, makeEnv, signedIn, type TestEnv } from './helpers';

const SALES = 60;

describe.each(DIALECTS)('ledger check during approvals on %s', (dialect) => {
  let env: TestEnv;
  let campaignId: string;
  let operatorId: string;
  let code: string;

  beforeAll(async () => {
    env = await makeEnv(dialect);
    const { client: admin } = await signedIn(env, 'admin');
    operatorId = (await createUser(env.ctx, 'operator')).id;
    campaignId = (await admin.request('POST', '/api/admin/campaigns', campaignBody({ approvalMode: 'manual', holdDays: 0, saleRewardType: 'fixed', saleReward: 999, leadReward: 0 }))).json().campaign.id;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    const promoterId = await insertUser(env.ctx.db, { account: 'snap@p.test', displayName: 'Snap', passwordHash: 'unused', role: 'promoter', status: 'active', locale: 'en', parentId: null });
    const now = Date.now();
    await env.ctx.db.insertInto('enrollments').values({ id: `${promoterId}-e`, promoter_id: promoterId, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
    code = `snap${now.toString(36)}`;
    await env.ctx.db.insertInto('links').values({ id: `${promoterId}-l`, code, code_key: code, promoter_id: promoterId, campaign_id: campaignId, label: null, channel: null, destination: null, status: 'active', is_default: 1, created_at: now, updated_at: now }).execute();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('finds no breach in any check while commissions are approved', async () => {
    const ids: string[] = [];
    for (let i = 0; i < SALES; i++) {
      const { conversionId } = await recordConversion(env.ctx, null, { campaignId, kind: 'sale', externalId: `snap-${i}`, amount: 10_000, linkCode: code });
      ids.push((await env.ctx.db.selectFrom('commissions').select('id').where('conversion_id', '=', conversionId).executeTakeFirstOrThrow()).id);
    }
    let approving = true;
    const approvals = (async () => {
      try {
        for (const id of ids) expect(await decideCommission(env.ctx, id, 'approve', operatorId, null)).toBe(true);
      } finally {
        approving = false;
      }
    })();
    const found: LedgerBreach[][] = [];
    let checks = 0;
    while (approving) {
      found.push(await checkLedger(env.ctx.db));
      checks++;
    }
    await approvals;
    // The checks really overlapped the approvals (several of them), and none saw a half-made move.
    expect(checks).toBeGreaterThan(3);
    expect(found.filter((b) => b.length > 0)).toEqual([]);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });
});
