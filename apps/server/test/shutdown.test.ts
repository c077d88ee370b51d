/**
 * SIGTERM under load (issue 13, item 7): the real server process stops accepting, answers what it
 * has, waits for work whose client has gone, writes the conversion batch and the buffered clicks,
 * and only then closes the database. Every answered request is then true: each acknowledged
 * conversion stored exactly once, each 302's click stored, the ledger balanced.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { insertLink } from '../src/modules/links/repository';
import { insertUser } from '../src/modules/users/repository';
import { newApiKeySecret } from '../src/platform/api-keys';
import { newId } from '../src/platform/ids';
import { checkLedger } from '../src/platform/ledger';
import { freshPostgres } from '../../../bench/util';
import { DIALECTS, PG_URL } from './helpers';
import { startServer } from './server-process';

/** A database of its own for the server process: a temp SQLite folder, or a new PostgreSQL database. */
async function freshDatabase(dialect: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-shutdown-'));
  const postgres = await freshPostgres(dialect === 'postgres' ? PG_URL : '');
  return {
    dataDir,
    databaseUrl: postgres.databaseUrl,
    drop: async () => {
      await postgres.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An active campaign (10 % of each sale), promoters enrolled with a link each, and an API key. */
async function fixtures(config: ReturnType<typeof loadConfig>) {
  const { ctx, handle } = await createContext(config);
  const now = Date.now();
  const campaignId = newId(now);
  await ctx.db.insertInto('campaigns').values({
    id: campaignId, status: 'active', names_json: JSON.stringify({ en: 'Shutdown' }), descriptions_json: '{}',
    landing_url: 'https://shop.example.com/tea', allowed_hosts_json: '[]', starts_at: null, ends_at: null, lead_reward: 0,
    sale_reward_type: 'bps', sale_reward: 1000, tiers_json: '[]', override_bps: 0, attribution_window_days: 30, hold_days: 7,
    approval_mode: 'auto', join_mode: 'open', share_texts_json: '{}', cover_image_id: null, created_at: now, updated_at: now,
  }).execute();
  const codes: string[] = [];
  for (let i = 0; i < 20; i++) {
    const promoterId = await insertUser(ctx.db, { account: `p${i}-${newId()}@example.com`, displayName: `P${i}`, passwordHash: 'scrypt$unusable', role: 'promoter', status: 'active', locale: 'en', parentId: null });
    await ctx.db.insertInto('enrollments').values({ id: newId(), promoter_id: promoterId, campaign_id: campaignId, status: 'approved', coupon_code: null, created_at: now, decided_at: now, decided_by: null }).execute();
    codes.push((await insertLink(ctx.db, { promoterId, campaignId, code: `sd${i}x${now.toString(36)}` }))!.code);
  }
  const key = newApiKeySecret(ctx);
  await ctx.db.insertInto('api_keys').values({ id: newId(), name: 'shutdown', prefix: key.prefix, secret_hash: key.hash, secret_sealed: key.sealed, scopes_json: '["conversions:write"]', require_signature: 0, created_by: 'test', created_at: now, last_used_at: null, revoked_at: null }).execute();
  await handle.close();
  return { campaignId, codes, apiKey: key.secret };
}

interface Answer { status: number; at: number; body: string }

describe.each(DIALECTS)('SIGTERM under load on %s', (dialect) => {
  it('drains: every 2xx conversion stored exactly once, every 302 click stored, the ledger balanced, no error logged', async () => {
    const db = await freshDatabase(dialect);
    try {
      const config = { ...loadConfig({ DATA_DIR: db.dataDir, ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}) }), dataDir: db.dataDir };
      const { campaignId, codes, apiKey } = await fixtures(config);
      const server = await startServer({ DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, LOG_LEVEL: 'info' });

      let stopped = false;
      let seq = 0;
      const sales = new Map<string, Answer>();
      const redirects: (Answer & { clickId: string | null })[] = [];
      const refused: string[] = [];
      /** When each refused request ended (to see that load went on through the signal). */
      const refusedAt: number[] = [];
      const convert = (externalId: string, signal?: AbortSignal) =>
        fetch(`${server.url}/api/v1/conversions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ campaignId, kind: 'sale', externalId, amount: 1000 + (seq % 5000), linkCode: codes[seq % codes.length] }),
          signal,
        });
      // Deliveries answered are recorded; a refused connection (the server has stopped listening) ends a worker.
      const salesWorker = async () => {
        while (!stopped) {
          const externalId = `o${++seq}`;
          try {
            const res = await convert(externalId);
            sales.set(externalId, { status: res.status, at: Date.now(), body: await res.text() });
          } catch (error) {
            refused.push(String((error as Error).cause ?? error));
            refusedAt.push(Date.now());
            return;
          }
        }
      };
      const clickWorker = async () => {
        while (!stopped) {
          try {
            const res = await fetch(`${server.url}/r/${codes[++seq % codes.length]}`, { redirect: 'manual' });
            const location = res.headers.get('location');
            redirects.push({ status: res.status, at: Date.now(), body: await res.text(), clickId: location ? new URL(location).searchParams.get('pa_click') : null });
          } catch (error) {
            refused.push(String((error as Error).cause ?? error));
            refusedAt.push(Date.now());
            return;
          }
        }
      };
      // Clients that hang up while their delivery is being written: the server's work goes on without a connection.
      const quitter = async () => {
        while (!stopped) {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 1 + (seq % 8));
          try {
            await convert(`q${++seq}`, controller.signal).then((r) => r.text());
          } catch (error) {
            if ((error as Error).name !== 'AbortError') return;
          }
        }
      };
      const workers = [
        ...Array.from({ length: 12 }, salesWorker),
        ...Array.from({ length: 6 }, clickWorker),
        ...Array.from({ length: 6 }, quitter),
      ];

      // Under load until enough has been answered (at least 3 s; a slow machine takes longer to get there).
      const answered = () =>
        [...sales.values()].filter((a) => a.status === 201).length > 20 && redirects.filter((r) => r.status === 302).length > 20;
      const loadStart = Date.now();
      while (Date.now() - loadStart < 3000 || (!answered() && Date.now() - loadStart < 60_000)) await new Promise((r) => setTimeout(r, 100));
      const signalledAt = Date.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      stopped = true;
      await Promise.all(workers);

      const log = server.output();
      expect(code, log.slice(-3000)).toBe(0);
      expect(log).toContain('"msg":"stopped"');
      expect(log).not.toMatch(/destroyed|not open|"level":50|"level":60/);

      // What was answered is true.
      const acked = [...sales].filter(([, a]) => a.status === 200 || a.status === 201);
      const clicks = redirects.filter((r) => r.status === 302);
      expect(acked.length).toBeGreaterThan(20);
      expect(clicks.length).toBeGreaterThan(20);
      // The signal came under load: requests were still ending — answered, or cut by the closing
      // server (whether any is answered depends on where each connection stood) — after it.
      expect([...[...sales.values(), ...redirects].map((a) => a.at), ...refusedAt].filter((at) => at > signalledAt).length, 'requests ending after SIGTERM').toBeGreaterThan(0);
      // No other answers than those (Fastify's own 503 while closing is not one of ours).
      expect([...sales.values()].filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body}`)).toEqual([]);
      expect(redirects.filter((r) => r.status !== 302).map((a) => `${a.status} ${a.body}`)).toEqual([]);
      expect(refused.every((e) => /ECONNREFUSED|ECONNRESET|other side closed|SocketError/.test(e)), refused.join('\n')).toBe(true);

      const after = await createContext(config);
      try {
        const stored = await after.ctx.db.selectFrom('conversions').select(['external_id']).where('campaign_id', '=', campaignId).execute();
        const times = new Map<string, number>();
        for (const r of stored) times.set(r.external_id, (times.get(r.external_id) ?? 0) + 1);
        expect(acked.filter(([id]) => times.get(id) !== 1).map(([id]) => `${id}: ${times.get(id) ?? 0}`)).toEqual([]);
        expect([...times.values()].every((n) => n === 1)).toBe(true);
        const clickIds = clicks.map((c) => c.clickId!);
        expect(clickIds.every(Boolean)).toBe(true);
        const found = new Set<string>();
        for (let i = 0; i < clickIds.length; i += 500) {
          for (const r of await after.ctx.db.selectFrom('clicks').select('id').where('id', 'in', clickIds.slice(i, i + 500)).execute()) found.add(r.id);
        }
        expect(clickIds.filter((id) => !found.has(id))).toEqual([]);
        expect(await checkLedger(after.ctx.db)).toEqual([]);
      } finally {
        await after.handle.close();
      }
    } finally {
      await db.drop();
    }
  }, 120_000);
});
