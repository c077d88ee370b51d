/**
 * The Stripe receiver and recurring commissions (issue 17), on each database: events built in
 * Stripe's documented shapes and signed with the official `stripe` package
 * (`webhooks.generateTestHeaderString`), posted to `api/v1/integrations/stripe/:campaignId`.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleTestPoint } from '../src/modules/integrations/stripe';
import { checkLedger } from '../src/platform/ledger';
import { campaignBody, Client, DIALECTS, errorCode, makeEnv, PG_URL, signedIn, type TestEnv } from './helpers';

const stripe = new Stripe('sk_test_not_used_for_calls');
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const DAY = 86_400_000;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(DIALECTS)('Stripe events and recurring commissions on %s', (dialect) => {
  let env: TestEnv;
  let admin: Client;
  let seq = 0;
  const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}${seq++}`;

  /** An event as Stripe sends it (the fields we read, in Stripe's shape). */
  const event = (type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) => ({ id: uid('evt'), object: 'event', api_version: '2024-06-20', created, livemode: false, pending_webhooks: 1, type, data: { object } });

  /** Posts an event signed with `secret` (as Stripe would); `signature` overrides the header. */
  function deliver(campaignId: string, secret: string, body: unknown, options: { timestamp?: number; signature?: string } = {}) {
    const payload = JSON.stringify(body);
    const header = options.signature ?? stripe.webhooks.generateTestHeaderString({ payload, secret, ...(options.timestamp ? { timestamp: options.timestamp } : {}) });
    return env.app.inject({ method: 'POST', url: `/api/v1/integrations/stripe/${campaignId}`, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header, 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' }, payload });
  }

  /** An active campaign (overrides: its terms) with a Stripe secret, and a promoter enrolled with a link. */
  async function setUp(overrides: Record<string, unknown> = {}) {
    const created = await admin.request('POST', '/api/admin/campaigns', campaignBody({ leadReward: 0, saleRewardType: 'bps', saleReward: 1000, holdDays: 0, ...overrides }));
    expect(created.statusCode, created.body).toBe(201);
    const campaignId = created.json().campaign.id as string;
    await admin.request('PATCH', `/api/admin/campaigns/${campaignId}`, { status: 'active' });
    const secret = `whsec_${Buffer.from(uid('secret')).toString('base64')}`;
    const set = await admin.request('PUT', `/api/admin/integrations/stripe/${campaignId}`, { signingSecret: secret });
    expect(set.statusCode, set.body).toBe(200);
    const { client, user } = await signedIn(env, 'promoter');
    await client.request('POST', `/api/campaigns/${campaignId}/join`);
    const link = ((await client.request('GET', '/api/links')).json().items as { code: string; campaignId: string }[]).find((l) => l.campaignId === campaignId)!;
    return { campaignId, secret, promoter: client, promoterId: user.id, link };
  }

  /** A visit through the tracked redirect; `ago`: how long ago it happened (moved back in the table). */
  async function clickOn(code: string, ago = 0) {
    const res = await env.app.inject({ method: 'GET', url: `/r/${code}`, headers: { 'user-agent': PHONE }, remoteAddress: `198.51.100.${(seq++ % 200) + 1}` });
    expect(res.statusCode).toBe(302);
    const id = new URL(res.headers.location as string).searchParams.get('pa_click')!;
    await expect.poll(async () => !!(await env.ctx.db.selectFrom('clicks').select('id').where('id', '=', id).executeTakeFirst())).toBe(true);
    if (ago) await env.ctx.db.updateTable('clicks').set({ at: Date.now() - ago }).where('id', '=', id).execute();
    return id;
  }

  const conversion = (campaignId: string, kind: 'lead' | 'sale' | 'refund', externalId: string) =>
    env.ctx.db.selectFrom('conversions').selectAll().where('campaign_id', '=', campaignId).where('kind', '=', kind).where('external_id', '=', externalId).executeTakeFirst();
  const commissionsOf = (conversionId: string) => env.ctx.db.selectFrom('commissions').selectAll().where('conversion_id', '=', conversionId).orderBy('level').execute();

  /** A subscription invoice of `customer`, paid at `paidAt` (ms), carrying the subscription's metadata. */
  const invoice = (customer: string, amount: number, paidAt: number, metadata: Record<string, string> = {}) => ({
    id: uid('in'), object: 'invoice', customer, customer_email: 'Buyer@Example.com', currency: 'cny', amount_paid: amount, amount_due: amount, status: 'paid',
    billing_reason: 'subscription_cycle', subscription: 'sub_123', payment_intent: uid('pi'), charge: uid('ch'),
    status_transitions: { paid_at: Math.floor(paidAt / 1000) }, metadata: {},
    parent: { type: 'subscription_details', subscription_details: { metadata, subscription: 'sub_123' } },
  });

  beforeAll(async () => {
    env = await makeEnv(dialect);
    admin = (await signedIn(env, 'admin')).client;
  });
  afterAll(async () => {
    await env?.close();
  });

  it('keeps a signing secret per campaign: sealed, never shown, audited, admins only', async () => {
    const { campaignId, secret } = await setUp();
    const status = (await admin.request('GET', `/api/admin/integrations/stripe/${campaignId}`)).json();
    expect(status).toEqual({ campaignId, configured: true, updatedAt: expect.any(Number), events: [] });
    const row = await env.ctx.db.selectFrom('stripe_endpoints').selectAll().where('campaign_id', '=', campaignId).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(6));
    const entry = await env.ctx.db.selectFrom('audit_entries').selectAll().where('action', '=', 'integration.stripe_secret').where('entity_id', '=', campaignId).executeTakeFirstOrThrow();
    expect(entry.after_json ?? '').not.toContain(secret.slice(6));

    const { client: operator } = await signedIn(env, 'operator');
    expect(errorCode(await operator.request('PUT', `/api/admin/integrations/stripe/${campaignId}`, { signingSecret: 'whsec_abcdefghij' }))).toBe('FORBIDDEN');
    expect((await operator.request('GET', `/api/admin/integrations/stripe/${campaignId}`)).statusCode).toBe(200);
    const bad = await admin.request('PUT', `/api/admin/integrations/stripe/${campaignId}`, { signingSecret: 'sk_live_123' });
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    expect(bad.json().error.fields).toEqual({ signingSecret: 'invalid' });
    expect(errorCode(await admin.request('PUT', '/api/admin/integrations/stripe/missing', { signingSecret: 'whsec_abcdefghij' }))).toBe('NOT_FOUND');
    // A campaign without a secret takes no events.
    const plain = (await admin.request('POST', '/api/admin/campaigns', campaignBody())).json().campaign.id as string;
    expect(errorCode(await deliver(plain, 'whsec_whatever1', event('invoice.paid', {})))).toBe('NOT_FOUND');
  });

  it('a checkout’s expanded line items reach the reward rules: pa_sku and pa_category from the price, the country from the address; lines that do not add up are left out', async () => {
    const { campaignId, secret, link } = await setUp();
    const put = await admin.request('PUT', `/api/admin/campaigns/${campaignId}/rewards`, { rules: [
      { event: 'sale', conditions: [{ field: 'sku', op: 'eq', value: 'TEA-01' }], reward: { type: 'percent', bps: 1500 } },
      { event: 'sale', conditions: [{ field: 'category', op: 'eq', value: 'cups' }, { field: 'country', op: 'eq', value: 'FR' }], reward: { type: 'fixed', amount: 500 } },
      { id: 'sale', event: 'sale', reward: { type: 'percent', bps: 1000 } },
    ] });
    expect(put.statusCode, put.body).toBe(200);
    const click = await clickOn(link.code);
    const lineItem = (id: string, amount: number, quantity: number, metadata: Record<string, string>) => ({ id, object: 'item', amount_total: amount, amount_subtotal: amount, quantity, currency: 'cny', price: { id: `price_${id}`, object: 'price', metadata, unit_amount: amount / quantity } });
    const session = (items: unknown[], total: number) => ({
      id: uid('cs'), object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: total, currency: 'cny', client_reference_id: click, customer: 'cus_L1',
      customer_details: { email: 'lines@example.com', address: { country: 'FR' } }, payment_intent: uid('pi'), metadata: {},
      line_items: { object: 'list', has_more: false, data: items },
    });
    const items = [lineItem('li_1', 11_800, 2, { pa_sku: 'TEA-01' }), lineItem('li_2', 3_000, 1, { pa_sku: 'CUP-1', pa_category: 'cups' }), lineItem('li_3', 5_000, 1, {})];
    const full = session(items, 19_800);
    expect((await deliver(campaignId, secret, event('checkout.session.completed', full))).statusCode).toBe(200);
    const sale = (await conversion(campaignId, 'sale', full.id))!;
    expect(JSON.parse(sale.items_json!).map((l: { sku: string; commission: number }) => [l.sku, l.commission])).toEqual([['TEA-01', 1_770], ['CUP-1', 500], ['price_li_3', 500]]);
    expect(sale.country).toBe('FR');
    expect((await commissionsOf(sale.id)).map((c) => Number(c.amount))).toEqual([2_770]);
    // Shipping on top of the lines: they no longer add up to the total, so the sale is one line.
    const shipped = session(items, 20_800);
    await deliver(campaignId, secret, event('checkout.session.completed', shipped));
    const one = (await conversion(campaignId, 'sale', shipped.id))!;
    expect(one.items_json).toBeNull();
    expect((await commissionsOf(one.id)).map((c) => Number(c.amount))).toEqual([2_080]);
  });

  it('a paid checkout is a sale with its click, customer and e-mail digest; replays, bad signatures, stale ones, other currencies and other types change nothing', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const session = { id: uid('cs'), object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: 25_900, currency: 'cny', client_reference_id: click, customer: 'cus_A1', customer_details: { email: 'Buyer@Example.com' }, payment_intent: uid('pi'), metadata: {} };
    const completed = event('checkout.session.completed', session);

    // Not signed with this campaign's secret, or too old, or unsigned: 401, nothing recorded.
    const wrong = await deliver(campaignId, 'whsec_someoneelse123', completed);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toMatchObject({ code: 'SIGNATURE_INVALID', fields: { 'Stripe-Signature': 'mismatch' } });
    expect(errorCode(await deliver(campaignId, secret, completed, { timestamp: Math.floor(Date.now() / 1000) - 360 }))).toBe('SIGNATURE_INVALID');
    expect((await deliver(campaignId, secret, completed, { timestamp: Math.floor(Date.now() / 1000) - 360 })).json().error.fields).toEqual({ 'Stripe-Signature': 'stale' });
    expect((await deliver(campaignId, secret, completed, { signature: 'garbage' })).json().error.fields).toEqual({ 'Stripe-Signature': 'invalid' });
    expect(await conversion(campaignId, 'sale', session.id)).toBeUndefined();

    const res = await deliver(campaignId, secret, completed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ received: true, replayed: false, event: { eventId: completed.id, type: 'checkout.session.completed', outcome: 'recorded', detail: null } });
    const sale = (await conversion(campaignId, 'sale', session.id))!;
    expect(sale).toMatchObject({ status: 'attributed', attributed_by: 'click', click_id: click, customer_external_id: 'cus_A1', customer_email_sha256: sha('buyer@example.com') });
    expect(Number(sale.amount)).toBe(25_900);
    expect((await commissionsOf(sale.id)).map((c) => Number(c.amount))).toEqual([2590]);

    // The same event again (Stripe retries): the stored outcome, nothing new.
    const again = await deliver(campaignId, secret, completed);
    expect(again.json()).toMatchObject({ replayed: true, event: { eventId: completed.id, outcome: 'recorded', conversionId: sale.id } });
    expect((await env.ctx.db.selectFrom('conversions').select('id').where('campaign_id', '=', campaignId).execute()).length).toBe(1);

    // Another currency: acknowledged, kept as rejected, no sale.
    const usd = event('checkout.session.completed', { ...session, id: uid('cs'), currency: 'usd' });
    expect((await deliver(campaignId, secret, usd)).json().event).toMatchObject({ outcome: 'rejected', detail: 'currency_mismatch', conversionId: null });
    // Types it does not act on: acknowledged and ignored.
    expect((await deliver(campaignId, secret, event('customer.created', { id: 'cus_B2', object: 'customer' }))).json().event).toMatchObject({ outcome: 'ignored', detail: 'type_not_handled' });
    // A coupon: metadata.pa_coupon (Stripe's events name a promotion code by id only), or an expanded promotion code.
    const enrollment = await env.ctx.db.selectFrom('enrollments').select('id').where('campaign_id', '=', campaignId).executeTakeFirstOrThrow();
    await admin.request('PATCH', `/api/admin/enrollments/${enrollment.id}`, { couponCode: 'TEA10' });
    const coupon = event('checkout.session.completed', { ...session, id: uid('cs'), client_reference_id: null, discounts: [{ coupon: 'co_1', promotion_code: { id: 'promo_1', object: 'promotion_code', code: 'TEA10' } }] });
    await deliver(campaignId, secret, coupon);
    expect((await conversion(campaignId, 'sale', coupon.data.object.id as string))?.attributed_by).toBe('coupon');
    const byMetadata = event('checkout.session.completed', { ...session, id: uid('cs'), client_reference_id: null, discounts: [{ coupon: 'co_1', promotion_code: 'promo_1' }], metadata: { pa_coupon: 'tea10' } });
    await deliver(campaignId, secret, byMetadata);
    expect((await conversion(campaignId, 'sale', byMetadata.data.object.id as string))?.attributed_by).toBe('coupon');
    // metadata.pa_click wins over a client_reference_id holding the merchant's own id.
    const ownId = event('checkout.session.completed', { ...session, id: uid('cs'), client_reference_id: 'user_123', metadata: { pa_click: click } });
    await deliver(campaignId, secret, ownId);
    expect((await conversion(campaignId, 'sale', ownId.data.object.id as string))).toMatchObject({ attributed_by: 'click', click_id: click });
    // Values the API would refuse are refused here too, as the event's outcome (an amount past the limit).
    const huge = event('checkout.session.completed', { ...session, id: uid('cs'), amount_total: 10 ** 15 });
    expect((await deliver(campaignId, secret, huge)).json().event).toMatchObject({ outcome: 'rejected', detail: 'invalid_object' });
    // A checkout that made an invoice is that invoice's sale: its invoice.paid adds nothing.
    const invoiced = event('checkout.session.completed', { ...session, id: uid('cs'), invoice: uid('in') });
    await deliver(campaignId, secret, invoiced);
    const invoiceId = invoiced.data.object.invoice as string;
    expect((await conversion(campaignId, 'sale', invoiceId))?.attributed_by).toBe('click');
    const samePayment = await deliver(campaignId, secret, event('invoice.paid', { ...invoice('cus_A1', 25_900, Date.now()), id: invoiceId }));
    expect(samePayment.json().event).toMatchObject({ outcome: 'recorded', detail: 'already_recorded' });

    // Operators see every event with what came of it, newest first.
    const listed = (await admin.request('GET', `/api/admin/integrations/stripe/${campaignId}`)).json().events as { eventId: string; type: string; outcome: string }[];
    expect(listed.slice(-4).map((e) => [e.type, e.outcome])).toEqual([['checkout.session.completed', 'recorded'], ['customer.created', 'ignored'], ['checkout.session.completed', 'rejected'], ['checkout.session.completed', 'recorded']]);
    expect([listed.at(-4)!.eventId, listed.at(-2)!.eventId, listed.at(-1)!.eventId]).toEqual([coupon.id, usd.id, completed.id]);
    expect(listed[0]!.eventId).not.toBe(completed.id);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('a partial refund of an invoice takes back its share of the commission; a later one the rest of what was refunded', async () => {
    const { campaignId, secret, link, promoter } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const paid = invoice('cus_R1', 10_000, Date.now() - 60_000, { pa_click: click });
    expect((await deliver(campaignId, secret, event('invoice.paid', paid))).json().event.outcome).toBe('recorded');
    const sale = (await conversion(campaignId, 'sale', paid.id))!;
    expect(sale.attributed_by).toBe('click');
    const [commission] = await commissionsOf(sale.id);
    expect(Number(commission!.amount)).toBe(1000);

    const charge = { id: paid.charge, object: 'charge', amount: 10_000, amount_refunded: 3000, currency: 'cny', refunded: false, invoice: paid.id, payment_intent: paid.payment_intent };
    const first = await deliver(campaignId, secret, event('charge.refunded', charge));
    expect(first.json().event).toMatchObject({ outcome: 'recorded' });
    expect(Number((await conversion(campaignId, 'sale', paid.id))!.refunded_amount)).toBe(3000);
    expect(Number((await commissionsOf(sale.id))[0]!.reversed_amount)).toBe(300);
    // The charge's total refunded grows to 5,000: 2,000 more.
    await deliver(campaignId, secret, event('charge.refunded', { ...charge, amount_refunded: 5000 }));
    expect(Number((await conversion(campaignId, 'sale', paid.id))!.refunded_amount)).toBe(5000);
    expect(Number((await commissionsOf(sale.id))[0]!.reversed_amount)).toBe(500);
    // Two reports of one charge at once (running totals 7,000 and 8,000): 8,000 refunded in all, not 3,000 + 5,000 more.
    const [a, b] = await Promise.all([
      deliver(campaignId, secret, event('charge.refunded', { ...charge, amount_refunded: 7000 })),
      deliver(campaignId, secret, event('charge.refunded', { ...charge, amount_refunded: 8000 })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(Number((await conversion(campaignId, 'sale', paid.id))!.refunded_amount)).toBe(8000);
    expect(Number((await commissionsOf(sale.id))[0]!.reversed_amount)).toBe(800);
    // A refund of a payment it never saw: acknowledged, ignored.
    expect((await deliver(campaignId, secret, event('charge.refunded', { ...charge, id: uid('ch'), invoice: null, payment_intent: uid('pi') }))).json().event).toMatchObject({ outcome: 'ignored', detail: 'sale_unknown' });
    const wallet = (await promoter.request('GET', '/api/wallet')).json();
    expect(wallet.available + wallet.pending).toBe(200);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('newer API versions: the invoice names no payment; invoice_payment.paid links it, and its refund finds the sale', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const { payment_intent: _pi, charge: _ch, ...basil } = invoice('cus_B1', 6000, Date.now() - 60_000, { pa_click: click });
    await deliver(campaignId, secret, event('invoice.paid', basil));
    const sale = (await conversion(campaignId, 'sale', basil.id))!;
    const paymentIntent = uid('pi');
    const refund = event('charge.refunded', { id: uid('ch'), object: 'charge', amount: 6000, amount_refunded: 6000, currency: 'cny', refunded: true, payment_intent: paymentIntent });
    // Before the link: the refund is not ours to match.
    expect((await deliver(campaignId, secret, refund)).json().event).toMatchObject({ outcome: 'ignored', detail: 'sale_unknown' });
    const linked = await deliver(campaignId, secret, event('invoice_payment.paid', { id: uid('inpay'), object: 'invoice_payment', invoice: basil.id, status: 'paid', payment: { type: 'payment_intent', payment_intent: paymentIntent } }));
    expect(linked.json().event).toMatchObject({ outcome: 'recorded', detail: 'payment_linked' });
    expect((await deliver(campaignId, secret, { ...refund, id: uid('evt') })).json().event).toMatchObject({ outcome: 'recorded' });
    expect(Number((await conversion(campaignId, 'sale', basil.id))!.refunded_amount)).toBe(6000);
    expect((await commissionsOf(sale.id))[0]!.status).toBe('reversed');
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  /** What is kept of an event, and the events still waiting for a sale in the campaign. */
  const storedEvent = (campaignId: string, eventId: string) => env.ctx.db.selectFrom('stripe_events').selectAll().where('campaign_id', '=', campaignId).where('event_id', '=', eventId).executeTakeFirstOrThrow();
  const waiting = async (campaignId: string) => new Set((await env.ctx.db.selectFrom('stripe_pending').select('event_id').where('campaign_id', '=', campaignId).execute()).map((r) => r.event_id)).size;
  const refundsOf = (saleId: string) => env.ctx.db.selectFrom('conversions').select(['id', 'amount']).where('refund_of', '=', saleId).execute();

  it('a refund that arrives before its sale waits for it and is taken back once the sale is booked (also through a later payment link)', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const paid = invoice('cus_E1', 10_000, Date.now() - 60_000, { pa_click: click });
    const charge = { id: paid.charge, object: 'charge', amount: 10_000, amount_refunded: 4000, currency: 'cny', refunded: false, invoice: paid.id, payment_intent: paid.payment_intent };
    const early = event('charge.refunded', charge);
    const first = await deliver(campaignId, secret, early);
    expect(first.json()).toMatchObject({ replayed: false, event: { outcome: 'ignored', detail: 'sale_unknown' } });
    // Sent again before the sale: still waiting, nothing new.
    expect((await deliver(campaignId, secret, early)).json()).toMatchObject({ replayed: true, event: { outcome: 'ignored', detail: 'sale_unknown' } });
    expect(await waiting(campaignId)).toBe(1);

    // The sale comes: the refund is taken back with it, and its event now says so.
    expect((await deliver(campaignId, secret, event('invoice.paid', paid))).json().event).toMatchObject({ outcome: 'recorded', detail: null });
    const sale = (await conversion(campaignId, 'sale', paid.id))!;
    expect(Number(sale.refunded_amount)).toBe(4000);
    const [refund] = await refundsOf(sale.id);
    expect(Number(refund!.amount)).toBe(4000);
    expect(Number((await commissionsOf(sale.id))[0]!.reversed_amount)).toBe(400);
    expect(await storedEvent(campaignId, early.id)).toMatchObject({ outcome: 'recorded', detail: null, conversion_id: refund!.id });
    expect(await waiting(campaignId)).toBe(0);
    // Stripe's resend now answers what came of it; the sale's own resend changes nothing either.
    expect((await deliver(campaignId, secret, early)).json()).toMatchObject({ replayed: true, event: { outcome: 'recorded', conversionId: refund!.id } });
    await deliver(campaignId, secret, event('invoice.paid', paid));
    expect(await refundsOf(sale.id)).toHaveLength(1);

    // Newer API versions: the refund names only the payment intent, which an invoice_payment.paid
    // links to the invoice — both may come before the invoice's own invoice.paid.
    const { payment_intent: _pi, charge: _ch, ...basil } = invoice('cus_E2', 6000, Date.now() - 60_000, { pa_click: click });
    const paymentIntent = uid('pi');
    const refundFirst = event('charge.refunded', { id: uid('ch'), object: 'charge', amount: 6000, amount_refunded: 6000, currency: 'cny', refunded: true, payment_intent: paymentIntent });
    const linkFirst = event('invoice_payment.paid', { id: uid('inpay'), object: 'invoice_payment', invoice: basil.id, status: 'paid', payment: { type: 'payment_intent', payment_intent: paymentIntent } });
    expect((await deliver(campaignId, secret, refundFirst)).json().event).toMatchObject({ outcome: 'ignored', detail: 'sale_unknown' });
    expect((await deliver(campaignId, secret, linkFirst)).json().event).toMatchObject({ outcome: 'ignored', detail: 'sale_unknown' });
    await deliver(campaignId, secret, event('invoice.paid', basil));
    const second = (await conversion(campaignId, 'sale', basil.id))!;
    expect(Number(second.refunded_amount)).toBe(6000);
    expect((await commissionsOf(second.id))[0]!.status).toBe('reversed');
    expect(await storedEvent(campaignId, linkFirst.id)).toMatchObject({ outcome: 'recorded', detail: 'payment_linked' });
    expect(await storedEvent(campaignId, refundFirst.id)).toMatchObject({ outcome: 'recorded', detail: null });
    expect(await waiting(campaignId)).toBe(0);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('an event kept as sale_unknown before events waited is acted on again when Stripe sends it again', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const session = { id: uid('cs'), object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: 8000, currency: 'cny', client_reference_id: click, customer: 'cus_K1', payment_intent: uid('pi'), metadata: {} };
    const refund = event('charge.refunded', { id: uid('ch'), object: 'charge', amount: 8000, amount_refunded: 8000, currency: 'cny', refunded: true, payment_intent: session.payment_intent });
    // As an earlier version kept it: the outcome only, nothing waiting.
    await env.ctx.db.insertInto('stripe_events').values({ campaign_id: campaignId, event_id: refund.id, type: 'charge.refunded', outcome: 'ignored', detail: 'sale_unknown', conversion_id: null, received_at: Date.now() - 60_000 }).execute();
    await deliver(campaignId, secret, event('checkout.session.completed', session));
    const sale = (await conversion(campaignId, 'sale', session.id))!;
    expect(Number(sale.refunded_amount)).toBe(0);
    // Resent from Stripe's dashboard: acted on now (not answered with the stored sale_unknown).
    const resent = await deliver(campaignId, secret, refund);
    expect(resent.json()).toMatchObject({ replayed: false, event: { eventId: refund.id, outcome: 'recorded', detail: null } });
    expect(Number((await conversion(campaignId, 'sale', session.id))!.refunded_amount)).toBe(8000);
    expect((await commissionsOf(sale.id))[0]!.status).toBe('reversed');
    expect((await deliver(campaignId, secret, refund)).json()).toMatchObject({ replayed: true, event: { outcome: 'recorded' } });
    expect(await refundsOf(sale.id)).toHaveLength(1);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('a waiting refund is taken back exactly once when its sale, resends of it and its first delivery arrive at once', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const later = (ms: number, send: () => ReturnType<typeof deliver>) => new Promise<Awaited<ReturnType<typeof deliver>>>((resolve, reject) => setTimeout(() => send().then(resolve, reject), ms));
    const rounds = 8;
    for (let round = 0; round < rounds; round++) {
      const paid = invoice(`cus_X${round}`, 10_000, Date.now() - 60_000, { pa_click: click });
      const refund = event('charge.refunded', { id: paid.charge, object: 'charge', amount: 10_000, amount_refunded: 2500, currency: 'cny', refunded: false, invoice: paid.id, payment_intent: paid.payment_intent });
      const sale = event('invoice.paid', paid);
      // Even rounds: the refund waits first, then the sale comes with resends of it spread around it.
      // Odd rounds: the refund's first delivery and the sale at once, one or the other a little ahead.
      if (round % 2 === 0) expect((await deliver(campaignId, secret, refund)).json().event.detail).toBe('sale_unknown');
      const resends = round % 2 === 0 ? [0, 5, 15, 30, 50, 80, 120] : [0, 5 * round];
      const saleAfter = round % 2 === 0 ? 0 : 2 * (round % 4);
      const all = await Promise.all([later(saleAfter, () => deliver(campaignId, secret, sale)), ...resends.map((ms) => later(ms, () => deliver(campaignId, secret, refund)))]);
      expect(all.map((r) => r.statusCode)).toEqual(Array(all.length).fill(200));
      const row = (await conversion(campaignId, 'sale', paid.id))!;
      expect(Number(row.refunded_amount), `round ${round}`).toBe(2500);
      const refunds = await refundsOf(row.id);
      expect(refunds.map((r) => Number(r.amount))).toEqual([2500]);
      expect(Number((await commissionsOf(row.id))[0]!.reversed_amount)).toBe(250);
      expect(await storedEvent(campaignId, refund.id)).toMatchObject({ outcome: 'recorded', detail: null, conversion_id: refunds[0]!.id });
    }
    expect(await waiting(campaignId)).toBe(0);
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  /** PostgreSQL: a connection of the test's own (in the suite's schema, outside the app's pool), and its backend's pid. */
  async function testConnection() {
    const { schema } = (await sql<{ schema: string }>`select current_schema() as schema`.execute(env.ctx.db)).rows[0]!;
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!;
    return Object.assign(client, { pid });
  }
  /** How many backends wait, directly or behind another waiter, on a lock that the backend `holder` holds. */
  async function waitersOn(watcher: pg.Client, holder: number): Promise<number> {
    const { rows } = await watcher.query<{ pid: number; blockers: number[] }>('select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity where cardinality(pg_blocking_pids(pid)) > 0');
    const found = new Set([holder]);
    for (let grew = true; grew;) {
      grew = false;
      for (const r of rows) {
        if (!found.has(r.pid) && r.blockers.some((b) => found.has(b))) {
          found.add(r.pid);
          grew = true;
        }
      }
    }
    return found.size - 1;
  }

  it('a resend that loses to the sale taking its refund back leaves the sale\'s outcome stored: it is written in the refund\'s own transaction', async () => {
    // The interleaving, forced: the sale's delivery takes the waiting refund back and commits, and is
    // held (settleTestPoint) before anything after that commit; Stripe's resend of the refund runs to
    // its end meanwhile. Were the event's outcome stored after the commit rather than in it, the
    // resend would store its own (PostgreSQL: `ignored: already_refunded`, no refund named; SQLite:
    // `already_recorded`) and answer `replayed: false`.
    // On PostgreSQL the resend is also made to lose the race for the sale's lock: the test's own
    // connections hold the refund's waiting rows (the sale's delivery stops before acting on it, its
    // sale booked), then the sale's row, until the delivery and then the resend wait on it in that
    // order. SQLite has one connection, which a transaction holds to its end, so the resend reads
    // after the commit there (and finds the refund recorded).
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const paid = invoice('cus_P1', 10_000, Date.now() - 60_000, { pa_click: click });
    const refund = event('charge.refunded', { id: paid.charge, object: 'charge', amount: 10_000, amount_refunded: 2500, currency: 'cny', refunded: false, invoice: paid.id, payment_intent: paid.payment_intent });
    expect((await deliver(campaignId, secret, refund)).json().event.detail).toBe('sale_unknown');

    let reached!: () => void;
    const atPoint = new Promise<void>((resolve) => { reached = resolve; });
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    settleTestPoint.acted = async (eventId) => {
      if (eventId !== refund.id) return;
      reached();
      await released;
    };
    const connections: Awaited<ReturnType<typeof testConnection>>[] = [];
    try {
      const sale = event('invoice.paid', paid);
      let saleDelivery: Promise<Awaited<ReturnType<typeof deliver>>>;
      let resend: Promise<Awaited<ReturnType<typeof deliver>>>;
      if (dialect === 'postgres') {
        for (let i = 0; i < 3; i++) connections.push(await testConnection());
        const [pending, saleRow, watcher] = connections as [typeof connections[0], typeof connections[0], typeof connections[0]];
        const waitingOn = (holder: { pid: number }, count: number) => expect.poll(() => waitersOn(watcher, holder.pid), { timeout: 10_000, interval: 20 }).toBe(count);
        await pending.query('begin');
        await pending.query('select ref from stripe_pending where campaign_id = $1 and event_id = $2 for update', [campaignId, refund.id]);
        saleDelivery = deliver(campaignId, secret, sale).then((r) => r);
        // The sale is booked; its delivery waits to take the refund off the waiting list.
        await waitingOn(pending, 1);
        await saleRow.query('begin');
        await saleRow.query("select id from conversions where campaign_id = $1 and kind = 'sale' and external_id = $2 for update", [campaignId, paid.id]);
        await pending.query('commit');
        // The delivery waits for the sale's lock (its refund's transaction begun), then the resend behind it.
        await waitingOn(saleRow, 1);
        resend = deliver(campaignId, secret, refund).then((r) => r);
        await waitingOn(saleRow, 2);
        await saleRow.query('commit');
        await atPoint;
      } else {
        saleDelivery = deliver(campaignId, secret, sale).then((r) => r);
        await atPoint;
        resend = deliver(campaignId, secret, refund).then((r) => r);
      }
      // The sale's delivery is held after its commit; the resend ends now.
      const resent = await resend;
      expect(resent.statusCode, resent.body).toBe(200);
      release();
      const sold = await saleDelivery;
      expect(sold.statusCode, sold.body).toBe(200);

      const row = (await conversion(campaignId, 'sale', paid.id))!;
      const refunds = await refundsOf(row.id);
      expect(refunds.map((r) => Number(r.amount))).toEqual([2500]);
      expect(Number(row.refunded_amount)).toBe(2500);
      expect(Number((await commissionsOf(row.id))[0]!.reversed_amount)).toBe(250);
      expect(await storedEvent(campaignId, refund.id)).toMatchObject({ outcome: 'recorded', detail: null, conversion_id: refunds[0]!.id });
      expect(resent.json()).toMatchObject({ replayed: true, event: { eventId: refund.id, outcome: 'recorded', detail: null, conversionId: refunds[0]!.id } });
      expect(await waiting(campaignId)).toBe(0);
      expect(await checkLedger(env.ctx.db)).toEqual([]);
    } finally {
      delete settleTestPoint.acted;
      release();
      for (const client of connections) await client.end().catch(() => undefined);
    }
  });

  it('an amount in no currency is refused, not taken as the installation\'s; a click in the second of the checkout counts', async () => {
    const { campaignId, secret, link } = await setUp();
    const click = await clickOn(link.code, 120_000);
    const session = { id: uid('cs'), object: 'checkout.session', mode: 'payment', payment_status: 'paid', status: 'complete', amount_total: 5000, client_reference_id: click, customer: 'cus_N1', payment_intent: uid('pi'), metadata: {} };
    expect((await deliver(campaignId, secret, event('checkout.session.completed', session))).json().event).toMatchObject({ outcome: 'rejected', detail: 'invalid_object', conversionId: null });
    const { currency: _c, ...noCurrency } = invoice('cus_N1', 5000, Date.now() - 60_000, { pa_click: click });
    expect((await deliver(campaignId, secret, event('invoice.paid', noCurrency))).json().event).toMatchObject({ outcome: 'rejected', detail: 'invalid_object' });
    expect(await conversion(campaignId, 'sale', session.id)).toBeUndefined();
    expect(await conversion(campaignId, 'sale', noCurrency.id)).toBeUndefined();
    // A refund in no currency of a sale that was booked: refused too.
    const booked = invoice('cus_N2', 5000, Date.now() - 60_000, { pa_click: click });
    await deliver(campaignId, secret, event('invoice.paid', booked));
    const refund = event('charge.refunded', { id: booked.charge, object: 'charge', amount: 5000, amount_refunded: 5000, refunded: true, invoice: booked.id, payment_intent: booked.payment_intent });
    expect((await deliver(campaignId, secret, refund)).json().event).toMatchObject({ outcome: 'rejected', detail: 'invalid_object' });
    expect(Number((await conversion(campaignId, 'sale', booked.id))!.refunded_amount)).toBe(0);

    // Stripe's times are whole seconds: a click 400 ms into the second the checkout (or the invoice's payment) happened is before it.
    for (const kind of ['checkout', 'invoice'] as const) {
      const second = Math.floor(Date.now() / 1000) - 30;
      const sameSecond = await clickOn(link.code);
      await env.ctx.db.updateTable('clicks').set({ at: second * 1000 + 400 }).where('id', '=', sameSecond).execute();
      const body = kind === 'checkout'
        ? event('checkout.session.completed', { ...session, id: uid('cs'), currency: 'cny', client_reference_id: sameSecond, payment_intent: uid('pi') }, second)
        : event('invoice.paid', invoice(`cus_${kind}`, 5000, second * 1000, { pa_click: sameSecond }), second + 2);
      expect((await deliver(campaignId, secret, body)).json().event.outcome).toBe('recorded');
      const sale = (await conversion(campaignId, 'sale', body.data.object.id as string))!;
      expect(sale, kind).toMatchObject({ attributed_by: 'click', click_id: sameSecond, occurred_at: expect.anything() });
      expect(Number(sale.occurred_at)).toBe(second * 1000 + 999);
    }
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('takes any of several v1 signatures (a signing secret being rolled), as Stripe signs', async () => {
    const { campaignId, secret } = await setUp();
    const body = event('customer.created', { id: 'cus_V1', object: 'customer' });
    const payload = JSON.stringify(body);
    const timestamp = Math.floor(Date.now() / 1000);
    const good = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
    const old = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_theoldsecret1', timestamp });
    const v1 = (header: string) => header.split(',').find((p) => p.startsWith('v1='))!;
    expect((await deliver(campaignId, secret, body, { signature: `t=${timestamp},${v1(old)},${v1(good)}` })).statusCode).toBe(200);
    expect((await deliver(campaignId, secret, body, { signature: `t=${timestamp},${v1(good)},${v1(old)}` })).statusCode).toBe(200);
    expect((await deliver(campaignId, secret, body, { signature: `t=${timestamp},${v1(old)},${v1(old)}` })).json().error.fields).toEqual({ 'Stripe-Signature': 'mismatch' });
  });

  /** `count` monthly instants from `ago` months back: the 15th of each month at noon UTC (a day in any time zone). */
  function monthly(count: number, ago = 13) {
    const now = new Date();
    return Array.from({ length: count }, (_, k) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - ago + k, 15, 12));
  }

  it('a 13-month subscription on a 12-month campaign earns 12 commissions, then none', async () => {
    const { campaignId, secret, link, promoter } = await setUp({ customerBinding: 12, attributionWindowDays: 30 });
    const enrollment = await env.ctx.db.selectFrom('enrollments').select('id').where('campaign_id', '=', campaignId).executeTakeFirstOrThrow();
    await admin.request('PATCH', `/api/admin/enrollments/${enrollment.id}`, { couponCode: 'YEAR12' });
    const months = monthly(13);
    const click = await clickOn(link.code, Date.now() - months[0]! + 3 * DAY);
    // Every invoice carries the subscription's metadata: the old click and a coupon, which have no say once the binding has run out.
    const invoices = months.map((at) => invoice('cus_S12', 4900, at, { pa_click: click, pa_coupon: 'YEAR12' }));
    for (const inv of invoices) expect((await deliver(campaignId, secret, event('invoice.paid', inv))).json().event.outcome).toBe('recorded');
    const got: (string | null)[] = [];
    for (const inv of invoices) {
      const sale = (await conversion(campaignId, 'sale', inv.id))!;
      const [c] = await commissionsOf(sale.id);
      got.push(c ? `${c.binding_month}/${c.binding_months}` : sale.status);
    }
    expect(got).toEqual([...Array.from({ length: 12 }, (_, i) => `${i + 1}/12`), 'unattributed']);
    // The promoter's commission shows where it stands.
    const listed = (await promoter.request('GET', '/api/commissions')).json().items as { recurring: unknown; amount: number }[];
    expect(listed.length).toBe(12);
    expect(listed.map((c) => c.recurring)).toContainEqual({ month: 3, of: 12 });
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });

  it('a lifetime binding earns every month until the subscription is cancelled; a subscription checkout is its sign-up', async () => {
    const { campaignId, secret, link } = await setUp({ customerBinding: 'lifetime', leadReward: 100 });
    const campaign = (await admin.request('GET', `/api/admin/campaigns/${campaignId}`)).json().campaign;
    expect(campaign.customerBinding).toBe('lifetime');
    const months = monthly(15, 15);
    const click = await clickOn(link.code, Date.now() - months[0]! + DAY);
    // The checkout of the subscription: a lead (the sign-up) with the click, binding the customer.
    // Stripe pays the first invoice before the checkout completes: the sign-up is dated when the checkout began.
    const checkout = event('checkout.session.completed', { id: uid('cs'), object: 'checkout.session', created: Math.floor((months[0]! - 120_000) / 1000), mode: 'subscription', payment_status: 'paid', amount_total: 4900, currency: 'cny', client_reference_id: click, customer: 'cus_L1', customer_details: { email: 'life@example.com' }, subscription: 'sub_L1', metadata: {} }, Math.floor(months[0]! / 1000));
    expect((await deliver(campaignId, secret, checkout)).json().event.outcome).toBe('recorded');
    expect((await conversion(campaignId, 'lead', checkout.data.object.id as string))?.attributed_by).toBe('click');
    // Its invoices carry no click: the binding alone attributes them.
    const invoices = months.slice(0, 14).map((at) => invoice('cus_L1', 4900, at - 60_000));
    for (const inv of invoices) await deliver(campaignId, secret, event('invoice.paid', inv));
    const got: string[] = [];
    for (const inv of invoices) {
      const [c] = await commissionsOf((await conversion(campaignId, 'sale', inv.id))!.id);
      got.push(`${c?.binding_month}/${c?.binding_months}`);
    }
    expect(got).toEqual(Array.from({ length: 14 }, (_, i) => `${i + 1}/null`));
    // Cancelled: the binding ends; the next invoice (after) earns nothing.
    const endedAt = Math.floor((months[14]! - DAY) / 1000);
    expect((await deliver(campaignId, secret, event('customer.subscription.deleted', { id: 'sub_L1', object: 'subscription', customer: 'cus_L1', status: 'canceled', ended_at: endedAt, canceled_at: endedAt }))).json().event).toMatchObject({ outcome: 'recorded', detail: 'binding_ended' });
    const late = invoice('cus_L1', 4900, months[14]!);
    await deliver(campaignId, secret, event('invoice.paid', late));
    expect((await conversion(campaignId, 'sale', late.id))?.status).toBe('unattributed');
    expect(await checkLedger(env.ctx.db)).toEqual([]);
  });
});
