/**
 * npm run bench:stats — the promoter's figures at scale. A generator fills a fresh database with
 * BENCH_PROMOTERS promoters (default 100,000; 60 % invited by another), BENCH_CLICKS clicks
 * (10,000,000) and BENCH_CONVERSIONS attributed conversions (1,000,000; 10 % leads) with their
 * level-1 and level-2 commissions, spread over the last 60 days with a Zipf-like skew (a few
 * promoters get most of the traffic, as in real programs); the rollups are then computed from
 * those rows by the same rebuild `npm run stats:rebuild` runs. Then the real server (its own
 * process) answers the Home (`api/stats/overview`), Team (`api/team`) and Leaderboard
 * (`api/leaderboard`) calls for random promoters — half picked uniformly, half by activity — and
 * the operator's overview (`api/admin/overview`, each range) for a signed-in admin, and
 * p50/p95/p99 are reported — one request at a time (the target: p95 ≤ 50 ms on SQLite), then
 * with four at once on the one server process (so a request also waits for the others). For the
 * overview's work queue and payouts the generator adds withdrawals (most paid, some waiting),
 * registrations and enrollments to decide, and one campaign whose commissions are approved by hand.
 *
 * SQLite by default; BENCH_DATABASE_URL=postgres://… runs it on a fresh PostgreSQL database
 * (at BENCH_SCALE, default 0.1 there). BENCH_DATA_DIR=<dir> keeps the generated SQLite database
 * there and reuses it on the next run. Ledger journals are not generated (balances are, for the
 * wallet on Home): this measures reading figures, not the ledger.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../apps/server/src/bootstrap';
import { loadConfig } from '../apps/server/src/config';
import { rebuildRollups } from '../apps/server/src/platform/rollups-rebuild';
import { hashToken } from '../apps/server/src/platform/session';
import { bulkExec, valueRows } from './bulk-insert';
import { freePort, freshPostgres, serverNodeArgs, stop, waitFor } from './util';

const ROOT = path.resolve(import.meta.dirname, '..');
const PG_URL = process.env.BENCH_DATABASE_URL ?? '';
const SCALE = Number(process.env.BENCH_SCALE ?? (PG_URL ? 0.1 : 1));
const PROMOTERS = Math.round(Number(process.env.BENCH_PROMOTERS ?? 100_000) * SCALE);
const CLICKS = Math.round(Number(process.env.BENCH_CLICKS ?? 10_000_000) * SCALE);
const CONVERSIONS = Math.round(Number(process.env.BENCH_CONVERSIONS ?? 1_000_000) * SCALE);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
/** Latency is measured one request at a time (the target), then with 4 at once (queueing included, reported). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 1);
const LOADED = 4;
const DAYS = 60;
const DAY = 86_400_000;
const CAMPAIGNS = 5;

const keep = process.env.BENCH_DATA_DIR;
const dataDir = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), 'pa-bench-stats-'));
fs.mkdirSync(dataDir, { recursive: true });
const reuse = !PG_URL && !!keep && fs.existsSync(path.join(dataDir, 'generated.json'));
const { databaseUrl, drop: dropDatabase } = await freshPostgres(PG_URL);
const config = { ...loadConfig({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }), dataDir };

// A small deterministic generator, so runs are comparable.
let state = 0x9e3779b9;
const rand = () => {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state / 4_294_967_296;
};
const int = (n: number) => Math.floor(rand() * n);
/** Zipf-like pick in [0, n): weight 1 / (rank + 10). */
function zipf(n: number): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / (i + 10);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
const pad = (i: number) => i.toString(36).padStart(8, '0');

const started = Date.now();
const now = Date.now();
const setup = await createContext(config);
const { ctx } = setup;
const sqlite = setup.handle.sqlite;
const exec = bulkExec(ctx.db, sqlite);
const promoterIds: string[] = [];
for (let i = 0; i < PROMOTERS; i++) promoterIds.push(`u${pad(i)}`);

async function insertRows(table: string, columns: string[], rows: unknown[][]) {
  const per = Math.max(1, Math.floor((sqlite ? 900 : 8000) / columns.length));
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    await exec.run(`insert into ${table} (${columns.join(', ')}) values ${valueRows(chunk.length, columns.length)}`, chunk.flat());
  }
}
async function inTransaction(work: () => Promise<void>) {
  if (sqlite) {
    sqlite.exec('begin');
    await work();
    sqlite.exec('commit');
  } else {
    await work(); // PostgreSQL: autocommit per multi-row insert (a fresh database nobody else uses)
  }
}

let generateSeconds = 0;
let rebuildSeconds = 0;
if (!reuse) {
  const t0 = Date.now();
  // Campaigns.
  const campaignIds = Array.from({ length: CAMPAIGNS }, (_, i) => `c${pad(i)}`);
  await insertRows('campaigns', ['id', 'status', 'names_json', 'descriptions_json', 'landing_url', 'allowed_hosts_json', 'starts_at', 'ends_at', 'lead_reward', 'sale_reward_type', 'sale_reward', 'tiers_json', 'override_bps', 'attribution_window_days', 'hold_days', 'approval_mode', 'join_mode', 'share_texts_json', 'cover_image_id', 'created_at', 'updated_at'],
    campaignIds.map((id, i) => [id, 'active', JSON.stringify({ en: `Bench campaign ${i + 1}` }), '{}', 'https://shop.example.com/', '[]', null, null, 200, 'bps', 1000, '[]', 1000, 30, 7, i === CAMPAIGNS - 1 ? 'manual' : 'auto', 'open', '{}', null, now - 400 * DAY, now]));

  // Promoters: 60 % invited by an earlier one (biased towards the first, so some teams are large).
  const parentPick = zipf(PROMOTERS);
  const parents: (number | null)[] = [];
  const links: { id: string; promoter: number; campaign: string }[][] = [];
  let linkSeq = 0;
  await inTransaction(async () => {
    const users: unknown[][] = [];
    const enrollments: unknown[][] = [];
    const linkRows: unknown[][] = [];
    for (let i = 0; i < PROMOTERS; i++) {
      const parent = i > 0 && rand() < 0.6 ? Math.min(parentPick(), i - 1) : null;
      parents.push(parent);
      const created = now - 365 * DAY + Math.floor((i / PROMOTERS) * 300 * DAY);
      users.push([promoterIds[i], `bench-${i}@example.com`, `Promoter ${i}`, 'scrypt$unusable', 'promoter', 'active', 'en', `B${pad(i).toUpperCase().slice(1)}`, parent === null ? null : promoterIds[parent], created, created]);
      const mine: { id: string; promoter: number; campaign: string }[] = [];
      const joined = rand() < 0.3 ? 2 : 1;
      for (let k = 0; k < joined; k++) {
        const campaign = campaignIds[(i + k) % CAMPAIGNS]!;
        enrollments.push([`e${pad(i)}${k}`, promoterIds[i], campaign, 'approved', null, created, created, null]);
        const id = `l${pad(linkSeq++)}`;
        const code = `b${pad(i)}${k}`;
        linkRows.push([id, code, code, promoterIds[i], campaign, null, ['wechat', 'douyin', null, null][int(4)], null, 'active', 1, created, created]);
        mine.push({ id, promoter: i, campaign });
      }
      links.push(mine);
    }
    await insertRows('users', ['id', 'account', 'display_name', 'password_hash', 'role', 'status', 'locale', 'invite_code', 'parent_id', 'created_at', 'updated_at'], users);
    await insertRows('enrollments', ['id', 'promoter_id', 'campaign_id', 'status', 'coupon_code', 'created_at', 'decided_at', 'decided_by'], enrollments);
    await insertRows('links', ['id', 'code', 'code_key', 'promoter_id', 'campaign_id', 'label', 'channel', 'destination', 'status', 'is_default', 'created_at', 'updated_at'], linkRows);
  });
  console.log(`generated ${PROMOTERS} promoters in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  // Clicks, in batches of 100,000 per transaction.
  const activity = zipf(PROMOTERS);
  const BATCH = 100_000;
  for (let done = 0; done < CLICKS; done += BATCH) {
    await inTransaction(async () => {
      const rows: unknown[][] = [];
      for (let j = done; j < Math.min(CLICKS, done + BATCH); j++) {
        const p = activity();
        const link = links[p]![int(links[p]!.length)]!;
        const bot = rand() < 0.03;
        rows.push([`k${pad(j)}`, link.id, link.campaign, promoterIds[p], now - int(DAYS * DAY), `v${int(1 << 30)}`, !bot && rand() < 0.7 ? 1 : 0, bot ? 1 : 0, 'mobile', null, 1]);
      }
      await insertRows('clicks', ['id', 'link_id', 'campaign_id', 'promoter_id', 'at', 'visitor_hash', 'is_unique', 'is_bot', 'device', 'referrer_host', 'attributed'], rows);
    });
    if ((done / BATCH) % 10 === 9) console.log(`  clicks ${done + BATCH} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }

  // Conversions with their commissions (level 1, and level 2 to the inviter); balances per promoter.
  const pending = new Float64Array(PROMOTERS);
  const available = new Float64Array(PROMOTERS);
  let commissionSeq = 0;
  for (let done = 0; done < CONVERSIONS; done += BATCH) {
    await inTransaction(async () => {
      const conversions: unknown[][] = [];
      const commissions: unknown[][] = [];
      for (let j = done; j < Math.min(CONVERSIONS, done + BATCH); j++) {
        const p = activity();
        const link = links[p]![int(links[p]!.length)]!;
        const at = now - int(DAYS * DAY);
        const lead = rand() < 0.1;
        const amount = lead ? 0 : 1000 + int(99_000);
        const id = `v${pad(j)}`;
        conversions.push([id, link.campaign, lead ? 'lead' : 'sale', `x${pad(j)}`, amount, 0, null, null, null, null, null, null, promoterIds[p], link.id, 'link', 'attributed', null, at, at, null]);
        const day = new Date(at).toISOString().slice(0, 7);
        const l1 = lead ? 200 : Math.floor(amount / 10);
        const status = at < now - 7 * DAY ? (rand() < 0.03 ? 'rejected' : 'approved') : 'pending';
        const add = (promoter: number, level: number, value: number, source: number | null) => {
          commissions.push([`m${pad(commissionSeq++)}`, id, link.campaign, promoterIds[promoter], level === 1 ? link.id : null, source === null ? null : promoterIds[source], level, lead ? 'lead' : 'sale', level === 1 ? (lead ? 'lead_fixed' : 'sale_bps') : 'override', level === 1 ? amount : l1, 1000, value, 0, status, at, day, at + 7 * DAY, at, status === 'pending' ? null : at + 7 * DAY, null, null]);
          if (status === 'pending') pending[promoter]! += value;
          if (status === 'approved') available[promoter]! += value;
        };
        add(p, 1, l1, null);
        const parent = parents[p];
        if (parent !== null && parent !== undefined) add(parent, 2, Math.floor(l1 / 10), p);
      }
      await insertRows('conversions', ['id', 'campaign_id', 'kind', 'external_id', 'amount', 'refunded_amount', 'refund_of', 'customer_external_id', 'customer_email_sha256', 'click_id', 'coupon_code', 'link_code', 'promoter_id', 'link_id', 'attributed_by', 'status', 'reason', 'occurred_at', 'received_at', 'api_key_id'], conversions);
      await insertRows('commissions', ['id', 'conversion_id', 'campaign_id', 'promoter_id', 'link_id', 'source_promoter_id', 'level', 'kind', 'rule', 'base', 'rate_bps', 'amount', 'reversed_amount', 'status', 'occurred_at', 'month', 'available_at', 'created_at', 'decided_at', 'decided_by', 'reason'], commissions);
    });
  }
  await inTransaction(async () => {
    const rows: unknown[][] = [];
    for (let i = 0; i < PROMOTERS; i++) {
      if (pending[i]) rows.push([`promoter:${promoterIds[i]}:pending`, pending[i], now]);
      if (available[i]) rows.push([`promoter:${promoterIds[i]}:available`, available[i], now]);
    }
    await insertRows('ledger_balances', ['account', 'balance', 'updated_at'], rows);
  });

  // The operator's side: withdrawals (one in five promoters; paid ones spread over the 60 days, the
  // last week's partly still requested or approved), registrations waiting, enrollments waiting.
  await inTransaction(async () => {
    const withdrawals: unknown[][] = [];
    const owed = new Map<string, number>();
    for (let j = 0; j < Math.round(PROMOTERS / 5); j++) {
      const p = promoterIds[activity()]!;
      const at = now - int(DAYS * DAY);
      const amount = 1000 + int(200_000);
      const fee = Math.floor(amount / 100);
      const status = at > now - 7 * DAY ? (['requested', 'approved', 'paid'] as const)[int(3)] : 'paid';
      withdrawals.push([`w${pad(j)}`, p, amount, fee, amount - fee, 'CNY', status, null, 'bank', `Promoter ${p}`, String(1000 + int(9000)), 'sealed', `d${pad(j)}`, `w${pad(j)}`, 'bench',
        new Date(at).toISOString().slice(0, 10), at, status === 'requested' ? null : at + 3_600_000, null, status === 'paid' ? at + 7_200_000 : null, status === 'paid' ? `BANK-${j}` : null, null]);
      if (status !== 'paid') owed.set(`promoter:${p}:${status === 'requested' ? 'withdrawing' : 'payable'}`, (owed.get(`promoter:${p}:${status === 'requested' ? 'withdrawing' : 'payable'}`) ?? 0) + amount);
    }
    await insertRows('withdrawals', ['id', 'promoter_id', 'amount', 'fee', 'net', 'currency', 'status', 'payout_account_id', 'account_method', 'account_holder', 'account_last4', 'account_sealed', 'account_digest', 'idempotency_key', 'request_hash', 'day', 'requested_at', 'decided_at', 'decided_by', 'paid_at', 'payout_reference', 'reason'], withdrawals);
    await insertRows('ledger_balances', ['account', 'balance', 'updated_at'], [...owed].map(([account, balance]) => [account, balance, now]));
    const waiting = Math.max(1, Math.round(PROMOTERS / 500));
    await insertRows('users', ['id', 'account', 'display_name', 'password_hash', 'role', 'status', 'locale', 'invite_code', 'parent_id', 'created_at', 'updated_at'],
      Array.from({ length: waiting }, (_, i) => [`q${pad(i)}`, `waiting-${i}@example.com`, `Waiting ${i}`, 'scrypt$unusable', 'promoter', 'pending', 'en', `Q${pad(i).toUpperCase().slice(1)}`, null, now - int(7 * DAY), now]));
    await insertRows('enrollments', ['id', 'promoter_id', 'campaign_id', 'status', 'coupon_code', 'created_at', 'decided_at', 'decided_by'],
      Array.from({ length: waiting }, (_, i) => [`eq${pad(i)}`, promoterIds[PROMOTERS - 1 - i], campaignIds[(PROMOTERS - 1 - i + 3) % CAMPAIGNS], 'pending', null, now - int(7 * DAY), null, null]));
  });
  generateSeconds = (Date.now() - t0) / 1000;
  console.log(`generated ${CLICKS} clicks, ${CONVERSIONS} conversions, ${commissionSeq} commissions in ${generateSeconds.toFixed(0)} s`);

  // The rollups, computed from the rows by the rebuild (it writes every row it finds missing).
  const t1 = Date.now();
  const report = await rebuildRollups(ctx.db, ctx.dialect, ctx.config.timeZone, { apply: true });
  rebuildSeconds = (Date.now() - t1) / 1000;
  console.log(`rollups: ${report.rows.daily} daily rows, ${report.rows.periods} period rows in ${rebuildSeconds.toFixed(0)} s`);
  if (sqlite) sqlite.exec('analyze');
  if (keep) fs.writeFileSync(path.join(dataDir, 'generated.json'), JSON.stringify({ PROMOTERS, CLICKS, CONVERSIONS, at: now }));
}

// The staff who read the overview: an admin (made once; a reused database keeps it).
const ADMIN_ID = 'staff-admin';
if (!(await ctx.db.selectFrom('users').select('id').where('id', '=', ADMIN_ID).executeTakeFirst())) {
  await insertRows('users', ['id', 'account', 'display_name', 'password_hash', 'role', 'status', 'locale', 'invite_code', 'parent_id', 'created_at', 'updated_at'],
    [[ADMIN_ID, 'bench-admin@example.com', 'Bench Admin', 'scrypt$unusable', 'admin', 'active', 'en', 'BSTAFF01', null, now - 400 * DAY, now]]);
}

// Sessions for the promoters the calls are made for: half uniform, half by activity.
const pickActive = zipf(PROMOTERS);
const viewers = Array.from({ length: 400 }, (_, i) => promoterIds[i % 2 === 0 ? int(PROMOTERS) : pickActive()]!);
const tokens: string[] = [];
await inTransaction(async () => {
  const rows: unknown[][] = [];
  for (const [i, id] of viewers.entries()) {
    const token = randomBytes(32).toString('base64url');
    tokens.push(token);
    rows.push([`s${pad(i)}${randomBytes(4).toString('hex')}`, id, hashToken(token), 'bench', Date.now(), Date.now(), Date.now() + 30 * DAY, null]);
  }
  await insertRows('sessions', ['id', 'user_id', 'token_hash', 'device', 'created_at', 'last_seen_at', 'expires_at', 'revoked_at'], rows);
});
const staffTokens = [randomBytes(32).toString('base64url')];
await insertRows('sessions', ['id', 'user_id', 'token_hash', 'device', 'created_at', 'last_seen_at', 'expires_at', 'revoked_at'],
  staffTokens.map((token, i) => [`sa${i}${randomBytes(4).toString('hex')}`, ADMIN_ID, hashToken(token), 'bench', Date.now(), Date.now(), Date.now() + 30 * DAY, null]));
const dbBytes = sqlite ? fs.statSync(path.join(dataDir, 'promotion-assistant.db')).size : 0;
await setup.handle.close();

const port = await freePort();
const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl };
const server: ChildProcess = spawn(process.execPath, [...serverNodeArgs(ROOT), '--import', 'tsx', 'apps/server/src/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
await waitFor(`http://127.0.0.1:${port}/api/health`);

async function measure(name: string, url: () => string, count: number, concurrency = CONCURRENCY, as = tokens) {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}${url()}`, { headers: { cookie: `pa_session=${as[i % as.length]}`, 'accept-language': 'en' } });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      if (res.status !== 200) errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { name, requests: count, errors, p50: +q(0.5).toFixed(1), p95: +q(0.95).toFixed(1), p99: +q(0.99).toFixed(1), max: +latencies[latencies.length - 1]!.toFixed(1) };
}

const ranges = ['today', '7d', '30d', 'month'];
const boards = ['period=week&by=earnings', 'period=month&by=earnings', 'period=week&by=conversions', 'period=month&by=conversions'];
await measure('warm-up', () => '/api/stats/overview?range=7d', 100);
await measure('warm-up', () => '/api/admin/overview?range=30d', 20, 1, staffTokens);
const calls: [string, () => string, string[]][] = [
  ['Home  GET api/stats/overview', () => `/api/stats/overview?range=${ranges[int(ranges.length)]}`, tokens],
  ['Team  GET api/team', () => '/api/team', tokens],
  ['Board GET api/leaderboard', () => `/api/leaderboard?${boards[int(boards.length)]}`, tokens],
  // The operator's overview, one row per range (admin).
  ...ranges.map((range): [string, () => string, string[]] => [`Admin GET api/admin/overview?range=${range}`, () => `/api/admin/overview?range=${range}`, staffTokens]),
];
const results = [];
for (const [name, url, as] of calls) results.push(await measure(name, url, REQUESTS, CONCURRENCY, as));
const loaded = [];
for (const [name, url, as] of calls) loaded.push(await measure(name, url, REQUESTS, LOADED, as));
await stop(server);
await dropDatabase();
if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`\nbench:stats on ${PG_URL ? 'PostgreSQL' : 'SQLite'}: ${PROMOTERS} promoters, ${CLICKS} clicks, ${CONVERSIONS} conversions over ${DAYS} days${reuse ? ' (reused database)' : `; generated in ${generateSeconds.toFixed(0)} s, rollups rebuilt in ${rebuildSeconds.toFixed(0)} s`}${dbBytes ? `; database ${(dbBytes / 2 ** 30).toFixed(2)} GiB` : ''}`);
console.log(`${REQUESTS} requests per call, ${viewers.length} promoters (half uniform, half by activity), total ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`${CONCURRENCY} at a time (ms):`);
console.table(Object.fromEntries(results.map(({ name, ...r }) => [name, r])));
console.log(`${LOADED} at a time (ms, a request also waits for the others):`);
console.table(Object.fromEntries(loaded.map(({ name, ...r }) => [name, r])));
const worst = Math.max(...results.map((r) => r.p95));
const failed = [...results, ...loaded].some((r) => r.errors > 0);
if (!PG_URL) console.log(`target p95 ≤ 50 ms on SQLite: ${worst <= 50 && !failed ? 'met' : 'NOT met'} (worst p95 ${worst} ms)`);
process.exit(failed || (!PG_URL && worst > 50) ? 1 : 0);
