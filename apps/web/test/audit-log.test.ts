import { describe, expect, it } from 'vitest';
import { toCsv } from '@pa/shared/csv';
import {
  auditDiff, csvRecordCount, daysInOrder, filtersFromParams, filtersToQuery, isInstantField, isMoneyField, jsonEqual, parseActionInput,
} from '../src/features/audit/lib/audit';

const kinds = (rows: ReturnType<typeof auditDiff>) => rows.map((r) => `${r.key}:${r.kind}`);

describe('an audit entry’s before and after', () => {
  it('marks a manual adjustment: the balance changed, the adjustment’s fields added, changes first', () => {
    const rows = auditDiff(
      { available: 500 },
      { available: 1734, adjustmentId: 'adj1', amount: 1234, reason: 'Launch bonus for the tea campaign', allowNegative: false },
    );
    expect(kinds(rows)).toEqual(['available:changed', 'adjustmentId:added', 'amount:added', 'reason:added', 'allowNegative:added']);
    expect(rows[0]).toMatchObject({ before: 500, after: 1734, hasBefore: true, hasAfter: true });
    expect(rows.find((r) => r.key === 'reason')).toMatchObject({ before: undefined, after: 'Launch bonus for the tea campaign', hasBefore: false });
  });

  it('keeps the fields a partial change did not touch (settings: before is all, after is the patch), after the changes', () => {
    const rows = auditDiff(
      { registrationMode: 'open', currency: 'CNY', timeZone: 'Asia/Shanghai', leaderboardEnabled: true },
      { timeZone: 'Europe/Paris', leaderboardEnabled: true },
    );
    expect(kinds(rows)).toEqual(['timeZone:changed', 'registrationMode:kept', 'currency:kept', 'leaderboardEnabled:same']);
  });

  it('calls every field removed only when the whole thing went (a deletion), and added when it is new', () => {
    expect(kinds(auditDiff({ title: 'Hi', pinned: false }, null))).toEqual(['title:removed', 'pinned:removed']);
    expect(kinds(auditDiff(null, { name: 'Shop', scopes: ['conversions:write'] }))).toEqual(['name:added', 'scopes:added']);
    expect(auditDiff(null, null)).toEqual([]);
    expect(auditDiff(undefined, undefined)).toEqual([]);
  });

  it('compares nested values by content, not by key order or identity', () => {
    const rows = auditDiff({ names: { en: 'Tea', fr: 'Thé' }, tags: [1, 2] }, { names: { fr: 'Thé', en: 'Tea' }, tags: [1, 2, 3] });
    expect(kinds(rows)).toEqual(['tags:changed', 'names:same']);
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });

  it('shows a value that is not an object as one row', () => {
    expect(kinds(auditDiff('draft', 'published'))).toEqual([':changed']);
    expect(kinds(auditDiff(null, ['a']))).toEqual([':added']);
    expect(kinds(auditDiff(3, 3))).toEqual([':same']);
  });

  it('tells a null value from a missing one', () => {
    const [row] = auditDiff({ revokedAt: null }, { revokedAt: 1_700_000_000_000 });
    expect(row).toMatchObject({ key: 'revokedAt', kind: 'changed', before: null, hasBefore: true });
  });

  it('reads money and instants only where the field says so', () => {
    expect(isMoneyField('amount', 1234)).toBe(true);
    expect(isMoneyField('amount', 12.5)).toBe(false);
    expect(isMoneyField('count', 3)).toBe(false);
    expect(isInstantField('expiresAt', 1_700_000_000_000)).toBe(true);
    expect(isInstantField('expiresAt', null)).toBe(false);
    expect(isInstantField('count', 1_700_000_000_000)).toBe(false);
  });
});

describe('the action filter as typed', () => {
  const labels = new Map([['promoter.adjust', 'Manual adjustment'], ['withdrawal.paid', 'Withdrawal paid']]);
  it('takes a code, an area, or a label in the reader’s language', () => {
    expect(parseActionInput('promoter.adjust', labels)).toEqual({ ok: true, action: 'promoter.adjust' });
    expect(parseActionInput('  Withdrawal.Paid ', labels)).toEqual({ ok: true, action: 'withdrawal.paid' });
    expect(parseActionInput('withdrawal', labels)).toEqual({ ok: true, action: 'withdrawal.' });
    expect(parseActionInput('withdrawal.', labels)).toEqual({ ok: true, action: 'withdrawal.' });
    expect(parseActionInput('manual ADJUSTMENT', labels)).toEqual({ ok: true, action: 'promoter.adjust' });
    expect(parseActionInput('', labels)).toEqual({ ok: true, action: undefined });
  });
  it('strips the break the list puts after the dot when a code is copied from it', () => {
    expect(parseActionInput('promoter.\u200badjust', labels)).toEqual({ ok: true, action: 'promoter.adjust' });
  });
  it('refuses what the server would: an unknown area word, spaces, other characters', () => {
    expect(parseActionInput('nonsense', labels)).toEqual({ ok: false });
    expect(parseActionInput('promoter adjust', labels)).toEqual({ ok: false });
    expect(parseActionInput('promoter.adjust;drop', labels)).toEqual({ ok: false });
  });
});

describe('the filters in the address', () => {
  it('keeps what the server takes, in a fixed order, and drops the rest', () => {
    const params = new URLSearchParams('to=2026-11-30&action=promoter.adjust&from=2026-11-01&entityType=user&entityId=u1&actor=system&x=1');
    const filters = filtersFromParams(params);
    expect(filters).toEqual({ actor: 'system', action: 'promoter.adjust', entityType: 'user', entityId: 'u1', from: '2026-11-01', to: '2026-11-30' });
    expect(filtersToQuery(filters)).toBe('actor=system&action=promoter.adjust&entityType=user&entityId=u1&from=2026-11-01&to=2026-11-30');
    expect(filtersFromParams(new URLSearchParams('from=yesterday&action=DROP TABLE&entityType=User!&actor=' + 'x'.repeat(65)))).toEqual({});
    expect(filtersToQuery({ action: '', actor: undefined })).toBe('');
  });
  it('checks the range reads forwards', () => {
    expect(daysInOrder('2026-11-01', '2026-11-30')).toBe(true);
    expect(daysInOrder('2026-11-30', '2026-11-30')).toBe(true);
    expect(daysInOrder('2026-12-01', '2026-11-30')).toBe(false);
    expect(daysInOrder(undefined, '2026-11-30')).toBe(true);
  });
});

describe('the export’s row count', () => {
  it('counts records under the header, with line breaks and quotes inside fields', () => {
    const csv = toCsv(['at', 'after'], [['2026-11-24', '{"reason":"Line one\nline two, \\"quoted\\""}'], ['2026-11-25', 'x']]);
    expect(csvRecordCount(csv)).toBe(2);
    expect(csvRecordCount(toCsv(['at'], []))).toBe(0);
    expect(csvRecordCount('')).toBe(0);
    expect(csvRecordCount('a,b\n1,2')).toBe(1);
    expect(csvRecordCount('a\r\n,\r\n')).toBe(1);
  });
});
