/**
 * A new installation's first steps against a listening server over real HTTP (the compiled server,
 * the unpacked release): the first admin made by the admin:create command, who sets a password
 * through the one-time link and signs in as the browser does (password sealed with RSA-OAEP,
 * Content-Digest, CSRF); an API key; a sale through the conversions API; its webhook at a
 * receiver that verifies it with the standardwebhooks package.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { campaignBody, digestOf, seal, type PublicKeyInfo } from './helpers';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpResponse {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads whatever shape the route answers
  json(): any;
}

/** A browser-like client over HTTP with a cookie jar (the same headers as helpers.ts's Client). */
export class HttpClient {
  cookies = new Map<string, string>();
  private key: PublicKeyInfo | null = null;
  constructor(readonly base: string) {}

  async request(method: Method, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse> {
    if (method !== 'GET' && !this.cookies.has('pa_csrf')) await this.request('GET', '/api/health');
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const res = await fetch(new URL(url.replace(/^\//, ''), this.base.endsWith('/') ? this.base : `${this.base}/`), {
      method,
      body: payload,
      redirect: 'manual',
      headers: {
        'accept-language': 'en',
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...(method !== 'GET' && this.cookies.get('pa_csrf') ? { 'x-csrf-token': this.cookies.get('pa_csrf')! } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json', 'content-digest': digestOf(payload) } : {}),
        ...headers,
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  }

  async seal(secret: string) {
    this.key ??= (await this.request('GET', '/api/auth/public-key')).json() as PublicKeyInfo;
    return seal(this.key, secret);
  }

  async login(account: string, password: string) {
    return this.request('POST', '/api/auth/login', { account, password: await this.seal(password) });
  }
}

/** Receives webhooks on 127.0.0.1 and keeps each with whether it verified against `secret`. */
export class WebhookReceiver {
  server: http.Server | null = null;
  url = '';
  secret = '';
  received: { type: string; verified: boolean; data: Record<string, unknown> }[] = [];

  async start() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        try {
          const payload = new Webhook(this.secret).verify(body, headers) as { type: string; data: Record<string, unknown> };
          this.received.push({ type: payload.type, verified: true, data: payload.data });
        } catch {
          this.received.push({ type: '', verified: false, data: {} });
        }
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves with the first verified event of `type` whose data `matches` (within `timeoutMs`). */
  async event(type: string, matches: (data: Record<string, unknown>) => boolean = () => true, timeoutMs = 15_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.received.find((r) => r.verified && r.type === type && matches(r.data));
      if (hit) return hit;
      if (Date.now() > until) throw new Error(`no verified ${type} webhook within ${timeoutMs} ms; received ${JSON.stringify(this.received)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  stop() {
    return new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The first admin: `adminCreate` runs the installation's admin:create command with the given
 * arguments; the link it prints sets the password, and the admin signs in.
 */
export async function firstAdmin(base: string, adminCreate: (args: string[]) => Promise<CommandResult>): Promise<HttpClient> {
  const account = 'owner@example.com';
  const password = 'Owner-passw0rd';
  const made = await adminCreate(['--account', account, '--name', 'Owner', '--url', base]);
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  const link = made.stdout.match(/\S+#\/reset-password\?token=([A-Za-z0-9_%-]+)/);
  expect(link, made.stdout).not.toBeNull();
  const admin = new HttpClient(base);
  const set = await admin.request('POST', '/api/auth/reset-password', { token: decodeURIComponent(link![1]!), password: await admin.seal(password) });
  expect(set.status, set.text).toBe(200);
  const login = await admin.login(account, password);
  expect(login.status, login.text).toBe(200);
  expect(login.json().user).toMatchObject({ role: 'admin', displayName: 'Owner' });
  return admin;
}

/**
 * An active campaign, an API key, a webhook endpoint at `receiver` for conversion.created, and a
 * sale through the conversions API with the key: stored, read back, and its webhook received and
 * verified. Returns the conversion.
 */
export async function saleThroughApi(admin: HttpClient, receiver: WebhookReceiver) {
  const campaign = await admin.request('POST', '/api/admin/campaigns', campaignBody());
  expect(campaign.status, campaign.text).toBe(201);
  const campaignId = campaign.json().campaign.id as string;
  expect((await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' })).status).toBe(200);
  const key = await admin.request('POST', '/api/admin/api-keys', { name: 'Shop', scopes: ['conversions:write', 'conversions:read'] });
  expect(key.status, key.text).toBe(201);
  const secret = key.json().secret as string;
  const endpoint = await admin.request('POST', '/api/admin/webhooks', { url: receiver.url, events: ['conversion.created'], description: 'Shop' });
  expect(endpoint.status, endpoint.text).toBe(201);
  receiver.secret = endpoint.json().secret;

  // The shop's server: no session, no CSRF, only the key.
  const shop = (method: Method, url: string, body?: unknown) =>
    fetch(new URL(url.replace(/^\//, ''), `${admin.base.replace(/\/$/, '')}/`), {
      method,
      headers: { authorization: `Bearer ${secret}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const sale = await shop('POST', '/api/v1/conversions', { campaignId, kind: 'sale', externalId: 'order-1001', amount: 4990 });
  const saleText = await sale.text();
  expect(sale.status, saleText).toBe(201);
  const conversion = JSON.parse(saleText).conversion as { id: string; kind: string; amount: number; externalId: string };
  expect(conversion).toMatchObject({ kind: 'sale', amount: 4990, externalId: 'order-1001' });
  const back = await shop('GET', `/api/v1/conversions/order-1001?campaignId=${campaignId}&kind=sale`);
  expect(back.status).toBe(200);
  expect((await back.json()).conversion).toMatchObject({ id: conversion.id, amount: 4990 });

  const hook = await receiver.event('conversion.created', (data) => data.id === conversion.id);
  expect(hook.data).toMatchObject({ id: conversion.id, kind: 'sale', amount: 4990, externalId: 'order-1001', campaignId });
  return conversion;
}
