/**
 * npm run bench:conversions — sustained sales/s through `POST api/v1/conversions` of the real
 * server (a separate process, LOG_LEVEL=warn) with attribution, level-1 and level-2 commissions and
 * their ledger journals; 10% of the deliveries repeat an earlier externalId. Then it checks that
 * every acknowledged sale is stored exactly once and runs the full ledger check.
 *
 * SQLite by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh PostgreSQL database.
 * BENCH_SECONDS (default 20) and BENCH_CONNECTIONS (default 20) tune the load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createContext } from '../apps/server/src/bootstrap';
import { loadConfig } from '../apps/server/src/config';
import { newApiKeySecret } from '../apps/server/src/platform/api-keys';
import { newId } from '../apps/server/src/platform/ids';
import { checkLedger } from '../apps/server/src/platform/ledger';
import { rebuildRollups } from '../apps/server/src/platform/rollups-rebuild';
import { insertLink as insertLinkRow } from '../apps/server/src/modules/links/repository';
import { insertCampaign, insertUser } from './fixtures';
import { freePort, freshPostgres, stop, waitFor } from './util';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PROMOTERS = 500;
const PG_URL = process.env.BENCH_DATABASE_URL ?? '';

// A fresh database: a temp SQLite folder, or a new PostgreSQL database dropped at the end.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-bench-conv-'));
const { databaseUrl, drop: dropDatabase } = await freshPostgres(PG_URL);
const config = { ...loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }), dataDir };

// Fixtures: one campaign with a 10% rate and a 10% override, promoters in pairs (inviter, member), their links, an API key.
const setup = await createContext(config);
const campaignId = await insertCampaign(setup.ctx.db, { en: 'Bench campaign' });
await setup.ctx.db.updateTable('campaigns').set({ override_bps: 1000 }).where('id', '=', campaignId).execute();
const codes: string[] = [];
let inviter: string | null = null;
for (let i = 0; i < PROMOTERS; i++) {
  const id = await insertUser(setup.ctx.db);
  if (i % 2 === 1 && inviter) await setup.ctx.db.updateTable('users').set({ parent_id: inviter }).where('id', '=', id).execute();
  else inviter = id;
  const now = Date.now();
  await setup.ctx.db.insertInto('enrollments').values({ id: newId(now), promoter_id: id, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
  const link = await insertLinkRow(setup.ctx.db, { promoterId: id, campaignId, code: `b${i.toString(36)}x${now.toString(36)}` });
  codes.push(link!.code);
}
const key = newApiKeySecret(setup.ctx);
await setup.ctx.db.insertInto('api_keys').values({ id: newId(), name: 'bench', prefix: key.prefix, secret_hash: key.hash, secret_sealed: key.sealed, scopes_json: '["conversions:write"]', require_signature: 0, created_by: 'bench', created_at: Date.now(), last_used_at: null, revoked_at: null }).execute();
await setup.handle.close();

const port = await freePort();
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl };
const prof = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof-conv'] : [];
const server: ChildProcess = spawn(process.execPath, [...prof, '--import', 'tsx', 'apps/server/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
await waitFor(`http://127.0.0.1:${port}/api/health`);

// The load: fresh sales, and every tenth delivery a repeat of an earlier one.
const sent: string[] = [];
const acked = new Set<string>();
let created = 0;
let repeated = 0;
let failed = 0;
let seq = 0;
function nextBody(): string {
  seq++;
  const repeat = seq % 10 === 0 && sent.length > 0;
  const externalId = repeat ? sent[Math.floor(Math.random() * sent.length)]! : `o${seq}-${randomBytes(3).toString('hex')}`;
  if (!repeat) sent.push(externalId);
  return JSON.stringify({ campaignId, kind: 'sale', externalId, amount: 1000 + Math.floor(Math.random() * 99_000), linkCode: codes[seq % codes.length] });
}

async function load(duration: number, record: boolean) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration,
    requests: [{
      method: 'POST',
      path: '/api/v1/conversions',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: nextBody() }),
      onResponse: (status, body) => {
        if (!record) return;
        if (status === 201) created++;
        else if (status === 200) repeated++;
        else failed++;
        // The load generator shares the machine: read the id with a search, not a full JSON parse.
        if (status === 200 || status === 201) {
          const at = body.indexOf('"externalId":"') + 14;
          acked.add(body.slice(at, body.indexOf('"', at)));
        }
      },
    }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

await load(3, false);
const measured = await load(DURATION, true);
await stop(server);

// Every acknowledged sale stored exactly once; the whole ledger balanced.
const after = await createContext(config);
let stored = 0;
const ids = [...acked];
for (let i = 0; i < ids.length; i += 500) {
  const chunk = ids.slice(i, i + 500);
  const n = await after.ctx.db.selectFrom('conversions').select((eb) => eb.fn.countAll<number>().as('n')).where('campaign_id', '=', campaignId).where('kind', '=', 'sale').where('external_id', 'in', chunk).executeTakeFirstOrThrow();
  stored += Number(n.n);
}
const commissions = Number((await after.ctx.db.selectFrom('commissions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
const breaches = await checkLedger(after.ctx.db);
// The per-day rollups written with every batch equal what the rows say (what `npm run stats:rebuild` checks).
const rebuilt = await rebuildRollups(after.ctx.db, after.ctx.dialect, after.ctx.config.timeZone, { apply: false });
await after.handle.close();
await dropDatabase();
fs.rmSync(dataDir, { recursive: true, force: true });

const salesPerSecond = created / DURATION;
console.log(`\nbench:conversions on ${PG_URL ? 'PostgreSQL' : 'SQLite'}: ${DURATION} s, ${CONNECTIONS} connections, ${PROMOTERS} promoters (pairs with a level-2 override)`);
console.table({
  'new sales (201)': { value: created, perSecond: Math.round(salesPerSecond) },
  'repeats answered (200)': { value: repeated, perSecond: Math.round(repeated / DURATION) },
  'errors': { value: failed, perSecond: 0 },
});
console.log(`latency p50 ${measured.p50} ms, p99 ${measured.p99} ms; commissions written ${commissions}`);
console.log(`acknowledged distinct sales ${acked.size}, stored ${stored}; ledger check: ${breaches.length === 0 ? 'ok' : `${breaches.length} breaches`}; rollups rebuilt from ${rebuilt.scanned.commissions} commissions: ${rebuilt.differenceCount === 0 ? 'no difference' : `${rebuilt.differenceCount} differences`}`);
const ok = failed === 0 && stored === acked.size && breaches.length === 0 && rebuilt.differenceCount === 0;
console.log(`correctness: ${ok ? 'ok (nothing lost, nothing counted twice, ledger balanced, rollups exact)' : 'FAILED'}`);
if (!PG_URL) console.log(`throughput target (≥ 2,000 new sales/s on SQLite): ${salesPerSecond >= 2000 ? 'met' : 'NOT met'} (${Math.round(salesPerSecond)}/s)`);
process.exit(ok ? 0 : 1);
