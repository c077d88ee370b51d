/**
 * The Stripe receiver (issue 17; docs/integrations.md): `POST api/v1/integrations/stripe/:campaignId`
 * takes Stripe's webhook events for one campaign, verified with the signing secret an admin set for
 * it (`Stripe-Signature`, 5 minutes' tolerance) — the signature is the only authentication — and
 * turns them into the same conversions the API records:
 * - `checkout.session.completed`: a paid one-off checkout is a sale (externalId = the session id);
 *   a subscription checkout is a lead (the sign-up: it binds the customer on a recurring campaign),
 *   its invoices being the sales;
 * - `invoice.paid`: a sale per paid invoice (externalId = the invoice id);
 * - `charge.refunded`: a refund of what was newly refunded, of the sale the payment became;
 * - `customer.subscription.deleted`: ends the customer's binding.
 * The click comes from `client_reference_id` or `metadata.pa_click` (a subscription's invoices: its
 * metadata), the coupon from an expanded promotion code or `metadata.pa_coupon`. Each event is
 * acted on once (its id); others are acknowledged and ignored. What came of each is kept for operators.
 * Stripe does not keep its events in order: a refund (or a payment's link) that arrives before its
 * sale waits for it (`stripe_pending`) and is acted on when the sale is booked, or when Stripe sends it
 * again; the refund's running total makes acting on it twice take nothing more.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConversionCreateSchema, type StripeEvent, type StripeSecret, type StripeStatus } from '@pa/shared';
import type { AppContext } from '../../context';
import type { StripeEventsTable, StripePendingTable } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { findUnstorable } from '../../platform/boundary';
import { emailSha256 } from '../../platform/email-digest';
import { AppError } from '../../platform/errors';
import { readSettings } from '../../platform/settings';
import { endCustomerBinding, recordConversion, recordRefundToTotal } from '../commissions/service';
import * as repo from './repository';

const SECRET_AAD = 'stripe-signing-secret';
const STRIPE_TOLERANCE_S = 300;
const LATEST_EVENTS = 50;

/** Sets (or replaces) a campaign's signing secret; it is never shown again. */
export async function setStripeSecret(ctx: AppContext, actor: Actor, campaignId: string, body: StripeSecret): Promise<StripeStatus> {
  if (!(await repo.campaignExists(ctx.db, campaignId))) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  const now = Date.now();
  await ctx.db.transaction().execute(async (q) => {
    const replaced = await repo.upsertStripeEndpoint(q, { campaign_id: campaignId, secret_sealed: ctx.master.encrypt(body.signingSecret.trim(), SECRET_AAD), updated_by: actor.userId, now });
    await audit(q, { actorId: actor.userId, action: 'integration.stripe_secret', entity: 'campaign', entityId: campaignId, after: { stripe: replaced ? 'replaced' : 'set' }, ip: actor.ip }, now);
  });
  return stripeStatus(ctx, campaignId);
}

const toEvent = (r: StripeEventsTable): StripeEvent => ({ eventId: r.event_id, type: r.type, outcome: r.outcome, detail: r.detail, conversionId: r.conversion_id, receivedAt: Number(r.received_at) });

/** Whether the campaign takes Stripe events, and the latest ones with what came of them. */
export async function stripeStatus(ctx: AppContext, campaignId: string): Promise<StripeStatus> {
  if (!(await repo.campaignExists(ctx.db, campaignId))) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  const endpoint = await repo.stripeEndpoint(ctx.db, campaignId);
  const events = await repo.latestStripeEvents(ctx.db, campaignId, LATEST_EVENTS);
  return { campaignId, configured: !!endpoint, updatedAt: endpoint ? Number(endpoint.updated_at) : null, events: events.map(toEvent) };
}

/** Stripe's scheme: `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>`, possibly several v1 (a secret being rolled). */
function verify(header: string | undefined, secret: string, body: Buffer, nowS: number) {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('=')).filter((p) => p.length === 2) as [string, string][];
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const given = parts.filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/i.test(v)).map(([, v]) => Buffer.from(v, 'hex'));
  if (!Number.isInteger(t) || given.length === 0) throw new AppError('SIGNATURE_INVALID', { 'Stripe-Signature': 'invalid' });
  if (Math.abs(nowS - t) > STRIPE_TOLERANCE_S) throw new AppError('SIGNATURE_INVALID', { 'Stripe-Signature': 'stale' });
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  if (!given.some((g) => timingSafeEqual(g, expected))) throw new AppError('SIGNATURE_INVALID', { 'Stripe-Signature': 'mismatch' });
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const int = (v: unknown): number | undefined => (Number.isSafeInteger(v) ? (v as number) : undefined);

/**
 * A checkout's lines for the reward rules (issue 31, docs/rewards.md), when the event carries them
 * (`line_items` expanded): the SKU is the price's `metadata.pa_sku` (else the price's id), the
 * category its `metadata.pa_category`; lines of one SKU are added together. Only when the lines add
 * up to the checkout's total (shipping or an order-level adjustment would not): else none, and the
 * sale earns by the rules as one line.
 */
function checkoutItems(session: Obj, amount: number): { sku: string; category?: string; quantity: number; amount: number }[] | undefined {
  const data = obj(session.line_items).data;
  if (!Array.isArray(data) || data.length === 0 || data.length > 100) return undefined;
  const lines = new Map<string, { sku: string; category?: string; quantity: number; amount: number }>();
  for (const raw of data) {
    const li = obj(raw);
    const price = obj(li.price);
    const meta = obj(price.metadata);
    const sku = (str(meta.pa_sku) ?? str(price.id) ?? str(li.id))?.trim().slice(0, 100);
    const total = int(li.amount_total);
    if (!sku || total === undefined || total < 0) return undefined;
    const category = str(meta.pa_category)?.trim().slice(0, 100);
    const quantity = Math.max(int(li.quantity) ?? 1, 1);
    const line = lines.get(sku);
    if (line) Object.assign(line, { quantity: line.quantity + quantity, amount: line.amount + total });
    else lines.set(sku, { sku, ...(category ? { category } : {}), quantity, amount: total });
  }
  const items = [...lines.values()];
  return items.reduce((sum, i) => sum + i.amount, 0) === amount ? items : undefined;
}
/** An id of Stripe's, or the id of an expanded object. */
const idOf = (v: unknown) => str(v) ?? str(obj(v).id);
const emailDigest = (email: string | undefined) => (email ? emailSha256(email) : undefined);
/** What our API takes as a click id / coupon code (longer or odd values are left out, not refused). */
const clickOf = (v: unknown) => { const s = str(v)?.trim(); return s && /^[0-9A-Za-z_-]{1,64}$/.test(s) ? s : undefined; };
const couponOf = (v: unknown) => { const s = str(v)?.trim(); return s && s.length <= 64 ? s : undefined; };

interface Outcome {
  outcome: StripeEventsTable['outcome'];
  detail: string | null;
  conversionId: string | null;
  /** No sale for its payment yet: the references it names, and the fields of its object to act on it with when one is booked. */
  wait?: { refs: string[]; object: Obj };
  /** Already stored as the event's outcome (in the refund's own transaction). */
  stored?: boolean;
}
const SALE_UNKNOWN = 'sale_unknown';
const ignored = (detail: string): Outcome => ({ outcome: 'ignored', detail, conversionId: null });
const rejected = (detail: string): Outcome => ({ outcome: 'rejected', detail, conversionId: null });

/** Refused by the rules (a paused campaign, a value out of range): kept, not retried. */
const refusal = (error: AppError) => rejected(error.fields ? `${error.code} ${Object.entries(error.fields).map(([k, v]) => `${k}:${v}`).join(' ')}` : error.code);

/** Records what an event says through the conversions API's own rules (and its limits: the schema). */
async function record(ctx: AppContext, input: Record<string, unknown>): Promise<Outcome> {
  const parsed = ConversionCreateSchema.safeParse(input);
  if (!parsed.success) return rejected('invalid_object');
  try {
    const result = await recordConversion(ctx, null, parsed.data);
    return { outcome: 'recorded', detail: result.created ? null : 'already_recorded', conversionId: result.conversionId };
  } catch (error) {
    if (error instanceof AppError) return refusal(error);
    throw error;
  }
}

const refs = (...ids: (string | undefined)[]) => ids.filter((r): r is string => !!r);
/**
 * Stripe's times are whole seconds: the end of that second, so that a click made during it (our
 * clicks have milliseconds) counts as before the sale.
 */
const endOfSecond = (s: number) => s * 1000 + 999;

interface StripeEventRef { id: string; type: string; created: number }

async function act(ctx: AppContext, campaignId: string, event: StripeEventRef, object: Obj, currency: string): Promise<Outcome> {
  const occurredAt = endOfSecond(event.created);
  const wrongCurrency = (o: Obj) => str(o.currency) !== undefined && str(o.currency)!.toUpperCase() !== currency;
  switch (event.type) {
    case 'checkout.session.completed': {
      if (wrongCurrency(object)) return rejected('currency_mismatch');
      const sessionId = str(object.id);
      if (!sessionId) return rejected('invalid_object');
      const metadata = obj(object.metadata);
      const discount = obj((Array.isArray(object.discounts) ? object.discounts : [])[0]);
      const shared = {
        campaignId,
        // metadata.pa_click first: client_reference_id may hold the merchant's own id.
        clickId: clickOf(metadata.pa_click) ?? clickOf(object.client_reference_id),
        // Stripe's events name a promotion code by id unless it was expanded: metadata.pa_coupon says it plainly.
        couponCode: couponOf(metadata.pa_coupon) ?? couponOf(obj(discount.promotion_code).code),
        customerExternalId: idOf(object.customer),
        customerEmailSha256: emailDigest(str(obj(object.customer_details).email) ?? str(object.customer_email)),
      };
      // A subscription's sign-up: a lead, dated when the checkout began (before its first invoice was paid).
      const began = int(object.created);
      if (object.mode === 'subscription') return record(ctx, { ...shared, kind: 'lead', externalId: sessionId, occurredAt: began && began <= event.created ? endOfSecond(began) : occurredAt });
      if (object.mode !== 'payment') return ignored(`mode_${String(object.mode).slice(0, 40)}`);
      if (object.payment_status !== 'paid') return ignored('not_paid');
      const amount = int(object.amount_total);
      if (!amount || amount <= 0) return ignored('no_amount');
      // An amount in no currency (not Stripe's shape) would be taken as the installation's.
      if (!str(object.currency)) return rejected('invalid_object');
      // A checkout that also made an invoice (invoice_creation) is that invoice's sale: its
      // invoice.paid is then the same sale, not a second one.
      const externalId = idOf(object.invoice) ?? sessionId;
      const items = checkoutItems(object, amount);
      const country = str(obj(obj(object.customer_details).address).country);
      const lines = { ...(items ? { items } : {}), ...(country && /^[A-Z]{2}$/i.test(country) ? { country } : {}) };
      const outcome = await record(ctx, { ...shared, kind: 'sale', externalId, amount, occurredAt, ...lines });
      if (outcome.outcome === 'recorded') await booked(ctx, campaignId, refs(sessionId, idOf(object.invoice), idOf(object.payment_intent)), externalId, currency);
      return outcome;
    }
    case 'invoice.paid': {
      if (wrongCurrency(object)) return rejected('currency_mismatch');
      const invoiceId = str(object.id);
      if (!invoiceId) return rejected('invalid_object');
      const amount = int(object.amount_paid);
      if (!amount || amount <= 0) return ignored('no_amount');
      if (!str(object.currency)) return rejected('invalid_object');
      // A subscription's metadata reaches its invoices (older API versions: subscription_details; newer: parent).
      const metadata = { ...obj(object.metadata), ...obj(obj(object.subscription_details).metadata), ...obj(obj(obj(object.parent).subscription_details).metadata) };
      const paidAt = int(obj(object.status_transitions).paid_at);
      const outcome = await record(ctx, {
        campaignId, kind: 'sale', externalId: invoiceId, amount, occurredAt: paidAt && paidAt <= event.created + 300 ? endOfSecond(paidAt) : occurredAt,
        clickId: clickOf(metadata.pa_click), couponCode: couponOf(metadata.pa_coupon),
        customerExternalId: idOf(object.customer), customerEmailSha256: emailDigest(str(object.customer_email)),
      });
      // Its payment, for refunds: named on the invoice before API version 2025-03-31; after, by invoice_payment.paid.
      if (outcome.outcome === 'recorded') await booked(ctx, campaignId, refs(invoiceId, idOf(object.payment_intent), idOf(object.charge)), invoiceId, currency);
      return outcome;
    }
    case 'invoice_payment.paid': {
      const invoiceId = idOf(object.invoice);
      const payment = obj(object.payment);
      const paymentRefs = refs(idOf(payment.payment_intent), idOf(payment.charge));
      if (!invoiceId || paymentRefs.length === 0) return rejected('invalid_object');
      const sale = await repo.saleOfRef(ctx.db, campaignId, [invoiceId]);
      if (!sale) return { ...ignored(SALE_UNKNOWN), wait: { refs: [invoiceId], object: { invoice: invoiceId, payment: { payment_intent: idOf(payment.payment_intent) ?? null, charge: idOf(payment.charge) ?? null } } } };
      await booked(ctx, campaignId, paymentRefs, sale, currency);
      return { outcome: 'recorded', detail: 'payment_linked', conversionId: null };
    }
    case 'charge.refunded': {
      if (wrongCurrency(object)) return rejected('currency_mismatch');
      const chargeId = str(object.id);
      const refunded = int(object.amount_refunded);
      if (!chargeId || chargeId.length > 100 || refunded === undefined || refunded < 0 || !str(object.currency)) return rejected('invalid_object');
      const paymentRefs = refs(idOf(object.payment_intent), idOf(object.invoice), chargeId);
      const sale = await repo.saleOfRef(ctx.db, campaignId, paymentRefs);
      if (!sale) return { ...ignored(SALE_UNKNOWN), wait: { refs: paymentRefs, object: { id: chargeId, amount_refunded: refunded, currency: object.currency, payment_intent: idOf(object.payment_intent) ?? null, invoice: idOf(object.invoice) ?? null } } };
      // amount_refunded is the charge's total so far: what is new is worked out on the locked sale.
      // An event that waited for its sale is marked done in the refund's own transaction: another
      // delivery acting on it at once finds nothing new to refund, and does not overwrite that.
      let stored = false;
      try {
        const result = await recordRefundToTotal(ctx, { campaignId, refundOf: sale, externalId: `${chargeId}/${refunded}`, refundedTotal: refunded, occurredAt }, async (q, r) => {
          stored = await repo.resolveWaitingEvent(q, campaignId, event.id, { outcome: 'recorded', detail: null, conversion_id: r.conversionId });
        });
        return result ? { outcome: 'recorded', detail: result.created ? null : 'already_recorded', conversionId: result.conversionId, stored } : ignored('already_refunded');
      } catch (error) {
        if (error instanceof AppError) return refusal(error);
        throw error;
      }
    }
    case 'customer.subscription.deleted': {
      const customer = idOf(object.customer);
      if (!customer || customer.length > 128) return rejected('invalid_object');
      const endedAt = int(object.ended_at) ?? int(object.canceled_at) ?? event.created;
      return (await endCustomerBinding(ctx, campaignId, customer, endedAt * 1000)) ? { outcome: 'recorded', detail: 'binding_ended', conversionId: null } : ignored('no_binding');
    }
    default:
      return ignored('type_not_handled');
  }
}

/** One delivery from Stripe: verified, then acted on once per event id. */
export async function receiveStripe(ctx: AppContext, campaignId: string, rawBody: Buffer | undefined, signature: string | undefined, body: unknown): Promise<{ replayed: boolean; event: StripeEvent }> {
  // Unsigned is refused before anything is looked up: it tells a stranger nothing about campaigns.
  if (!signature) throw new AppError('SIGNATURE_INVALID', { 'Stripe-Signature': 'required' });
  const endpoint = await repo.stripeEndpoint(ctx.db, campaignId);
  if (!endpoint) throw new AppError('NOT_FOUND', { campaignId: 'not_found' });
  verify(signature, ctx.master.decrypt(endpoint.secret_sealed, SECRET_AAD).toString('utf8'), rawBody ?? Buffer.alloc(0), Math.floor(Date.now() / 1000));
  const event = obj(body);
  const eventId = str(event.id);
  const type = str(event.type);
  const created = int(event.created);
  if (!eventId || eventId.length > 255 || !type || type.length > 100 || created === undefined || created <= 0) throw new AppError('VALIDATION_FAILED', { _: 'invalid' });
  const unstorableHead = findUnstorable({ id: eventId, type });
  if (unstorableHead) throw new AppError('VALIDATION_FAILED', { [unstorableHead]: 'invalid' });
  const earlier = await repo.stripeEvent(ctx.db, campaignId, eventId);
  // A repeat is answered with what came of it — unless it was waiting for its sale: then it is acted on again.
  if (earlier && !waitingForSale(earlier)) return { replayed: true, event: toEvent(earlier) };
  const currency = (await readSettings(ctx.db)).currency.toUpperCase();
  const ref: StripeEventRef = { id: eventId, type, created };
  // A NUL or a lone surrogate anywhere else (the boundary leaves this body to us): kept as
  // rejected and acknowledged, as a 400 would be retried by Stripe for days.
  const outcome = findUnstorable(event) ? rejected('invalid_object') : await act(ctx, campaignId, ref, obj(obj(event.data).object), currency);
  if (earlier) {
    // Still no sale (the event may have been kept before events waited): it waits from now on.
    if (outcome.wait) await repo.insertPending(ctx.db, pendingRows(campaignId, ref, outcome.wait));
    const changed = outcome.wait ? await settleIfBooked(ctx, campaignId, ref, outcome.wait, currency) : await storeAgain(ctx, campaignId, ref, outcome);
    return { replayed: !changed, event: toEvent((await repo.stripeEvent(ctx.db, campaignId, eventId)) ?? earlier) };
  }
  const row: StripeEventsTable = { campaign_id: campaignId, event_id: eventId, type, outcome: outcome.outcome, detail: outcome.detail, conversion_id: outcome.conversionId, received_at: Date.now() };
  // Waiting for its sale: the event and its place on the waiting list are written together, so
  // whoever books the sale finds both.
  const inserted = await ctx.db.transaction().execute(async (q) => {
    if (!(await repo.insertStripeEvent(q, row))) return false;
    if (outcome.wait) await repo.insertPending(q, pendingRows(campaignId, ref, outcome.wait));
    return true;
  });
  if (!inserted) {
    // Another delivery of the same event got there first (what it did is idempotent too).
    const stored = await repo.stripeEvent(ctx.db, campaignId, eventId);
    if (stored) return { replayed: true, event: toEvent(stored) };
  }
  if (!outcome.wait) return { replayed: false, event: toEvent(row) };
  // The sale may have been booked since it was looked for, by a delivery that looked for waiting events before this one was written.
  await settleIfBooked(ctx, campaignId, ref, outcome.wait, currency);
  return { replayed: false, event: toEvent((await repo.stripeEvent(ctx.db, campaignId, eventId)) ?? row) };
}

const waitingForSale = (e: Pick<StripeEventsTable, 'outcome' | 'detail'>) => e.outcome === 'ignored' && e.detail === SALE_UNKNOWN;

function pendingRows(campaignId: string, event: StripeEventRef, wait: NonNullable<Outcome['wait']>): StripePendingTable[] {
  const objectJson = JSON.stringify(wait.object);
  const receivedAt = Date.now();
  return [...new Set(wait.refs)].filter((r) => r.length <= 255).map((ref) => ({ campaign_id: campaignId, ref, event_id: event.id, type: event.type, created: event.created, object_json: objectJson, received_at: receivedAt }));
}

/**
 * What came of a waiting event acted on again (Stripe sent it again, or its sale was booked), stored
 * if it still says `sale_unknown`; it waits no more. true: this call changed what is stored.
 */
async function storeAgain(ctx: AppContext, campaignId: string, event: StripeEventRef, outcome: Outcome): Promise<boolean> {
  const changed = outcome.stored || (await repo.resolveWaitingEvent(ctx.db, campaignId, event.id, { outcome: outcome.outcome, detail: outcome.detail, conversion_id: outcome.conversionId }));
  await repo.takePending(ctx.db, campaignId, event.id);
  return changed;
}

/** Settles a waiting event when its sale turns out to be booked after all. */
async function settleIfBooked(ctx: AppContext, campaignId: string, event: StripeEventRef, wait: NonNullable<Outcome['wait']>, currency: string): Promise<boolean> {
  if (!(await repo.saleOfRef(ctx.db, campaignId, wait.refs))) return false;
  return settle(ctx, campaignId, event, currency);
}

/**
 * Acts on a waiting event now that its sale is there. Whoever takes it off the waiting list acts on
 * it (so a chain of links and refunds ends); a resend from Stripe's dashboard at the same time acts
 * on it too, and the refund's running total makes that take nothing more. If acting fails, the
 * event goes back on the list (the sale's delivery fails with it, and Stripe's retry finds it again).
 */
async function settle(ctx: AppContext, campaignId: string, event: StripeEventRef, currency: string): Promise<boolean> {
  const taken = await repo.takePending(ctx.db, campaignId, event.id);
  if (taken.length === 0) return false;
  let outcome: Outcome;
  try {
    outcome = await act(ctx, campaignId, event, JSON.parse(taken[0]!.object_json) as Obj, currency);
  } catch (error) {
    await repo.insertPending(ctx.db, taken).catch(() => undefined);
    throw error;
  }
  if (outcome.wait) {
    await repo.insertPending(ctx.db, taken);
    return false;
  }
  await settleTestPoint.acted?.(event.id);
  return storeAgain(ctx, campaignId, event, outcome);
}

/**
 * Tests only (never set by the server): awaited in `settle` once a waiting event has been acted on
 * for its sale — a refund's transaction committed — and before what came of it is stored outside
 * that transaction. stripe.test.ts parks a sale's delivery here while Stripe's resend of the refund
 * runs to its end. No database lock can hold this window open: the delivery's next statement is the
 * same update of the same row as the resend's last, asked for as soon as it committed, while the
 * resend can only decide after that commit — it queues first for the row, the pool or SQLite's one
 * connection, whatever the test holds.
 */
export const settleTestPoint: { acted?: (eventId: string) => Promise<void> } = {};

/** A sale's payment references are stored: the events that waited for one of them are acted on. */
async function booked(ctx: AppContext, campaignId: string, paymentRefs: string[], externalId: string, currency: string) {
  await repo.insertRefs(ctx.db, campaignId, paymentRefs, externalId);
  for (const waiting of await repo.pendingFor(ctx.db, campaignId, paymentRefs)) {
    await settle(ctx, campaignId, { id: waiting.event_id, type: waiting.type, created: Number(waiting.created) }, currency);
  }
}
