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
import { WEBHOOK_PREVIOUS_SECRET_MS, WEBHOOK_TEST_EVENT } from '@pa/shared';
import type { AppContext } from '../../context';
import type { WebhookAttemptsTable, WebhookEndpointsTable } from '../../db/types';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { urlProblem } from '../../platform/outbound-address';
import { WEBHOOK_OUTBOX } from '../../platform/webhooks/outbox';
import { mailUser } from '../../platform/mail/outbox';
import { DISABLED_REASONS } from '../../platform/mail/templates';
import type { Tx } from '../../db/unit-of-work';
import type { AttemptOutcome } from '../../platform/webhooks/send';
import { inlineSender, threadedSender, type WebhookSender } from '../../platform/webhooks/sender';
import { newWebhookSecret } from '../../platform/webhooks/signing';
import { claimDue } from '../../platform/outbox-claims';
import * as repo from './repository';

const SECRET_AAD = 'webhook-secret';
const LIST_LIMIT = 200;
/** After the nth failed attempt, the next one this much later; after the last, the delivery has failed. */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Deliveries one dispatcher pass claims and sends at once (at most 64 connections per receiver's host, platform/webhooks/send.ts). */
export const PASS_SIZE = 128;
/** An endpoint whose deliveries have failed, none succeeding, for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 86_400_000;

const toEndpoint = (r: repo.EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  events: JSON.parse(r.events_json) as WebhookEventType[],
  status: r.status,
  disabledReason: r.disabled_reason,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export async function endpoints(ctx: AppContext): Promise<WebhookEndpoint[]> {
  return (await repo.listEndpoints(ctx.db, LIST_LIMIT)).map(toEndpoint);
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
  return toEndpoint(after);
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
  return { endpoint: toEndpoint(row), secret };
}

/** Sends a delivery that has ended again, now (its attempts so far stay in its log). */
export async function retryDelivery(ctx: AppContext, actor: Actor, id: string) {
  const now = Date.now();
  await ctx.uow.run(async ({ q }) => {
    const d = await repo.deliveryState(q, id);
    if (!d) throw new AppError('NOT_FOUND');
    if (d.status === 'pending') throw new AppError('INVALID_STATE_TRANSITION');
    await repo.requeueDelivery(q, id, now);
    await audit(q, { actorId: actor.userId, action: 'webhook.retry', entity: 'webhook', entityId: d.endpoint_id, before: { delivery: id, status: d.status }, after: { status: 'pending' }, ip: actor.ip }, now);
  });
  return { delivery: { id, status: 'pending' as const, nextAttemptAt: now } };
}

/** Sends `webhook.test` to one endpoint (through the outbox, like any event). */
export async function sendTest(ctx: AppContext, actor: Actor, id: string): Promise<void> {
  const now = Date.now();
  await ctx.uow.run(async (tx) => {
    const row = await repo.endpointById(tx.q, id);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== 'enabled') throw new AppError('INVALID_STATE_TRANSITION');
    tx.collect(WEBHOOK_OUTBOX).events.push({ type: WEBHOOK_TEST_EVENT, data: { endpointId: id, message: 'A test event from Promotion Assistant.' }, endpointIds: [id] });
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
      attempts: attempts.get(r.id) ?? [],
      nextAttemptAt: r.status === 'pending' ? Number(r.next_attempt_at) : null,
      createdAt: Number(r.created_at),
    })),
    nextCursor,
  };
}

/** Every active admin hears (by e-mail, when on and not turned off) that an endpoint was disabled. */
async function tellAdmins(ctx: AppContext, tx: Tx, url: string, reason: 'gone' | 'failing') {
  for (const admin of await repo.activeAdmins(tx.q)) {
    await mailUser(ctx.mail, tx, admin.id, { template: 'webhook_disabled', params: { url, reason: { localized: DISABLED_REASONS[reason] } }, path: '/admin/webhooks' });
  }
}

/** How one attempt ends a delivery (or schedules the next). */
export function outcomeOf(attempt: AttemptOutcome, attemptsBefore: number, now: number, delays: readonly number[]) {
  const attempts = attemptsBefore + 1;
  if (attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300) return { status: 'succeeded' as const, attempts, next: now, disable: false };
  if (attempt.statusCode === 410) return { status: 'failed' as const, attempts, next: now, disable: true };
  const delay = delays[attempts - 1];
  return delay === undefined ? { status: 'failed' as const, attempts, next: now, disable: false } : { status: 'pending' as const, attempts, next: now + delay, disable: false };
}

export interface DispatcherOptions {
  intervalMs?: number;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Deliveries sent at once by this instance. */
  concurrency?: number;
  /** Who makes the requests (default: this thread; a running server's dispatcher uses a thread of its own). */
  sender?: WebhookSender;
}

type Log = { warn(obj: unknown, msg: string): void };

/** Claims due deliveries and sends them, every `intervalMs` (one pass at a time); returns stop(). */
export function startWebhookDispatcher(ctx: AppContext, log: Log, options: DispatcherOptions = {}) {
  const interval = options.intervalMs ?? 500;
  const batch = options.concurrency ?? PASS_SIZE;
  let running: Promise<void> | null = null;
  let stopped = false;
  // Requests are made on a thread of their own (started at the first delivery).
  const sender = options.sender ?? threadedSender(log);
  const pass = async () => {
    // Full passes follow each other, so a burst drains without waiting a tick each time; a pass
    // that was not full waits for the next tick, so that under a steady trickle each pass gathers
    // what came meanwhile (a pass's database work costs about the same for 3 deliveries as for 128).
    for (let claimed = batch; claimed >= batch && !stopped;) claimed = await dispatchDue(ctx, log, { ...options, sender });
  };
  const run = () => {
    running ??= pass().catch((error: unknown) => log.warn({ err: error }, 'webhook dispatch failed')).finally(() => (running = null));
  };
  run();
  const timer = setInterval(run, interval);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
    await sender.close();
  };
}

/**
 * One pass: claims up to `concurrency` due deliveries, sends them at once, and records every
 * outcome in one transaction (a transaction per attempt cost as much as the sale that caused it).
 * Returns how many it claimed.
 */
export async function dispatchDue(ctx: AppContext, log: Log, options: DispatcherOptions = {}): Promise<number> {
  const timeout = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  const now = Date.now();
  // The claim outlives the longest attempt, with room for recording it; a claim left by an
  // instance that died is taken again when it runs out.
  const until = now + timeout + 5_000;
  const ids = await claimDue(ctx.db, ctx.dialect, 'webhook_deliveries', now, until, options.concurrency ?? PASS_SIZE);
  if (ids.length === 0) return 0;
  const due = (await repo.deliveriesToSend(ctx.db, ids)).filter((d) => d.status === 'pending');
  const secretsOf = new Map<string, string[]>();
  const sendable = due.filter((d) => d.endpoint_status === 'enabled');
  const items = sendable.map((d) => {
    let secrets = secretsOf.get(d.endpoint_id);
    if (!secrets) {
      secrets = [ctx.master.decrypt(d.secret_sealed, SECRET_AAD).toString()];
      if (d.previous_secret_sealed && d.previous_until !== null && Number(d.previous_until) > now) secrets.push(ctx.master.decrypt(d.previous_secret_sealed, SECRET_AAD).toString());
      secretsOf.set(d.endpoint_id, secrets);
    }
    return { eventId: d.event_id, url: d.url, body: d.body, secrets };
  });
  const outcomes = await (options.sender ?? inlineSender).send(items, { allowPrivate: ctx.config.webhookAllowPrivate, timeoutMs: timeout, userAgent: `PromotionAssistant-Webhooks/${ctx.config.version}` });
  const answeredAt = Date.now();
  const outcomeById = new Map(sendable.map((d, i) => [d.id, outcomes[i]!]));
  const sent = due.map((d) => {
    const attempt: AttemptOutcome = outcomeById.get(d.id) ?? { statusCode: null, durationMs: 0, error: 'endpoint disabled' };
    const outcome = d.endpoint_status !== 'enabled'
      ? { status: 'failed' as const, attempts: Number(d.attempts) + 1, next: answeredAt, disable: false }
      : outcomeOf(attempt, Number(d.attempts), answeredAt, delays);
    // An attempt is logged at the moment it was made.
    return { d, attempt, outcome, at: answeredAt - attempt.durationMs };
  });
  let forget = false;
  try {
    await ctx.uow.run(async (tx) => {
      const q = tx.q;
      /** Per enabled endpoint: whether every attempt of this pass at it failed. */
      const health = new Map<string, { failed: boolean; at: number }>();
      const attempts: WebhookAttemptsTable[] = [];
      const gone = new Set<string>();
      // One statement per distinct outcome (usually one: every delivery of the pass succeeded).
      const groups = new Map<string, typeof sent>();
      for (const entry of sent) {
        const key = `${entry.outcome.status}|${entry.outcome.next}|${entry.attempt.statusCode}`;
        const group = groups.get(key);
        if (group) group.push(entry);
        else groups.set(key, [entry]);
      }
      for (const group of groups.values()) {
        const { outcome, attempt } = group[0]!;
        const mine = new Set(await repo.settleDeliveries(q, group.map((e) => e.d.id), until, { status: outcome.status, next_attempt_at: outcome.next, last_status_code: attempt.statusCode, updated_at: answeredAt }));
        for (const { d, attempt: a, outcome: o, at } of group) {
          // The claim ran out and another instance took the delivery: its attempt is the one recorded.
          if (!mine.has(d.id)) continue;
          attempts.push({ id: newId(at), delivery_id: d.id, at, status_code: a.statusCode, duration_ms: a.durationMs, error: a.error });
          if (o.disable) {
            // Once per endpoint, however many of its deliveries were answered 410 in this pass.
            if (!gone.has(d.endpoint_id)) {
              gone.add(d.endpoint_id);
              await repo.updateEndpoint(q, d.endpoint_id, { status: 'disabled', disabled_reason: 'gone', updated_at: at });
              await tellAdmins(ctx, tx, d.url, 'gone');
            }
            forget = true;
          } else if (d.endpoint_status === 'enabled') {
            // Failing in this pass when none of its attempts succeeded.
            health.set(d.endpoint_id, { failed: (health.get(d.endpoint_id)?.failed ?? true) && o.status !== 'succeeded', at });
          }
        }
      }
      await repo.insertAttempts(q, attempts);
      for (const [endpointId, { failed, at }] of health) {
        if (gone.has(endpointId)) continue;
        await repo.markEndpointHealth(q, endpointId, failed, at);
        const since = failed ? (await repo.failingSince(q, endpointId))?.failing_since : null;
        if (since != null && at - Number(since) >= FAILING_DISABLE_MS) {
          await repo.updateEndpoint(q, endpointId, { status: 'disabled', disabled_reason: 'failing', updated_at: at });
          await tellAdmins(ctx, tx, sent.find((s) => s.d.endpoint_id === endpointId)!.d.url, 'failing');
          forget = true;
        }
      }
    });
  } catch (error) {
    // Not recorded: the claims run out and the deliveries are sent again (at least once).
    log.warn({ err: error, deliveries: sent.length }, 'webhook attempts could not be recorded');
  }
  if (forget) ctx.webhooks.forget();
  return ids.length;
}
