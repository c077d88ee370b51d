/** docs/webhooks.md shows one example body per event type, each in the API's shape of its object (checked here, so the docs cannot drift). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BountyEarnedEventSchema, CommissionSchema, ConversionSchema, EnrollmentSchema, UserSchema, WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, WithdrawalSchema } from '@pa/shared';

const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/webhooks.md'), 'utf8');
const examples = new Map<string, unknown>();
for (const match of doc.matchAll(/^### `([a-z.]+)`\n\n```json\n([\s\S]*?)\n```/gm)) examples.set(match[1]!, JSON.parse(match[2]!));

const dataSchema = (type: string): z.ZodType => {
  const object = type.split('.')[0];
  if (object === 'conversion') return ConversionSchema.strict();
  if (object === 'commission') return CommissionSchema.strict();
  if (object === 'bounty') return BountyEarnedEventSchema.strict();
  if (object === 'withdrawal') return WithdrawalSchema.strict();
  if (object === 'promoter') return UserSchema.strict();
  if (object === 'enrollment') return EnrollmentSchema.extend({ promoterId: z.string(), decidedAt: z.number().int().nullable() }).strict();
  return z.strictObject({ endpointId: z.string(), message: z.string() });
};

describe('docs/webhooks.md example payloads', () => {
  it('has one for every event type and the test event, nothing else', () => {
    expect([...examples.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT].sort());
  });
  it.each([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT])('%s: { type, timestamp, data } with data in the API’s shape', (type) => {
    const body = examples.get(type) as { type: string; timestamp: string; data: unknown };
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(body.type).toBe(type);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    const parsed = dataSchema(type).safeParse(body.data);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // The object's status is the one the event names (an approved promoter is active).
    const status = (body.data as { status?: string }).status;
    const expected: Record<string, string> = { 'promoter.approved': 'active', 'promoter.registered': 'pending', 'commission.created': 'pending', 'enrollment.created': 'pending' };
    const verb = type.split('.')[1]!;
    // A bounty earned: its commission is made pending, as any other.
    if (type === 'bounty.earned') expect((body.data as { commission: { status: string } }).commission.status).toBe('pending');
    if (expected[type]) expect(status).toBe(expected[type]);
    else if (['approved', 'rejected', 'paid', 'failed', 'cancelled', 'requested', 'suspended'].includes(verb)) expect(status).toBe(verb);
  });
});
