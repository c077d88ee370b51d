/**
 * Webhooks (issue 16): endpoints admins register, events written to an outbox in the transaction
 * of the change that caused them, and their delivery — signed (Standard Webhooks), retried on a
 * schedule, every attempt logged, at least once, by any number of instances.
 *
 * - **The outbox** (platform/webhooks/outbox.ts): a service adds an event with `emitEvent`, and
 *   at the flush, inside the same transaction, the event is stored with one delivery per enabled
 *   endpoint that subscribes to its type. No event without its change, no change without its
 *   event.
 * - **The dispatcher** (every instance runs one) claims due deliveries with a conditional update
 *   (`claimed_until`), sends each, and records the attempt and the outcome: any 2xx succeeds; 410
 *   disables the endpoint; anything else (another status, no answer within 10 s, a refused
 *   address) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the delivery has
 *   failed. A claim lasts longer than an attempt can, so an instance that dies mid-attempt only
 *   delays the delivery: another takes it when the claim has run out (at least once).
 * - Sending happens off the request path: a slow or dead receiver holds a dispatcher slot, never a
 *   request or a group commit.
 */
import type { WebhookDelivery, WebhookEndpoint, WebhookEndpointPatch, WebhookEventType } from '@pa/shared';
import { DEFAULT_APP_NAME, WEBHOOK_PREVIOUS_SECRET_MS, WEBHOOK_TEST_EVENT, type Locale } from '@pa/shared';
import { interpolate, SERVER_TEXTS } from '@pa/shared/texts';
import type { AppContext } from '../../context';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { urlProblem } from '../../platform/outbound-address';
import { WEBHOOK_OUTBOX, eventRows, pendingDelivery, type CachedEndpoint, type Envelope, type EnvelopeEvent } from '../../platform/webhooks/outbox';
import type { Tx } from '../../db/unit-of-work';
import type { AttemptOutcome } from '../../platform/webhooks/send';
import { inlineSender, threadedSender, type WebhookSender } from '../../platform/webhooks/sender';
import { newWebhookSecret } from '../../platform/webhooks/signing';
import { claimDue } from '../../platform/outbox-claims';
import { alertStaff } from '../staff-alerts/service';
import * as repo from './repository';

const SECRET_AAD = 'webhook-secret';
const LIST_LIMIT = 200;
/** After the nth failed attempt, the next one this much later; after the last, the delivery has failed. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries one dispatcher pass claims and sends at once (at most 64 connections per receiver's host, platform/webhooks/send.ts). */
const PASS_SIZE = 128;
/** An endpoint whose deliveries have failed, none succeeding, for this long is disabled. */
const FAILING_DISABLE_MS = 5 * 86_400_000;

const toEndpoint = (r: repo.EndpointRow, lastError: Awaited<ReturnType<typeof repo.lastFailedAttempt>> = undefined): WebhookEndpoint => {
  // Failing: enabled, and no delivery has succeeded since its first failure (`failing_since`).
  const failing = r.status === 'enabled' && r.failing_since != null;
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: JSON.parse(r.events_json) as WebhookEventType[],
    status: r.status,
    disabledReason: r.disabled_reason,
    failingSince: failing ? Number(r.failing_since) : null,
    lastError: failing && lastError ? { at: Number(lastError.at), statusCode: lastError.status_code === null ? null : Number(lastError.status_code), error: lastError.error } : null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
};

/** An endpoint as the console shows it; a failing one with its latest failed attempt (few are failing: one query each). */
const endpointOf = async (db: AppContext['db'], r: repo.EndpointRow) => toEndpoint(r, r.status === 'enabled' && r.failing_since != null ? await repo.lastFailedAttempt(db, r.id) : undefined);

export async function endpoints(ctx: AppContext): Promise<WebhookEndpoint[]> {
  const rows = await repo.listEndpoints(ctx.db, LIST_LIMIT);
  return Promise.all(rows.map((r) => endpointOf(ctx.db, r)));
}

/** An endpoint URL the outbound policy takes; plain http to a public address, or an address not allowed at all, is not_allowed. */
function checkUrl(ctx: AppContext, url: string) {
  const problem = urlProblem(url, ctx.config.webhookAllowPrivate);
  if (problem) throw new AppError('VALIDATION_FAILED', { url: problem === 'invalid' ? 'invalid' : 'not_allowed' });
}

/** Registers an endpoint; its secret is in this answer only (stored sealed). */
export async function createEndpoint(ctx: AppContext, actor: Actor, input: { url: string; events: WebhookEventType[]; description?: string | undefined }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  checkUrl(ctx, input.url);
  const secret = newWebhookSecret();
  const now = Date.now();
  const events = [...new Set(input.events)];
  const row: WebhookEndpointsTable = {
    id: newId(now), url: input.url, description: input.description || null, events_json: JSON.stringify(events),
    secret_sealed: ctx.master.encrypt(secret, SECRET_AAD), previous_secret_sealed: null, previous_until: null,
    status: 'enabled', disabled_reason: null, failing_since: null, created_by: actor.userId, created_at: now, updated_at: now,
  };
  await ctx.uow.run(async ({ q }) => {
    await repo.insertEndpoint(q, row);
    await audit(q, { actorId: actor.userId, action: 'webhook.create', entity: 'webhook', entityId: row.id, after: { url: row.url, events, description: row.description }, ip: actor.ip }, now);
  });
  ctx.webhooks.forget();
  return { endpoint: toEndpoint(row), secret };
}

export async function deleteEndpoint(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const now = Date.now();
  await ctx.uow.run(async ({ q }) => {
    const row = await repo.endpointById(q, id);
    if (!row) throw new AppError('NOT_FOUND');
    await repo.deleteEndpoint(q, id);
    await audit(q, { actorId: actor.userId, action: 'webhook.delete', entity: 'webhook', entityId: id, before: { url: row.url, events: JSON.parse(row.events_json) as unknown }, ip: actor.ip }, now);
  });
  ctx.webhooks.forget();
}

/**
 * Changes an endpoint's address, events, description or status. Enabling it again clears why it
 * was disabled and its failing mark; deliveries that failed meanwhile stay failed (retry them).
 */
export async function updateEndpoint(ctx: AppContext, actor: Actor, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpoint> {
  if (patch.url !== undefined) checkUrl(ctx, patch.url);
  const now = Date.now();
  const after = await ctx.uow.run(async ({ q }) => {
    const row = await repo.endpointById(q, id);
    if (!row) throw new AppError('NOT_FOUND');
    const set: Parameters<typeof repo.updateEndpoint>[2] = { updated_at: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events_json = JSON.stringify([...new Set(patch.events)]);
    if (patch.description !== undefined) set.description = patch.description || null;
    if (patch.status !== undefined && patch.status !== row.status) {
      set.status = patch.status;
      set.disabled_reason = patch.status === 'disabled' ? 'by_admin' : null;
      set.failing_since = null;
    }
    await repo.updateEndpoint(q, id, set);
    const changed = (await repo.endpointById(q, id))!;
    const shown = (r: repo.EndpointRow) => ({ url: r.url, events: JSON.parse(r.events_json) as unknown, description: r.description, status: r.status });
    await audit(q, { actorId: actor.userId, action: 'webhook.update', entity: 'webhook', entityId: id, before: shown(row), after: shown(changed), ip: actor.ip }, now);
    return changed;
  });
  ctx.webhooks.forget();
  return endpointOf(ctx.db, after);
}

/**
 * A new signing secret, in this answer only. The previous one keeps signing beside it for
 * WEBHOOK_PREVIOUS_SECRET_MS (two signatures in the header), so receivers can switch unhurried.
 */
export async function rotateSecret(ctx: AppContext, actor: Actor, id: string): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const now = Date.now();
  const row = await ctx.uow.run(async ({ q }) => {
    const current = await repo.endpointSecrets(q, id);
    if (!current) throw new AppError('NOT_FOUND');
    await repo.updateEndpoint(q, id, { secret_sealed: ctx.master.encrypt(secret, SECRET_AAD), previous_secret_sealed: current.secret_sealed, previous_until: now + WEBHOOK_PREVIOUS_SECRET_MS, updated_at: now });
    await audit(q, { actorId: actor.userId, action: 'webhook.rotate_secret', entity: 'webhook', entityId: id, after: { previousUntil: now + WEBHOOK_PREVIOUS_SECRET_MS }, ip: actor.ip }, now);
    return (await repo.endpointById(q, id))!;
  });
  // Deliveries sent from memory sign with the endpoints' cached secrets: both secrets from now on.
  ctx.webhooks.forget();
  return { endpoint: await endpointOf(ctx.db, row), secret };
}

/** Sends a delivery that has ended again, now (its attempts so far stay in its log). */
export async function retryDelivery(ctx: AppContext, actor: Actor, id: string) {
  const now = Date.now();
  await ctx.uow.run(async ({ q }) => {
    const d = await repo.deliveryState(q, id);
    if (!d) throw new AppError('NOT_FOUND');
    if (d.status === 'pending') throw new AppError('INVALID_STATE_TRANSITION');
    // Its successful attempt stays in its log, among the others.
    if (d.last_attempt_at !== null) await repo.insertAttempts(q, [{ id: newId(Number(d.last_attempt_at)), delivery_id: id, at: Number(d.last_attempt_at), status_code: d.last_status_code, duration_ms: Number(d.last_duration_ms ?? 0), error: null }]);
    await repo.requeueDelivery(q, id, now);
    await audit(q, { actorId: actor.userId, action: 'webhook.retry', entity: 'webhook', entityId: d.endpoint_id, before: { delivery: id, status: d.status }, after: { status: 'pending' }, ip: actor.ip }, now);
  });
  return { delivery: { id, status: 'pending' as const, nextAttemptAt: now } };
}

/**
 * Sends `webhook.test` to one endpoint (through the outbox, like any event). Its `message` is for
 * the person who pressed the button and reads the receiver's log: in their language (the console's,
 * `locale`), naming the installation as its mails do. Receivers act on `type`, never on `message`.
 */
export async function sendTest(ctx: AppContext, actor: Actor, id: string, locale: Locale): Promise<void> {
  const now = Date.now();
  const message = interpolate(SERVER_TEXTS[locale].webhookTest.message, { app: ctx.config.mail?.appName ?? DEFAULT_APP_NAME[locale] });
  await ctx.uow.run(async (tx) => {
    const row = await repo.endpointById(tx.q, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'enabled') throw new AppError('INVALID_STATE_TRANSITION');
    tx.collect(WEBHOOK_OUTBOX).events.push({ type: WEBHOOK_TEST_EVENT, data: { endpointId: id, message }, endpointIds: [id], local: ctx.webhooks.local });
    await audit(tx.q, { actorId: actor.userId, action: 'webhook.test', entity: 'webhook', entityId: id, ip: actor.ip }, now);
  });
}

/** An endpoint's deliveries, newest first, each with its attempts. */
export async function deliveries(ctx: AppContext, endpointId: string, page: { limit: number; cursor?: string | undefined }): Promise<{ items: WebhookDelivery[]; nextCursor: string | null }> {
  if (!(await repo.endpointById(ctx.db, endpointId))) throw new AppError('NOT_FOUND');
  const { rows, nextCursor } = await repo.deliveriesPage(ctx.db, endpointId, page);
  const attempts = new Map<string, WebhookDelivery['attempts']>();
  for (const a of await repo.attemptsOf(ctx.db, rows.map((r) => r.id))) {
    const list = attempts.get(a.delivery_id) ?? [];
    list.push({ at: Number(a.at), statusCode: a.status_code, durationMs: a.duration_ms, error: a.error });
    attempts.set(a.delivery_id, list);
  }
  return {
    items: rows.map((r) => ({
      id: r.id, eventId: r.event_id, type: r.type, status: r.status,
      // The successful attempt is kept on the delivery (it is the last one).
      attempts: r.last_attempt_at === null
        ? attempts.get(r.id) ?? []
        : [...attempts.get(r.id) ?? [], { at: Number(r.last_attempt_at), statusCode: r.last_status_code, durationMs: Number(r.last_duration_ms), error: null }],
      nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
      createdAt: Number(r.created_at),
    })),
    nextCursor,
  };
}

/** Every active admin is told (a staff notification, and a mail when on and not turned off) that an endpoint was disabled. */
async function tellAdmins(ctx: AppContext, tx: Tx, endpointId: string, url: string, reason: 'gone' | 'failing') {
  await alertStaff(ctx.mail, tx, { type: 'staff.webhook_disabled', endpointId, url, reason });
}

/** How one attempt ends a delivery (or schedules the next). */
export function outcomeOf(attempt: AttemptOutcome, attemptsBefore: number, now: number, delays: readonly number[]) {
  const attempts = attemptsBefore + 1;
  if (attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300) return { status: 'succeeded' as const, attempts, next: now, disable: false };
  if (attempt.statusCode === 410) return { status: 'failed' as const, attempts, next: now, disable: true };
  const delay = delays[attempts - 1];
  return delay === undefined ? { status: 'failed' as const, attempts, next: now, disable: false } : { status: 'pending' as const, attempts, next: now + delay, disable: false };
}

interface DispatcherOptions {
  /** How often the table is looked at (envelopes no dispatcher holds, retries). */
  intervalMs?: number;
  /** How long envelopes handed off by this process gather before a pass that would not be full. */
  lingerMs?: number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Deliveries sent at once by this instance. */
  concurrency?: number;
  /** Who makes the requests (default: this thread; a running server's dispatcher uses a thread of its own). */
  sender?: WebhookSender;
}

type Log = { warn(obj: unknown, msg: string): void };

/** A claim outlives the longest attempt by this much, with room for recording it. */
const CLAIM_MARGIN_MS = 5_000;
/** Deliveries of handed-off envelopes waiting in memory, at most (more are left to their claim's end, then the table). */
const LOCAL_QUEUE_MAX = 20_000;
/** An envelope with more deliveries than this is not sent from memory: it becomes pending deliveries first. */
const MAX_ENVELOPE_SENT = 512;
/** Envelopes made into deliveries per transaction. */
const EXPAND_BATCH = 64;

const deliveriesIn = (envelope: Envelope) => envelope.events.reduce((n, e) => n + e.deliveries.length, 0);

/**
 * Sends, one pass at a time: the envelopes this process wrote, handed to it after their commit
 * (gathered for `lingerMs` while they hold fewer deliveries than a pass), and every `intervalMs`
 * what waits in the table (envelopes no dispatcher holds, retries). Returns stop(); envelopes
 * handed off and not sent by then are sent when their claim has run out, by whichever dispatcher
 * looks first.
 */
export function startWebhookDispatcher(ctx: AppContext, log: Log, options: DispatcherOptions = {}) {
  const interval = options.intervalMs ?? 500;
  const linger = options.lingerMs ?? 50;
  const batch = options.concurrency ?? PASS_SIZE;
  const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  // Requests are made on a thread of their own (started at the first delivery).
  const sender = options.sender ?? threadedSender(log);
  const passOptions = { ...options, sender };
  const queue: Envelope[] = [];
  let queued = 0;
  let running: Promise<void> | null = null;
  let fromTable = true;
  let stopped = false;
  const loop = async () => {
    while (!stopped) {
      let worked = false;
      if (queue.length > 0) {
        if (queued < batch) await new Promise((resolve) => setTimeout(resolve, linger));
        if (stopped) return;
        // Whole envelopes, up to a pass's worth of deliveries (at least one envelope).
        const envelopes: Envelope[] = [];
        for (let n = 0; queue.length > 0 && (envelopes.length === 0 || n + deliveriesIn(queue[0]!) <= batch);) {
          const next = queue.shift()!;
          n += deliveriesIn(next);
          queued -= deliveriesIn(next);
          envelopes.push(next);
        }
        await dispatchDue(ctx, log, { ...passOptions, envelopes });
        worked = true;
      }
      // The table between hand-offs too, so that retries are not starved by a steady load.
      if (fromTable && !stopped) {
        fromTable = false;
        if ((await dispatchDue(ctx, log, passOptions)) >= batch) fromTable = true;
        worked = true;
      }
      if (!worked) return;
    }
  };
  const run = () => {
    running ??= loop().catch((error: unknown) => log.warn({ err: error }, 'webhook dispatch failed')).finally(() => (running = null));
  };
  ctx.webhooks.local = {
    claimMs: timeout + CLAIM_MARGIN_MS,
    take(envelope) {
      if (stopped || queued >= LOCAL_QUEUE_MAX) return;
      queue.push(envelope);
      queued += deliveriesIn(envelope);
      run();
    },
  };
  run();
  const timer = setInterval(() => {
    fromTable = true;
    run();
  }, interval);
  timer.unref();
  return async () => {
    stopped = true;
    ctx.webhooks.local = null;
    clearInterval(timer);
    await running;
    await sender.close();
  };
}

/** A delivery to attempt in a pass. */
interface Due {
  id: string;
  attempts: number;
  endpoint_id: string;
  event_id: string;
  body: string;
  url: string;
  endpoint_status: 'enabled' | 'disabled';
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_until: number | null;
  /** The endpoint's failing mark as this process last read it (undefined: not read). */
  failingSince?: number | null;
}

/** What one attempt came to. */
interface Sent {
  d: Due;
  attempt: AttemptOutcome;
  outcome: ReturnType<typeof outcomeOf>;
  /** When the attempt was made. */
  at: number;
}

/**
 * One pass. With `envelopes` (handed off by this process, claimed for it): their deliveries are
 * sent, then their events and deliveries written with each first attempt's outcome and the
 * envelopes deleted, in one transaction. Otherwise: envelopes no dispatcher holds are made into
 * pending deliveries, and up to `concurrency` due deliveries are claimed, sent, and their outcomes
 * recorded in one statement whatever they are (a transaction per attempt cost as much as the sale
 * that caused it). Returns how many deliveries it took.
 */
export async function dispatchDue(ctx: AppContext, log: Log, options: DispatcherOptions & { envelopes?: Envelope[] } = {}): Promise<number> {
  if (options.envelopes) return sendEnvelopes(ctx, log, options.envelopes, options);
  const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const now = Date.now();
  try {
    await expandDue(ctx, now);
  } catch (error) {
    // Tried again next pass; what is already pending is sent meanwhile.
    log.warn({ err: error }, 'webhook envelopes could not be made into deliveries');
  }
  const until = now + timeout + CLAIM_MARGIN_MS;
  const ids = await claimDue(ctx.db, ctx.dialect, 'webhook_deliveries', now, until, options.concurrency ?? PASS_SIZE);
  if (ids.length === 0) return 0;
  const due: Due[] = [];
  for (const d of await repo.deliveriesToSend(ctx.db, ids)) {
    if (d.status !== 'pending') continue;
    due.push({
      id: d.id, attempts: Number(d.attempts), endpoint_id: d.endpoint_id, event_id: d.event_id, body: d.body, url: d.url, endpoint_status: d.endpoint_status,
      secret_sealed: d.secret_sealed, previous_secret_sealed: d.previous_secret_sealed, previous_until: d.previous_until === null ? null : Number(d.previous_until),
    });
  }
  const sent = await attempt(ctx, due, options);
  let forget = false;
  try {
    await ctx.uow.run(async (tx) => {
      const mine = new Set(await repo.settleAttempts(tx.q, sent.map(({ d, attempt: a, outcome, at }): repo.Settled => {
        const ok = outcome.status === 'succeeded';
        return { id: d.id, claim: until, status: outcome.status, next: outcome.next, code: a.statusCode, at: ok ? at : null, ms: ok ? a.durationMs : null };
      }), Date.now()));
      // The claim ran out and another instance took the delivery: its attempt is the one recorded.
      forget = await recordAttempts(ctx, tx, sent.filter((s) => mine.has(s.d.id)));
    });
  } catch (error) {
    // Not recorded: the claims run out and the deliveries are sent again (at least once).
    log.warn({ err: error, deliveries: sent.length }, 'webhook attempts could not be recorded');
  }
  if (forget) ctx.webhooks.forget();
  return ids.length;
}

/** Signs and sends `due` (a disabled endpoint's deliveries fail unsent); the outcome of each. */
async function attempt(ctx: AppContext, due: Due[], options: DispatcherOptions): Promise<Sent[]> {
  const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const now = Date.now();
  const secretsOf = new Map<string, string[]>();
  const sendable = due.filter((d) => d.endpoint_status === 'enabled');
  const items = sendable.map((d) => {
    let secrets = secretsOf.get(d.endpoint_id);
    if (!secrets) {
      secrets = [ctx.master.decrypt(d.secret_sealed, SECRET_AAD).toString()];
      if (d.previous_secret_sealed && d.previous_until !== null && d.previous_until > now) secrets.push(ctx.master.decrypt(d.previous_secret_sealed, SECRET_AAD).toString());
      secretsOf.set(d.endpoint_id, secrets);
    }
    return { eventId: d.event_id, url: d.url, body: d.body, secrets };
  });
  const outcomes = items.length === 0 ? [] : await (options.sender ?? inlineSender).send(items, { allowPrivate: ctx.config.webhookAllowPrivate, timeoutMs: timeout, userAgent: `PromotionAssistant-Webhooks/${ctx.config.version}` });
  const answeredAt = Date.now();
  const outcomeById = new Map(sendable.map((d, i) => [d.id, outcomes[i]!]));
  const counted = ctx.metrics.webhookDeliveries;
  return due.map((d) => {
    const a: AttemptOutcome = outcomeById.get(d.id) ?? { statusCode: null, durationMs: 0, error: 'endpoint disabled' };
    const outcome = d.endpoint_status !== 'enabled'
      ? { status: 'failed' as const, attempts: d.attempts + 1, next: answeredAt, disable: false }
      : outcomeOf(a, d.attempts, answeredAt, delays);
    counted[outcome.status === 'pending' ? 'retry' : outcome.status].n++;
    // An attempt is logged at the moment it was made.
    return { d, attempt: a, outcome, at: answeredAt - a.durationMs };
  });
}

/** What waits to be sent, in the table (for /metrics): pending deliveries, and envelopes not yet made into deliveries. */
export function webhookQueue(ctx: AppContext): Promise<{ deliveries: number; envelopes: number }> {
  return repo.queueDepth(ctx.db);
}

/**
 * After the deliveries of `sent` are recorded: the attempts that did not succeed as rows of their
 * own (a successful one is kept on its delivery), an endpoint that answered 410 disabled, and each
 * endpoint's failing mark kept — disabled after FAILING_DISABLE_MS of nothing but failures. Returns
 * whether the endpoints cache must be read again.
 */
async function recordAttempts(ctx: AppContext, tx: Tx, sent: Sent[]): Promise<boolean> {
  const q = tx.q;
  let forget = false;
  /** Per enabled endpoint: whether every attempt of this pass at it failed. */
  const health = new Map<string, { failed: boolean; at: number; known: number | null | undefined }>();
  const attempts: WebhookAttemptsTable[] = [];
  const gone = new Set<string>();
  for (const { d, attempt: a, outcome: o, at } of sent) {
    if (o.status !== 'succeeded') attempts.push({ id: newId(at), delivery_id: d.id, at, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error });
    if (o.disable) {
      // Once per endpoint, however many of its deliveries were answered 410 in this pass.
      if (!gone.has(d.endpoint_id)) {
        gone.add(d.endpoint_id);
        await repo.updateEndpoint(q, d.endpoint_id, { status: 'disabled', disabled_reason: 'gone', updated_at: at });
        await tellAdmins(ctx, tx, d.endpoint_id, d.url, 'gone');
      }
      forget = true;
    } else if (d.endpoint_status === 'enabled') {
      // Failing in this pass when none of its attempts succeeded.
      health.set(d.endpoint_id, { failed: (health.get(d.endpoint_id)?.failed ?? true) && o.status !== 'succeeded', at, known: d.failingSince });
    }
  }
  await repo.insertAttempts(q, attempts);
  for (const [endpointId, { failed, at, known }] of health) {
    if (gone.has(endpointId)) continue;
    // Known not to be failing, and it did not fail now: nothing to change.
    if (!failed && known === null) continue;
    await repo.markEndpointHealth(q, endpointId, failed, at);
    const since = failed ? (await repo.failingSince(q, endpointId))?.failing_since : null;
    if (since != null && at - Number(since) >= FAILING_DISABLE_MS) {
      await repo.updateEndpoint(q, endpointId, { status: 'disabled', disabled_reason: 'failing', updated_at: at });
      await tellAdmins(ctx, tx, endpointId, sent.find((s) => s.d.endpoint_id === endpointId)!.d.url, 'failing');
      forget = true;
    }
    // Its mark changed: read it again with the next pass.
    if (failed !== (known != null)) forget = true;
  }
  return forget;
}

/** A delivery row as an envelope makes it: pending (due since its event), or with its first attempt's outcome. */
function deliveryRow(event: EnvelopeEvent, delivery: { id: string; endpointId: string }, now: number, sent?: Sent): WebhookDeliveriesTable {
  const row = pendingDelivery(event, delivery, null, now);
  if (!sent) return row;
  const ok = sent.outcome.status === 'succeeded';
  return { ...row, status: sent.outcome.status, attempts: 1, next_attempt_at: sent.outcome.next, last_status_code: sent.attempt.statusCode, last_attempt_at: ok ? sent.at : null, last_duration_ms: ok ? sent.attempt.durationMs : null };
}

/**
 * The local pass: sends the deliveries of envelopes this process wrote (what is needed to send
 * them is at hand), then — while each envelope's claim holds — writes their events and deliveries
 * with the outcomes and deletes the envelopes. An envelope too late to be answered within its claim
 * is left to it (the table has it when it runs out); one with very many deliveries is made into
 * pending deliveries first.
 */
async function sendEnvelopes(ctx: AppContext, log: Log, envelopes: Envelope[], options: DispatcherOptions): Promise<number> {
  const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const now = Date.now();
  const fresh = envelopes.filter((e) => e.claimedUntil - now >= timeout + 1_000);
  const large = fresh.filter((e) => deliveriesIn(e) > MAX_ENVELOPE_SENT);
  const largeRows = large.filter((e) => !e.written);
  if (largeRows.length > 0) await expandEnvelopes(ctx, largeRows.map((e) => ({ id: e.id, claimed_until: e.claimedUntil, events: e.events })));
  const largeWritten = large.filter((e) => e.written);
  if (largeWritten.length > 0) {
    await ctx.uow.run(async ({ q }) => {
      for (const e of largeWritten) await repo.releaseDeliveries(q, e.events.flatMap((ev) => ev.deliveries.map((d) => d.id)), e.claimedUntil);
    });
  }
  const sending = fresh.filter((e) => deliveriesIn(e) <= MAX_ENVELOPE_SENT);
  const due: Due[] = [];
  const claimOf = new Map<string, number>();
  /** Deliveries (not yet rows) to endpoints not enabled now (disabled or deleted since): decided in the transaction. */
  const elsewhere: { event: EnvelopeEvent; delivery: { id: string; endpointId: string } }[] = [];
  const endpoints = new Map<string, CachedEndpoint | undefined>();
  for (const envelope of sending) {
    for (const event of envelope.events) {
      for (const delivery of event.deliveries) {
        if (!endpoints.has(delivery.endpointId)) endpoints.set(delivery.endpointId, await ctx.webhooks.endpoint(ctx.db, delivery.endpointId));
        const ep = endpoints.get(delivery.endpointId);
        if (!ep) {
          // A written one is left to its claim: then the table path decides.
          if (!envelope.written) elsewhere.push({ event, delivery });
          continue;
        }
        claimOf.set(delivery.id, envelope.claimedUntil);
        due.push({
          id: delivery.id, attempts: 0, endpoint_id: ep.id, event_id: event.id, body: event.body, url: ep.url, endpoint_status: 'enabled',
          secret_sealed: ep.secret_sealed, previous_secret_sealed: ep.previous_secret_sealed, previous_until: ep.previous_until, failingSince: ep.failing_since,
        });
      }
    }
  }
  const sent = await attempt(ctx, due, options);
  const sentById = new Map(sent.map((s) => [s.d.id, s]));
  let forget = false;
  try {
    await ctx.uow.run(async (tx) => {
      const recorded: Sent[] = [];
      // Deliveries that are rows already: their outcome, while their claim holds.
      const written = sending.filter((e) => e.written).flatMap((e) => e.events.flatMap((ev) => ev.deliveries.map((d) => d.id))).filter((id) => sentById.has(id));
      if (written.length > 0) {
        const mine = new Set(await repo.settleAttempts(tx.q, written.map((id): repo.Settled => {
          const { attempt: a, outcome, at } = sentById.get(id)!;
          const ok = outcome.status === 'succeeded';
          return { id, claim: claimOf.get(id)!, status: outcome.status, next: outcome.next, code: a.statusCode, at: ok ? at : null, ms: ok ? a.durationMs : null };
        }), Date.now()));
        for (const id of mine) recorded.push(sentById.get(id)!);
      }
      // Envelopes: their events and deliveries, while the envelope's claim holds.
      const envelopesSent = sending.filter((e) => !e.written);
      const mine = new Set(await repo.takeEnvelopes(tx.q, envelopesSent.map((e) => ({ id: e.id, claimed_until: e.claimedUntil }))));
      if (mine.size > 0) {
        const recordedAt = Date.now();
        const events = envelopesSent.filter((e) => mine.has(e.id)).flatMap((e) => e.events);
        const existing = elsewhere.length > 0 ? new Set(await repo.endpointIdsAmong(tx.q, [...new Set(elsewhere.map((x) => x.delivery.endpointId))])) : new Set<string>();
        const deliveries: WebhookDeliveriesTable[] = [];
        for (const event of events) {
          for (const delivery of event.deliveries) {
            const s = sentById.get(delivery.id);
            if (s) {
              deliveries.push(deliveryRow(event, delivery, recordedAt, s));
              recorded.push(s);
            } else if (existing.has(delivery.endpointId)) {
              // Its endpoint was disabled meanwhile: failed unsent, as a claimed delivery would.
              deliveries.push({ ...deliveryRow(event, delivery, recordedAt), status: 'failed', attempts: 1, next_attempt_at: recordedAt });
            }
            // Its endpoint was deleted meanwhile: no delivery (deleting an endpoint deletes its deliveries).
          }
        }
        await repo.insertEvents(tx.q, eventRows(events));
        await repo.insertDeliveries(tx.q, deliveries);
      }
      forget = await recordAttempts(ctx, tx, recorded);
    });
  } catch (error) {
    // Not recorded: the claims run out and the deliveries are sent again (at least once).
    log.warn({ err: error, deliveries: sent.length }, 'webhook attempts could not be recorded');
  }
  if (forget) ctx.webhooks.forget();
  return envelopes.reduce((n, e) => n + deliveriesIn(e), 0);
}

/** Makes envelopes no dispatcher holds (never claimed, or their claim ran out) into pending deliveries. */
export async function expandDue(ctx: AppContext, now: number) {
  for (;;) {
    const rows = await repo.dueEnvelopes(ctx.db, now, EXPAND_BATCH);
    if (rows.length === 0) return;
    await expandEnvelopes(ctx, rows.map((r) => ({ id: r.id, claimed_until: r.claimed_until === null ? null : Number(r.claimed_until), events: (typeof r.events === 'string' ? JSON.parse(r.events) : r.events) as EnvelopeEvent[] })));
    if (rows.length < EXPAND_BATCH) return;
  }
}

/** Writes envelopes' events and pending deliveries and deletes them, each while it is as it was read (one instance does each). */
async function expandEnvelopes(ctx: AppContext, envelopes: { id: string; claimed_until: number | null; events: EnvelopeEvent[] }[]) {
  await ctx.uow.run(async ({ q }) => {
    const mine = new Set(await repo.takeEnvelopes(q, envelopes));
    if (mine.size === 0) return;
    const events = envelopes.filter((e) => mine.has(e.id)).flatMap((e) => e.events);
    const existing = new Set(await repo.endpointIdsAmong(q, [...new Set(events.flatMap((e) => e.deliveries.map((d) => d.endpointId)))]));
    const now = Date.now();
    await repo.insertEvents(q, eventRows(events));
    await repo.insertDeliveries(q, events.flatMap((e) => e.deliveries.filter((d) => existing.has(d.endpointId)).map((d) => deliveryRow(e, d, now))));
  });
}
